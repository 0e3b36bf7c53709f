"""Helpers of the proof tests: broken copies of a spec, wrong properties, and stacking real
tables around a counterexample (natural cards a scaffold may use)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.cards import Card, french_pack
from referee.engine.game import Game
from referee.errors import SpecError, SpecErrors
from referee.mechanics.rummy.mechanic import RummyMechanic
from referee.plugins.games import DEFAULT_SPECS, load_game
from referee.proofs.prover import prove, read_properties
from referee.spec.proofs_file import proofs_path
from tests.support.mechanic_of import mechanic_of

Edits = list[tuple[str, str]]  # (text of the spec, what it becomes)


def edited_spec(spec: str, tmp_path: Path, name: str, edits: Edits) -> Path:
    """A copy of `specs/<spec>.yaml`, and of its proofs file if it has one, with each edit
    applied once to whichever of the two holds its text (each text must occur once in them)."""
    original = DEFAULT_SPECS / f"{spec}.yaml"
    texts = {
        path: path.read_text(encoding="utf-8")
        for path in (original, proofs_path(original))
        if path.is_file()
    }
    for old, new in edits:
        assert sum(text.count(old) for text in texts.values()) == 1, old
        (holder,) = (path for path, text in texts.items() if old in text)
        texts[holder] = texts[holder].replace(old, new)
    path = tmp_path / f"{name}.yaml"
    for source, text in texts.items():
        (path if source == original else proofs_path(path)).write_text(text, encoding="utf-8")
    return path


def assert_located_property_error(
    spec: str, tmp_path: Path, old: str, new: str, message: str
) -> None:
    """Editing `old` into `new` in `spec`'s properties makes a spec error that says `message`
    and where: the copy's file that states the properties (its proofs file, if it has one)."""
    with pytest.raises((SpecError, SpecErrors)) as caught:
        path = edited_spec(spec, tmp_path, "wrong", [(old, new)])
        game = load_game(path, DEFAULT_SPECS)
        for prop in read_properties(game):
            prove(game, prop, rlimit=1)
    stated_in = proofs_path(path) if proofs_path(path).is_file() else path
    error = str(caught.value)
    assert message in error and f"{stated_in.name}:" in error, error


def jokers(game: Game, options: dict[str, Any], turned: Card) -> set[Card]:
    return {
        c
        for c in set(french_pack(2))
        if mechanic_of(game, RummyMechanic).config.is_joker(options, turned, c)
    }


def natural_sequence(length: int, avoid: Counter[Card], wild: set[Card]) -> list[Card]:
    """`length` consecutive natural cards of one suit, none of them a joker (`wild`), that the
    pack still holds once `avoid` is taken out of it."""
    left = Counter(french_pack(2)) - avoid
    for suit in "SHDC":
        for low in range(14 - length):
            run = [Card("A23456789TJQK"[low + k], suit) for k in range(length)]
            if all(left[c] and c not in wild for c in run):
                return run
    raise AssertionError(f"no natural sequence of {length} cards is left")


def natural_cards(count: int, avoid: Counter[Card], wild: set[Card]) -> list[Card]:
    """`count` cards that are no joker and that the pack still holds once `avoid` is out."""
    left = Counter(french_pack(2)) - avoid
    found = [c for c in sorted(left.elements()) if c not in wild]
    assert len(found) >= count, "the pack ran out of natural cards"
    return found[:count]

"""Every event a table can give says what happened, in each language of its game, and its text
names no card the receiver does not see in the event itself (the cards as players write them:
`7♥`, read back to their codes by `cards_said`)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.cards import PackKind, cards_said, codes_in, spoken
from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.i18n import CATALOGUE
from referee.i18n.events import Narrator
from referee.model import Event, Move
from referee_bots import pontoon_bot, rummy_bot, tricks_bot

ROOT = Path(__file__).resolve().parents[2]
BOTS: dict[str, Any] = {"rummy": rummy_bot, "banking": pontoon_bot, "tricks": tricks_bot}
SEATS = {"tarocchi_piedicavallo": 4}
EVENT_IN_CODE = re.compile(r'Event\(\s*"([a-z_]+)"')


def played_events(game: Game, seed: int, steps: int = 300) -> Iterator[Event]:
    """The events of a game played by the clients' bots (they propose, the table judges)."""
    table = Table.create(game, TableSetup(game=game.name, seats=SEATS.get(game.name, 3), seed=seed))
    rng, bot = random.Random(seed), BOTS[game.spec.mechanics]
    for _ in range(steps):
        public = table.view(None)
        seat = public.get("to_act")
        if seat is None:
            seat = next(iter(public.get("deciding") or []), None)
        if table.is_over or seat is None:
            return
        for candidate in bot.turn_candidates(table.view(seat), rng):
            body = dict(candidate)
            verdict = table.propose(seat, Move(body.pop("type"), body))
            if not verdict.violations:  # accepted, or a pending claim
                yield from verdict.events
                break
        else:
            closed = table.expire()
            if closed is None:
                return
            yield from closed.events


@pytest.mark.parametrize("name", ["pontinho", "pontoon", "shoot_pontoon", "tarocchi_piedicavallo"])
def test_each_event_is_told_to_each_seat_in_each_language(
    games: dict[str, Game], name: str
) -> None:
    game = games[name]
    kind = PackKind(game.spec.pack_kind)
    receivers = [None, *range(SEATS.get(name, 3))]
    told = set()
    for seed in (1, 2):
        for event in played_events(game, seed):
            for receiver in receivers:
                seen = event.seen_by(receiver)
                shown = {c for value in seen.values() for c in _cards(value, kind)}
                for language in game.spec.languages:
                    sentence = Narrator(game.spec.mechanics, language).tell(seen)
                    text = spoken(sentence, kind, language)  # as the service sends it
                    assert text, (event.kind, receiver, language)
                    assert codes_in(text, kind) == [], text  # no code: the cards in words
                    assert set(cards_said(text, kind, language)) <= shown, (text, seen)
                told.add(event.kind)
    assert len(told) >= 5, told  # the games went far enough to tell something


def _cards(value: Any, kind: PackKind) -> set[str]:
    if isinstance(value, str):
        return set(codes_in(value, kind))
    if isinstance(value, list):
        return {c for item in value for c in _cards(item, kind)}
    return set()


def test_a_secret_field_is_told_only_to_its_audience() -> None:
    drew = Event("drew", {"seat": 2, "stock_size": 40}, {"card": "7H"}, frozenset({2}))
    narrator = Narrator("rummy", "pt")
    assert narrator.tell(drew.seen_by(2)) == "você comprou 7H do monte"
    assert narrator.tell(drew.seen_by(1)) == "o lugar 2 comprou uma carta do monte (restam 40)"
    # the control: told from the unredacted event, the card would be named
    assert "7H" in narrator.tell({"kind": "drew", **drew.data, **drew.secret})


def test_every_event_kind_the_code_gives_has_a_sentence() -> None:
    kinds = {
        kind
        for path in (ROOT / "referee").rglob("*.py")
        for kind in EVENT_IN_CODE.findall(path.read_text(encoding="utf-8"))
    }
    assert len(kinds) > 30  # a control against a pattern that finds nothing
    keys = set(CATALOGUE.entries)
    untold = [
        k
        for k in sorted(kinds)
        if f"event.{k}" not in keys and not any(key.endswith(f".{k}") for key in keys)
    ]
    assert untold == []

"""A table's seed chain (docs/fair-deal.md): its mode, its root, and the entropy mixed into it.

- `fair` (live tables): the root is the referee's secret, drawn at creation, committed to by its
  sha256 in every view, revealed when the game is over.
- `seeded` / `stacked` (test and dispute mode): the creator chose the seed or the first deal;
  every view says so, and a chosen seed is shown to every seat.

Entropy mixes into the chain: the creator's (`entropy` at creation) and each seat's `contribute`
move, a move of the table itself (no mechanic sees it), logged like any other so it replays.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.engine import chance
from referee.engine.setup import TableSetup
from referee.errors import SetupError
from referee.i18n.catalogue import CATALOGUE
from referee.i18n.verdicts import unreadable
from referee.model import JSON, Move, Sentence, Violation

CONTRIBUTE = "contribute"
MAX_ENTROPY_CHARS = 64
CONTRIBUTE_TEXT = Sentence("move.contribute", {"most": MAX_ENTROPY_CHARS})


def contribute_move(language: str) -> dict[str, JSON]:
    """The move every game has, as DescribeGame lists it beside the game's own."""
    text = {lang: CATALOGUE.render(CONTRIBUTE_TEXT, lang) for lang in CATALOGUE.languages}
    return {
        "type": CONTRIBUTE,
        "fields": ["entropy"],
        "typed_fields": [{"name": "entropy", "type": "text", "optional": False}],
        "text": text,
        "sentence": CATALOGUE.render(CONTRIBUTE_TEXT, language),
    }


def mode(setup: TableSetup) -> str:
    """`stacked` (a first deal given), `seeded` (a chosen seed) or `fair`."""
    if setup.deal is not None:
        return "stacked"
    return "seeded" if setup.seed is not None else "fair"


def chosen(setup: TableSetup) -> bool:
    """Did the creator choose the cards (test and dispute mode)?"""
    return setup.deal is not None or setup.seed is not None


def resolved(setup: TableSetup) -> TableSetup:
    """The setup with its root filled in: without a chosen seed, a new secret."""
    if setup.seed is not None and setup.secret is not None:
        raise SetupError("give a `seed` or a `secret`, not both")
    if setup.secret is not None:
        _check_secret(setup.secret)
    if setup.entropy is not None:
        problem = entropy_problem(setup.entropy)
        if problem:
            raise SetupError(f"`entropy`: {problem}")
    if setup.seed is None and setup.secret is None:
        setup = replace(setup, secret=chance.new_secret())
    return setup


def root_of(setup: TableSetup) -> bytes:
    return chance.root(secret=setup.secret, seed=setup.seed)


def first_link(setup: TableSetup) -> str:
    """The link the first deal is shuffled from: the root's, with the creator's entropy."""
    link = chance.chain_start(root_of(setup))
    return link if setup.entropy is None else chance.mix(link, "creator", setup.entropy)


def read_contribution(move: Move) -> str | Violation:
    """A `contribute` move's entropy, or why it cannot be read (GEN-8)."""
    at = Sentence("move.at", {"type": CONTRIBUTE})
    extra = sorted(set(move.fields) - {"entropy"})
    if extra:
        return unreadable(
            Sentence("move.unknown_field", {"at": at, "field": extra[0], "allowed": "`entropy`"})
        )
    entropy = move.fields.get("entropy")
    if entropy is None:
        return unreadable(Sentence("move.missing_field", {"at": at, "field": "entropy"}))
    problem = entropy_sentence(entropy)
    if problem or not isinstance(entropy, str):
        return unreadable(Sentence("move.bad_entropy", {"at": at, "problem": problem}))
    return entropy


def entropy_problem(entropy: Any) -> str | None:
    """What is wrong with an entropy, in English; None when nothing is."""
    problem = entropy_sentence(entropy)
    return None if problem is None else CATALOGUE.render(problem)


def entropy_sentence(entropy: Any) -> Sentence | None:
    if not isinstance(entropy, str):
        return Sentence("entropy.not_text")
    if not 1 <= len(entropy) <= MAX_ENTROPY_CHARS:
        return Sentence("entropy.length", {"most": MAX_ENTROPY_CHARS, "length": len(entropy)})
    if not entropy.isprintable():
        return Sentence("entropy.not_printable")
    return None


def deal_view(setup: TableSetup, contributions: int, over: bool) -> dict[str, JSON]:
    """What every seat sees of the deal's fairness."""
    shown: dict[str, JSON] = {
        "deal": mode(setup),
        "deal_commitment": chance.root_commitment(root_of(setup)),
        "contributions": contributions,
    }
    if setup.seed is not None:
        shown["seed"] = setup.seed
    if over and setup.secret is not None:
        shown["deal_secret"] = setup.secret
    return shown


def _check_secret(secret: Any) -> None:
    try:
        ok = isinstance(secret, str) and len(bytes.fromhex(secret)) == chance.SECRET_BYTES
    except ValueError:
        ok = False
    if not ok:
        raise SetupError(f"`secret`: {chance.SECRET_BYTES * 2} hexadecimal digits")

"""The rummy mechanic as a plugin: a claim window or a re-entry decision may ask a seat out of
turn; a game is played to its end (a match to its winner), or the bots give up saying so."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.engine.setup import TableSetup
from referee.mechanics.rummy import RummyMechanic
from referee.plugins.play_turns import MAX_PROPOSALS, PlayContext, play_turn
from referee.plugins.plugin import Plugin
from referee.plugins.transcript_parts import COMMITMENT, Adapter, field, show, to_act
from referee.scenario import fields as f
from referee.scenario.checks import CheckKey
from referee.scenario.comparers import (
    MISSING,
    View,
    canonical_card,
    canonical_cards,
    differ,
    field_of,
    per_key,
)
from referee_bots import rummy_bot


def next_to_answer(full: Mapping[str, Any]) -> int:
    """Who must act now: a seat a claim window waits for, a seat deciding on re-entry, or the
    seat in turn."""
    window = full.get("claim_window")
    if isinstance(window, Mapping) and window.get("waiting"):
        return int(window["waiting"][0])
    if full.get("to_act") is not None:
        return int(full["to_act"])
    return int(full["deciding"][0])


# --- the golden transcript ---------------------------------------------------------------------


def melds_line(view: View) -> str:
    melds = view.get("melds") or []
    return "melds " + (" ".join(f"{m['id']}:{show(m['cards'])}" for m in melds) or "-")


def stakes(view: View) -> str | None:
    """Balances and pot, only at a table that plays for stakes (a stakeless one keeps zeros)."""
    balances = view.get("balances") or {}
    if not view.get("pot") and not any(balances.values()):
        return None
    return f"balances {show(balances)} pot {view.get('pot')}"


RUMMY = Adapter(
    bot="rummy",
    candidates=lambda options: rummy_bot.turn_candidates,
    next_seat=next_to_answer,
    header=(field("dealer"), field("mao", "mão"), field("turned"), field("jokers"), COMMITMENT),
    view=(
        field("hand"),
        to_act,
        field("discard_top", "top"),
        field("stock_size", "stock"),
        melds_line,
        field("scores"),
        field("blown", if_set=True),
        field("deciding", if_set=True),
        stakes,
        field("legal_moves", "may", if_set=True),
    ),
    summary=(field("winner", "winner seat"), field("scores")),
)


# --- referee play: a whole match, to its winner ------------------------------------------------


def play(context: PlayContext) -> int:
    args = context.args
    referee = context.open_table()
    rng = random.Random(args.seed)
    print(
        f"{context.game}: {args.bots} bots, seed {args.seed}, commitment {referee.commitment[:16]}…"
    )
    proposals = 0
    try:
        while not (public := referee.view(None))["match_over"] and proposals < MAX_PROPOSALS:
            seat = next_to_answer(public)
            candidates = rummy_bot.turn_candidates(referee.view(seat), rng)
            proposals += play_turn(referee, seat, candidates, args.quiet)
    finally:
        referee.close()
    if not public["match_over"]:
        print(f"the bots gave up after {proposals} proposals: the game did not end")
        return 1
    print(
        f"match over after {public['hand_number']} hands: winner seat {public['winner']}; "
        f"scores {public['scores']}; blown {public['blown']}; "
        + (f"balances {public['balances']}; " if any(public["balances"].values()) else "")
        + f"proposals {proposals}"
    )
    return 0


# --- scenario checks ---------------------------------------------------------------------------


def melds(expected: list[list[str]], view: View) -> list[str]:
    table = view.get("melds", MISSING)
    if not isinstance(table, list):
        return ["the view has no `melds`"]
    actual = [canonical_cards(m.get("cards", [])) for m in table]
    return differ([canonical_cards(m) for m in expected], actual)


def blown(expected: list[int], view: View) -> list[str]:
    actual = view.get("blown", MISSING)
    if not isinstance(actual, list):
        return ["the view has no `blown`"]
    return differ(sorted(set(expected)), sorted(set(actual)))


def void(expected: bool, view: View) -> list[str]:
    """The hand that ended last ended void (the seat in turn could take no card): its
    `last_hand` says so."""
    last = view.get("last_hand")
    return differ(expected, bool(last.get("void", False)) if isinstance(last, Mapping) else False)


PLUGIN = Plugin(
    RummyMechanic,
    transcript=RUMMY,
    play=play,
    bench_setup=lambda game, seed: TableSetup(game=game.name, seats=4, seed=seed),
    checks={
        "discard_top": CheckKey(
            lambda seats: f.optional(f.card), field_of("discard_top", canonical_card)
        ),
        "melds": CheckKey(lambda seats: f.list_of(f.cards), melds),
        "scores": CheckKey(f.seat_map, per_key("scores")),
        "blown": CheckKey(lambda seats: f.list_of(f.seat_in(seats)), blown),
        "void": CheckKey(lambda seats: f.boolean, void),
    },
    finished_view_keys=("melds", "discard_top"),
)

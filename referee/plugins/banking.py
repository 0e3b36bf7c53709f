"""The banking mechanic (Pontoon, Shoot Pontoon, any banking spec) as a plugin: the bot bets
within the table's limits, which views omit; a table ends only when fewer than two seats are
left at it, so it is played for a number of hands."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Mapping
from typing import Any

from referee.engine.seeding import CONTRIBUTE
from referee.engine.setup import TableSetup
from referee.mechanics.banking.mechanic import BankingMechanic
from referee.plugins.play_turns import MAX_PROPOSALS, PlayContext, play_turn
from referee.plugins.plugin import Plugin
from referee.plugins.transcript_parts import (
    COMMITMENT,
    Adapter,
    Candidates,
    View,
    field,
    show,
    to_act,
)
from referee.scenario import fields as f
from referee.scenario.checks import CheckKey
from referee.scenario.comparers import field_of, per_key
from referee_bots import pontoon_bot


def candidates(options: Mapping[str, Any]) -> Candidates:
    return functools.partial(
        turn_candidates, min_bet=options["min_bet"], max_bet=options["max_bet"]
    )


def turn_candidates(
    view: Mapping[str, Any], rng: random.Random, *, min_bet: int, max_bet: int
) -> Iterator[dict[str, Any]]:
    """The seat's moves worth proposing, best first. The Pontoon bot is written in the
    mechanic's own move names: it plays a spec whose moves keep them; a spec that names its
    moves its own way (`does:`) is played from the view's `legal` moves, at random."""
    legal = view.get("legal")
    if legal is None or set(legal) - {CONTRIBUTE} <= set(BankingMechanic.moves):
        yield from pontoon_bot.turn_candidates(view, rng, min_bet=min_bet, max_bet=max_bet)
        return
    yield from legal_candidates(legal, rng)


def legal_candidates(legal: Mapping[str, Any], rng: random.Random) -> Iterator[dict[str, Any]]:
    """Each legal move once, in a random order; a move of one number (every banking handler
    names it `amount`) with a random amount in its range. Every one is legal: the first is
    taken, unless the table changed since the view."""
    names = sorted(name for name in legal if name != CONTRIBUTE)
    rng.shuffle(names)
    for name in names:
        entry = legal[name] or {}
        if "min" in entry and "max" in entry:
            yield {"type": name, "amount": rng.randint(int(entry["min"]), int(entry["max"]))}
        elif not entry:
            yield {"type": name}


# --- the golden transcript ---------------------------------------------------------------------


def hands_line(view: View) -> str:
    """Every seat's hands as this seat sees them: `2: [7C ??] stake 10+15 done`."""
    seats = []
    for seat, hands in view["hands"].items():
        banker = " (banker)" if int(seat) == view["banker"] else ""
        seats.append(f"{seat}{banker}: " + ", ".join(hand_text(hand) for hand in hands))
    return "hands " + "; ".join(seats)


def hand_text(hand: Mapping[str, Any]) -> str:
    """One hand: its cards, its stake with what each bought card cost, a shoot bet, done."""
    text = show(hand["cards"])
    if hand["stake"]:
        text += " stake " + "+".join(str(amount) for amount in [hand["stake"], *hand["paid"]])
    if hand.get("shoot"):
        text += f" shoot {hand['shoot']}"
    return text + (" done" if hand["done"] else "")


BANKING = Adapter(
    bot="pontoon",
    candidates=candidates,
    next_seat=pontoon_bot.next_to_act,
    header=(field("banker"), field("kitty", if_set=True), COMMITMENT),
    view=(
        hands_line,
        to_act,
        field("stock_size", "stock"),
        field("balances"),
        field("on_table", "on table"),
        field("kitty", if_set=True),
        field("offer", if_set=True),
    ),
    summary=(field("balances"), field("on_table", "on the table")),
    hands=5,
    chips=1000,
    legal=True,  # a spec naming its moves its own way is played from `legal`
    legend=(
        "# `??` is a card that seat may not see (face down, or the banker's own first card "
        "before its turn)",
    ),
)


# --- referee play: `--hands` hands, the banker dealing each next one ---------------------------


def play(context: PlayContext) -> int:
    """`args.hands` hands of a banking game; the banker deals each next hand."""
    args = context.args
    referee = context.open_table(balances={seat: args.chips for seat in range(args.bots)})
    options = context.options()
    limits = {"min_bet": options["min_bet"], "max_bet": options["max_bet"]}
    rng = random.Random(args.seed)
    chips = _chips(referee.view(None))
    print(
        f"{context.game}: {args.bots} bots, seed {args.seed}, {args.hands} hands, "
        f"commitment {referee.commitment[:16]}…"
    )
    proposals, finished, started = 0, set[int](), 0
    try:
        while proposals < MAX_PROPOSALS:
            public = referee.view(None)
            number = int(public["hand_number"])
            # a hand is over once its record is kept: between hands, or when a house has
            # dealt the next one at once
            last = (public.get("last_hand") or {}).get("hand_number")
            if last is not None and last not in finished:
                finished.add(last)
                _hand_summary(public)
                if len(finished) >= args.hands:
                    break
            if public["match_over"]:
                break
            if not public["hand_over"] and number != started:
                started = number
                print(f"hand {number}: banker seat {public['banker']}")
            seat = pontoon_bot.next_to_act(public)
            moves = turn_candidates(referee.view(seat), rng, **limits)
            proposals += play_turn(referee, seat, moves, args.quiet)
        final = referee.view(None)
    finally:
        referee.close()
    played = len(finished)
    conserved = _chips(final) == chips
    print(
        f"after {played} hands: balances {final['balances']}; on the table {final['on_table']}; "
        f"chips {'conserved' if conserved else 'NOT conserved'} ({_chips(final)} of {chips}); "
        f"proposals {proposals}"
    )
    return 0 if conserved and (played >= args.hands or final["match_over"]) else 1


def _chips(view: dict[str, Any]) -> int:
    """GEN-6: balances plus everything on the table (stakes, and a kitty where there is one)."""
    return int(sum(view["balances"].values())) + int(view["on_table"]) + int(view.get("kitty") or 0)


def _hand_summary(view: dict[str, Any]) -> None:
    last = view["last_hand"]
    hands = "; ".join(
        f"{seat}: " + " | ".join(" ".join(h) for h in seat_hands)
        for seat, seat_hands in last["hands"].items()
    )
    following = last.get("next_banker")
    bank = f"; the bank passes to seat {following}" if following is not None else ""
    print(
        f"hand {last['hand_number']} over (banker seat {view['banker']}): {hands}; "
        f"balances {view['balances']}{bank}"
    )


PLUGIN = Plugin(
    BankingMechanic,
    transcript=BANKING,
    play=play,
    bench_setup=lambda game, seed: TableSetup(
        game=game.name, seats=6, seed=seed, balances={s: 1000 for s in range(6)}
    ),
    bench_hands=20,
    checks={
        "balances": CheckKey(f.seat_map, per_key("balances")),
        "pot": CheckKey(lambda seats: f.integer, field_of("pot")),
        "kitty": CheckKey(lambda seats: f.integer, field_of("kitty")),
        "banker": CheckKey(lambda seats: f.optional(f.seat_in(seats)), field_of("banker")),
    },
)

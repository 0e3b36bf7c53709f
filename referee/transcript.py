"""Golden transcripts (STYLE.md 11): a human-readable playthrough of one seeded table.

The random rummy bot (`referee_client.rummy_bot.turn_candidates`, its choices seeded with the
table seed, as `referee play` does) plays a whole match in-process. For every accepted move the
transcript shows the seat, the move and the verdict: the events as the proposer sees them. The
first rejected proposal of each turn is shown too, with the rules it breaks. After each move the
views follow, one line per seat: its hand, who is to act, the top discard, the melds, the scores
(and, when they matter, blown seats, seats deciding, balances and pot).

Views: with `every_view` every seat's view after every move; otherwise (the default, which keeps
a whole match's transcript a reasonable size) the view of the seat that moved after each move,
and every seat's view at the hand boundaries (the deal, the end of a hand, the decisions between
hands, the end of the match).

The output is a pure function of the game's spec, the seed, the seats and the options (the
table's salt is derived from the seed), so a checked-in transcript is compared byte for byte: a
difference means the rules, the views or the bot changed.
"""

from __future__ import annotations

import random
from typing import Any, Iterable, Mapping

from referee.engine.table import Table, TableSetup
from referee.model import ADJUDICATOR, JSON, Move, Outcome, Verdict
from referee.scenario import checks
from referee.scenario.runner import reason
from referee_client.rummy_bot import turn_candidates

MAX_PROPOSALS = 500_000  # a safety net: a match of random bots ends long before
# events after which every seat's view is shown (a hand boundary)
BOUNDARY_EVENTS = frozenset({"hand_dealt", "hand_over", "deciding", "reentered", "declined",
                             "match_over"})


def salt_for(seed: int) -> str:
    """A fixed salt, so the commitments in the transcript are the same on every run."""
    return f"golden-transcript-{seed}"


def show(value: Any) -> str:
    """Compact, stable text for event fields: `[4C 5C 6C]`, `{0: 12, 1: 0}`, `null`."""
    return checks.show(value, between=" ")


def show_move(move: Mapping[str, JSON]) -> str:
    fields = " ".join(f"{k}={show(v)}" for k, v in move.items() if k != "type")
    return f"{move['type']} {fields}".rstrip()


def show_event(event: Mapping[str, JSON]) -> str:
    fields = " ".join(f"{k}={show(v)}" for k, v in event.items() if k != "kind")
    return f"{event['kind']} {fields}".rstrip()


def show_rejection(verdict: Verdict) -> str:
    return "; ".join(reason(v.rule, v.cites, v.message) for v in verdict.violations)


def view_line(view: Mapping[str, JSON]) -> str:
    """One seat's view in one line."""
    parts = [f"hand {show(view.get('hand', []))}"]
    to_act = view.get("to_act")
    parts.append(f"to act {show(to_act)} ({view.get('phase')})")
    parts.append(f"top {show(view.get('discard_top'))}")
    parts.append(f"stock {view.get('stock_size')}")
    melds = view.get("melds") or []
    parts.append("melds " + (" ".join(f"{m['id']}:{show(m['cards'])}" for m in melds) or "-"))
    parts.append(f"scores {show(view.get('scores'))}")
    if view.get("blown"):
        parts.append(f"blown {show(view['blown'])}")
    if view.get("deciding"):
        parts.append(f"deciding {show(view['deciding'])}")
    if view.get("pot") or any((view.get("balances") or {}).values()):
        parts.append(f"balances {show(view.get('balances'))} pot {view.get('pot')}")
    if view.get("legal_moves"):
        parts.append(f"may {show(view['legal_moves'])}")
    return " | ".join(parts)


def next_to_answer(full: Mapping[str, JSON]) -> int:
    """Who must act now: a seat a claim window waits for, a seat deciding on re-entry, or the
    seat in turn."""
    window = full.get("claim_window")
    if isinstance(window, Mapping) and window.get("waiting"):
        return int(window["waiting"][0])
    if full.get("to_act") is not None:
        return int(full["to_act"])  # type: ignore[arg-type]
    return int(full["deciding"][0])  # type: ignore[index]


class Transcript:
    def __init__(self, table: Table, every_view: bool) -> None:
        self.table = table
        self.every_view = every_view
        self.lines: list[str] = []
        self.seats = table.setup.seats

    def out(self, line: str = "") -> None:
        self.lines.append(line.rstrip())

    def views(self, seats: Iterable[int]) -> None:
        for seat in seats:
            self.out(f"    seat {seat} sees: {view_line(self.table.view(seat))}")

    def hand_header(self) -> None:
        full = self.table.view(ADJUDICATOR)
        self.out()
        self.out(f"=== hand {full['hand_number']}: dealer {full['dealer']}, mão {full['mao']}, "
                 f"turned {full['turned']}, jokers {show(full['jokers'])}, "
                 f"commitment {str(full['commitment'])[:16]}")

    def turn(self, rng: random.Random, number: int) -> int:
        """One seat's turn (up to its accepted move); the number of proposals it made."""
        seat = next_to_answer(self.table.view(ADJUDICATOR))
        rejected_once = False
        proposals = 0
        for move in turn_candidates(self.table.view(seat), rng):
            proposals += 1
            verdict = self.table.propose(seat, Move.from_data(move))
            if verdict.outcome is Outcome.REJECTED:
                if not rejected_once:
                    rejected_once = True
                    self.out(f"  seat {seat} proposes {show_move(move)}")
                    self.out(f"    rejected: {show_rejection(verdict)}")
                continue
            self.accepted(number, seat, move, verdict)
            return proposals
        raise RuntimeError(f"seat {seat} found no move the referee accepts")

    def accepted(self, number: int, seat: int, move: Mapping[str, JSON], verdict: Verdict) -> None:
        status = "" if verdict.outcome is Outcome.ACCEPTED else f" ({verdict.outcome.value})"
        self.out(f"#{number} seat {seat}: {show_move(move)}{status}")
        kinds = set()
        new_hand = False
        for event in verdict.events:
            seen = event.seen_by(seat)
            kinds.add(event.kind)
            if event.kind == "hand_dealt":
                new_hand = True
            self.out(f"    > {show_event(seen)}")
        if new_hand:
            self.hand_header()
        boundary = bool(kinds & BOUNDARY_EVENTS)
        self.views(range(self.seats) if self.every_view or boundary else [seat])


def render(game: Any, seed: int, seats: int, *, options: Mapping[str, JSON] | None = None,
           dealer: int = 0, every_view: bool = False) -> str:
    """The transcript of one seeded table played to its end by the random bot."""
    setup = TableSetup(game=game.name, options=dict(options or {}), seats=seats, dealer=dealer,
                       seed=seed, salt=salt_for(seed))
    table = Table.create(game, setup)
    rng = random.Random(seed)
    script = Transcript(table, every_view)
    shown = {k: v for k, v in sorted(game.resolve_options(setup.options).items())}
    script.out(f"# golden transcript: {game.name}, {seats} seats, seed {seed}, dealer {dealer}")
    script.out(f"# the random rummy bot plays every seat (its choices seeded with {seed})")
    script.out(f"# options: {show(shown)}")
    script.out("# each accepted move: `#n seat s: move`, its events as that seat sees them (`>`),")
    script.out("# then views; the first rejected proposal of a turn is shown with its rules")
    script.hand_header()
    script.views(range(seats))
    proposals, number = 0, 0
    while not table.is_over and proposals < MAX_PROPOSALS:
        number += 1
        proposals += script.turn(rng, number)
    full = table.view(ADJUDICATOR)
    script.out()
    script.out(f"=== match over after {full['hand_number']} hand(s): winner seat "
               f"{show(full['winner'])}; scores {show(full['scores'])}; "
               f"{number} moves accepted, {proposals} proposals")
    return "\n".join(script.lines) + "\n"


__all__ = ["render", "view_line", "salt_for"]

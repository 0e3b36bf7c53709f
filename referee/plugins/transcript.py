"""Golden transcripts (STYLE.md 11): a human-readable playthrough of one seeded table.

A random bot (the client library's bot for the game's mechanic, its choices seeded with the table
seed, as `referee play` does) plays every seat in-process. For every accepted move the transcript
shows the seat, the move and the verdict: the events as the proposer sees them. The first rejected
proposal of each turn is shown too, with the rules it breaks. After each move the views follow,
one line per seat, built from the keys of that seat's view: a card the seat may not see is `??`.

Views: with `every_view` every seat's view after every move; otherwise (the default, which keeps
a whole match's transcript a reasonable size) the view of the seat that moved after each move,
and every seat's view at the hand boundaries (the deal, the end of a hand, the decisions between
hands, the end of the match).

A table is played to its end, or until `hands` hands are over: a banking table never ends by
itself, so its adapter gives a default limit.

What differs between mechanics is small and lives in one `Adapter` per mechanic, which its
plugin declares (`referee.plugins`: the bot, who must act, which keys make the hand header, the
view line and the closing line); the rest is shared. The output is a pure function of the game's spec, the seed, the seats, the options and the
hand limit (the table's salt is derived from the seed), so a checked-in transcript is compared
byte for byte: a difference means the rules, the views or the bot changed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from referee.engine.setup import TableSetup
from referee.engine.table import Table
from referee.errors import RefereeError
from referee.model import ADJUDICATOR, JSON, Move, Outcome, Verdict
from referee.plugins.installed import PLUGINS
from referee.plugins.legal_bot import legal_candidates, mended
from referee.plugins.play_turns import MAX_TURN_PROPOSALS, GaveUp, give_up
from referee.plugins.transcript_parts import Adapter, View, show
from referee.redaction import events_for, verdict_for
from referee.scenario.runner import reason

__all__ = [
    "ADAPTERS",
    "Adapter",
    "NoTranscript",
    "Transcript",
    "adapter_for",
    "new_table",
    "render",
]

MAX_PROPOSALS = 500_000  # a safety net: a match of random bots ends long before
# events after which every seat's view is shown (a hand boundary)
BOUNDARY_EVENTS = frozenset(
    {
        "hand_dealt",
        "hand_over",
        "deciding",
        "reentered",
        "declined",
        "match_over",
        "trick_won",
        "deal_over",
    }
)
# mechanics (a spec's `mechanics:`) -> adapter, as each plugin declares it
ADAPTERS: dict[str, Adapter] = {
    plugin.name: plugin.transcript for plugin in PLUGINS if plugin.transcript is not None
}


def salt_for(seed: int) -> str:
    """A fixed salt, so the commitments in the transcript are the same on every run."""
    return f"golden-transcript-{seed}"


def show_move(move: Mapping[str, JSON]) -> str:
    fields = " ".join(f"{k}={show(v)}" for k, v in move.items() if k != "type")
    return f"{move['type']} {fields}".rstrip()


def show_event(event: Mapping[str, JSON]) -> str:
    fields = " ".join(f"{k}={show(v)}" for k, v in event.items() if k != "kind")
    return f"{event['kind']} {fields}".rstrip()


def show_rejection(verdict: Verdict) -> str:
    return "; ".join(reason(v.rule, v.cites, v.message) for v in verdict.violations)


class NoTranscript(RefereeError):
    """The game's mechanic has no transcript adapter yet."""


def adapter_for(game: Any) -> Adapter:
    mechanics = game.spec.mechanics
    if mechanics not in ADAPTERS:
        known = ", ".join(f"`{m}`" for m in ADAPTERS)
        raise NoTranscript(
            f"no transcript for `{game.name}` yet: its mechanics `{mechanics}` "
            f"has no adapter (its plugin in referee/plugins declares none; there "
            f"are {known})"
        )
    return ADAPTERS[mechanics]


# --- the playthrough ---------------------------------------------------------------------------


def hands_over(full: View) -> int:
    """How many hands are over: the current one counts once it is. A rummy table deals the next
    hand at once: its view still says `hand_over` (the hand in `last_hand`) for the new number."""
    number = int(full["hand_number"])
    last = full.get("last_hand") or {}
    return number if full["hand_over"] and last.get("hand_number") == number else number - 1


class Transcript:
    def __init__(self, table: Table, adapter: Adapter, every_view: bool) -> None:
        self.table = table
        self.adapter = adapter
        self.every_view = every_view
        self.lines: list[str] = []
        self.seats = table.setup.seats
        options = table.game.resolve_options(table.setup.options)
        self.candidates = adapter.candidates(options)

    def out(self, line: str = "") -> None:
        self.lines.append(line.rstrip())

    def views(self, seats: Iterable[int]) -> None:
        for seat in seats:
            self.out(f"    seat {seat} sees: {self.adapter.view_line(self.table.view(seat))}")

    def hand_header(self) -> None:
        self.out()
        self.out(self.adapter.header_line(self.table.view(ADJUDICATOR)))

    def turn(self, rng: random.Random, number: int) -> int:
        """One seat's turn (up to its accepted move); the number of proposals it made. The bot's
        moves first, then the bot of last resort's (`legal_bot`); GaveUp if none is taken."""
        seat = self.adapter.next_seat(self.table.view(ADJUDICATOR))
        mends: list[dict[str, JSON]] = []
        last: tuple[Mapping[str, JSON], list[str]] | None = None
        proposals = 0
        bots = itertools.chain(
            self.candidates(self.table.view(seat, legal=self.adapter.legal), rng),
            self.last_resort(seat, rng, mends),
        )
        for move in itertools.islice(bots, MAX_TURN_PROPOSALS):
            proposals += 1
            proposed = Move.from_data(move)
            verdict = verdict_for(self.table, seat, proposed, self.table.propose(seat, proposed))
            if verdict.outcome is not Outcome.REJECTED:
                self.accepted(number, seat, move, verdict)
                return proposals
            if last is None:  # the first rejection of a turn is shown
                self.out(f"  seat {seat} proposes {show_move(move)}")
                self.out(f"    rejected: {show_rejection(verdict)}")
            last = (move, [f"{v.rule}: {v.message}" for v in verdict.violations])
            spec = self.table.game.spec.moves.get(str(move["type"]))
            mends += [m for v in verdict.violations if v.fix for m in mended(move, v.fix, spec)]
        found = f"found no move the referee takes ({proposals} proposals)"
        raise GaveUp(give_up(seat, found, self.table.view(None), last))

    def last_resort(
        self, seat: int, rng: random.Random, mends: list[dict[str, JSON]]
    ) -> Iterator[Mapping[str, JSON]]:
        """What the rejections' fixes offered, then the seat's legal moves (asked only once
        the bot's moves are spent)."""
        yield from mends
        yield from legal_candidates(self.table.legal(seat), self.table.game.spec.moves, rng)

    def accepted(self, number: int, seat: int, move: Mapping[str, JSON], verdict: Verdict) -> None:
        status = "" if verdict.outcome is Outcome.ACCEPTED else f" ({verdict.outcome.value})"
        self.out(f"#{number} seat {seat}: {show_move(move)}{status}")
        kinds = set()
        for event in events_for(verdict.events, seat):
            kinds.add(str(event["kind"]))
            self.out(f"    > {show_event(event)}")
        if "hand_dealt" in kinds:
            self.hand_header()
        boundary = bool(kinds & BOUNDARY_EVENTS)
        self.views(range(self.seats) if self.every_view or boundary else [seat])

    def finished(self, hands: int | None) -> bool:
        if self.table.is_over:
            return True
        return hands is not None and hands_over(self.table.view(ADJUDICATOR)) >= hands


def new_table(
    game: Any,
    adapter: Adapter,
    seed: int,
    seats: int,
    options: Mapping[str, JSON] | None,
    dealer: int,
) -> Table:
    balances = None if adapter.chips is None else {seat: adapter.chips for seat in range(seats)}
    setup = TableSetup(
        game=game.name,
        options=dict(options or {}),
        seats=seats,
        dealer=dealer,
        seed=seed,
        salt=salt_for(seed),
        balances=balances,
    )
    return Table.create(game, setup)


def render(
    game: Any,
    seed: int,
    seats: int,
    *,
    options: Mapping[str, JSON] | None = None,
    dealer: int = 0,
    every_view: bool = False,
    hands: int | None = None,
) -> str:
    """The transcript of one seeded table played by the random bot, to its end or until `hands`
    hands are over (default: the adapter's limit, none for a game that ends by itself)."""
    adapter = adapter_for(game)
    limit = hands if hands is not None else adapter.hands
    table = new_table(game, adapter, seed, seats, options, dealer)
    script = Transcript(table, adapter, every_view)
    introduce(script, game, seed, seats, dealer, limit)
    script.hand_header()
    script.views(range(seats))
    rng = random.Random(seed)
    proposals, number = 0, 0
    while not script.finished(limit) and proposals < MAX_PROPOSALS:
        number += 1
        proposals += script.turn(rng, number)
    full = table.view(ADJUDICATOR)
    ending = "match over" if table.is_over else "stopped"
    script.out()
    script.out(
        f"=== {ending} after {hands_over(full)} hand(s): {adapter.summary_line(full)}; "
        f"{number} moves accepted, {proposals} proposals"
    )
    return "\n".join(script.lines) + "\n"


def introduce(
    script: Transcript, game: Any, seed: int, seats: int, dealer: int, limit: int | None
) -> None:
    """The `#` lines: what was played, by which bot, with which options; how to read it."""
    adapter, setup = script.adapter, script.table.setup
    shown = dict(sorted(game.resolve_options(setup.options).items()))
    table = f"{game.name}, {seats} seats, seed {seed}, dealer {dealer}"
    if limit is not None:
        table += f", {limit} hand{'' if limit == 1 else 's'}"
    if adapter.chips is not None:
        table += f", {adapter.chips} chips each"
    script.out(f"# golden transcript: {table}")
    script.out(f"# the random {adapter.bot} bot plays every seat (its choices seeded with {seed})")
    script.out(f"# options: {show(shown)}")
    script.out("# each accepted move: `#n seat s: move`, its events as that seat sees them (`>`),")
    script.out("# then views; the first rejected proposal of a turn is shown with its rules")
    for line in adapter.legend:
        script.out(line)


__all__ = ["ADAPTERS", "Adapter", "NoTranscript", "adapter_for", "render", "salt_for"]

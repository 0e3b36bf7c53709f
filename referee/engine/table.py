"""A table: its setup plus the log of accepted moves; its state is the fold of that log.

`propose` judges a move whole on a copy of the state: accepted and applied, or rejected with every
rule broken and nothing changed (GEN-4). Illegal or unreadable moves are verdicts, never errors.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from referee.engine import chance, disputes, names, play_clock, reissues, rulings, seeding
from referee.engine.disputes import Dispute
from referee.engine.game import Game
from referee.engine.mechanic import Deadline, Deal, Judgement, StateT
from referee.engine.moves import parse_move
from referee.engine.play_clock import ClockSettings
from referee.engine.setup import TableSetup as TableSetup  # re-exported: its old home
from referee.errors import MoveFormatError, SetupError
from referee.i18n.verdicts import GEN8, unreadable
from referee.model import (
    ADJUDICATOR,
    DIRECTOR,
    JSON,
    SAFE_INTEGER,
    Event,
    Move,
    Outcome,
    Sentence,
    Verdict,
    Violation,
)
from referee.spec import explaining
from referee.spec.clock_options import TURN_SECONDS

T = TypeVar("T")
SYSTEM = -2  # the table itself, for moves no seat makes (a deadline passing)
# a deadline passing, as the move log records it: its name from when only claim windows had one
EXPIRE = "close_window"
CLOSE_WINDOW = EXPIRE
# a table keeps what a rewind restores at every MARK_EVERY-th version (and at each rewind): a
# rewind then folds its log from the nearest mark, at most this many moves (GEN-11)
MARK_EVERY = 50


@dataclass(frozen=True)
class Mark(Generic[StateT]):
    """What a rewind restores: the table's state at a version, its `contribute` moves counted,
    its seats' timeouts. A state is never changed once a move made it, so a mark keeps it as is."""

    state: StateT
    contributions: int
    timeouts: tuple[int, ...]


class Table(Generic[StateT]):
    """A table of a game whose mechanic's state is `StateT`."""

    # how many disputes may be open at once (`referee.engine.disputes`); the tests lift them
    dispute_bounds = disputes.BOUNDS
    # off: no mark is kept, and a rewind folds its log from version 0 again, each earlier
    # rewind in it too (the old cost, doubling with each ruling: the tests' control)
    marking = True

    def __init__(self, game: Game[StateT], setup: TableSetup, state: StateT) -> None:
        self.game = game
        self.setup = setup
        self.state = state
        self.version = 0
        self._history: list[tuple[int, Move]] = []
        # a resumed table's moves before its snapshot, not read until `history` is asked for
        self._earlier: Sequence[tuple[int, Move]] | None = None
        self.contributions = 0  # `contribute` moves accepted (and not voided by a rewind)
        self.disputes: dict[int, Dispute] = {}  # by number: the version each was raised at
        self.clock = ClockSettings.of(game.resolve_options(setup.options))
        self.timeouts = [0] * setup.seats  # each seat's turns run out (`play_clock`)
        # the version the table's deadline (a claim window, a turn's clock) began at: its number
        self.deadline_since = 0
        # what `per_state` computed, and the state it holds for (version, id of the state)
        self._kept: dict[Hashable, Any] = {}
        self._kept_for: tuple[int, int] = (-1, 0)
        self.commitment = game.mechanic.commitment(state)  # the first deal's, as CreateTable says
        # what a rewind restores, by version (`Mark`): shared with the tables a rewind folds
        self._marks: dict[int, Mark] = {}
        self._mark()

    @classmethod
    def create(cls, game: Game[StateT], setup: TableSetup) -> Table[StateT]:
        """Validate options and seats, fill in the secret and salt, and deal."""
        options = game.resolve_options(setup.options)
        spec = game.spec
        if not spec.seats_min <= setup.seats <= spec.seats_max:
            raise SetupError(
                f"`{game.name}` is played by {spec.seats_min} to {spec.seats_max} "
                f"seats, not `{setup.seats}`"
            )
        if not 0 <= setup.dealer < setup.seats:
            raise SetupError(f"dealer `{setup.dealer}` is not a seat of this table")
        for name in ("scores", "balances"):
            _check_seat_amounts(name, getattr(setup, name), setup.seats)
        names.check_names(setup.names, setup.seats)
        setup = replace(seeding.resolved(setup), salt=setup.salt or chance.new_salt())
        deal = Deal(
            seats=setup.seats,
            dealer=setup.dealer,
            options=options,
            seed=seeding.first_link(setup),
            stacked=setup.deal,
            scores=setup.scores,
            balances=setup.balances,
            salt=setup.salt or "",
        )
        return cls(game, setup, game.mechanic.new_state(deal))

    @classmethod
    def replay(
        cls, game: Game[StateT], setup: TableSetup, moves: Iterable[tuple[int, Move]]
    ) -> Table[StateT]:
        """Rebuild a table by folding its accepted moves (loading from a store)."""
        table = cls.create(game, setup)
        table.fold(moves)
        return table

    def fold(self, moves: Iterable[tuple[int, Move]]) -> None:
        """Judge stored moves again, in order, each of which must be accepted (a replay, or the
        moves after a snapshot: `referee.engine.snapshot`)."""
        for seat, move in moves:
            self.redo(seat, move)

    @classmethod
    def resumed(
        cls,
        game: Game[StateT],
        setup: TableSetup,
        state: StateT,
        *,
        version: int,
        contributions: int,
        commitment: str,
        earlier: Sequence[tuple[int, Move]],
        disputes: Sequence[Dispute] = (),
        timeouts: Sequence[int] = (),
        deadline_since: int = 0,
    ) -> Table:
        """The table at `version` as its replay left it, without judging its log again (from a
        snapshot: `referee.engine.snapshot`). `earlier`, its first `version` moves, is read when
        `history` is first asked for (a store may pass a sequence that reads its rows then)."""
        table = cls(game, setup, state)
        table.version, table.contributions = version, contributions
        table.disputes = {dispute.number: dispute for dispute in disputes}
        table.timeouts = list(timeouts) or table.timeouts
        table.deadline_since = deadline_since
        table.commitment = commitment  # the first deal's, not `state`'s
        table._earlier = earlier
        table._marks = {}
        table._mark()
        return table

    def redo(self, seat: int, move: Move) -> Verdict:
        """Apply the table's next logged move again (`SetupError` if it is now rejected)."""
        verdict = self.expire() if seat == SYSTEM else self.propose(seat, move)
        if verdict is None or verdict.outcome is Outcome.REJECTED:
            raise SetupError(
                f"the stored log does not replay: move {self.version + 1} "
                f"`{move.type}` of seat {seat} is now rejected"
            )
        return verdict

    @property
    def history(self) -> list[tuple[int, Move]]:
        """Every accepted move, in order (what a game record lists: `referee.engine.record`)."""
        if self._earlier is not None:  # read once (a table is used by one thread at a time)
            earlier, self._earlier = self._earlier, None
            self._history[:0] = earlier
        return self._history

    @property
    def last_move(self) -> tuple[int, Move] | None:
        """The last accepted move (None before the first), without reading `earlier`'s others."""
        if self._history:
            return self._history[-1]
        return self._earlier[-1] if self._earlier else None

    @property
    def open_disputes(self) -> list[Dispute]:
        """The disputes raised and not yet ruled on, in order."""
        return [dispute for dispute in self.disputes.values() if dispute.ruling is None]

    @property
    def is_over(self) -> bool:
        return self.game.mechanic.is_over(self.state)

    def propose(self, seat: int, move: Move) -> Verdict:
        if move.type == seeding.CONTRIBUTE:
            return self._contribute(seat, move)
        if move.type == disputes.DISPUTE:
            return self._dispute(seat, move)
        if move.type == rulings.RULING:
            return self._rule(seat, move)
        if move.type == reissues.REISSUE:
            return self._reissue(seat, move)
        parsed = self._read(seat, move)
        if isinstance(parsed, Violation):
            return Verdict.reject(parsed, version=self.version)
        judgement = self.game.mechanic.judge(self.state, seat, move.type, parsed)
        if not judgement.accepted:
            return Verdict.reject(*judgement.violations, version=self.version)
        return self._commit(seat, move, judgement)

    def explain(self, seat: int, move: Move) -> list[explaining.Judged]:
        """The judgements proposing `move` now makes (each checkpoint judged, each rule's
        outcome and what it read: `referee.spec.explaining`), the table unchanged. A contribution,
        a dispute or a ruling is judged by no rule."""
        if move.type in TABLE_MOVES:
            return []
        with explaining.recording() as record:
            parsed = self._read(seat, move)
            if not isinstance(parsed, Violation):
                self.game.mechanic.judge(self.state, seat, move.type, parsed)
        return record.judgements

    def _contribute(self, seat: int, move: Move) -> Verdict:
        """A seat's entropy, mixed into the seed chain: every later shuffle depends on it."""
        entropy = self._closed_to(seat) or seeding.read_contribution(move)
        if isinstance(entropy, Violation):
            return Verdict.reject(entropy, version=self.version)
        mechanic = self.game.mechanic
        link = chance.mix(mechanic.link(self.state), str(seat), entropy)
        self.contributions += 1
        event = Event("contributed", {"seat": seat, "contributions": self.contributions})
        return self._commit(
            seat, move, Judgement(state=mechanic.reseed(self.state, link), events=[event])
        )

    def _dispute(self, seat: int, move: Move) -> Verdict:
        """A seat calls the director on a past verdict (`referee.engine.disputes`): logged,
        told to every seat, the game unchanged; raised in play or once the game is over."""
        read = self._unknown_seat(seat) or disputes.read_dispute(move, self.version)
        if not isinstance(read, Violation):
            read = disputes.refused(seat, read, self.open_disputes, self.dispute_bounds) or read
        if isinstance(read, Violation):
            return Verdict.reject(read, version=self.version)
        number = self.version + 1
        event = disputes.disputed(seat, number, read)
        verdict = self._commit(seat, move, Judgement(state=self.state, events=[event]))
        self.disputes[number] = disputes.kept(seat, number, read)
        return verdict

    def _rule(self, seat: int, move: Move) -> Verdict:
        """The director's ruling on a dispute (`referee.engine.rulings`): upheld, the table
        rewound to an earlier version, or a seat's tally adjusted."""
        if seat != DIRECTOR:
            return Verdict.reject(
                unreadable(Sentence("ruling.director_only"), code="director_only"),
                version=self.version,
            )
        mechanic = self.game.mechanic
        table = rulings.Ruled(
            self.disputes, self.version, self.setup.seats, mechanic.tallies, self.is_over
        )
        read = rulings.read_ruling(move, table)
        if isinstance(read, Violation):
            return Verdict.reject(read, version=self.version)
        if read.decision == rulings.REWIND:
            judgement = self._rewound(read)
        elif read.decision == rulings.ADJUST:
            state, total = mechanic.adjust(self.state, read.seat, read.tally, read.amount)
            if abs(total) > SAFE_INTEGER:
                return Verdict.reject(rulings.too_much(total), version=self.version)
            judgement = Judgement(state=state, events=[rulings.ruled(read, total=total)])
        else:
            judgement = Judgement(state=self.state, events=[rulings.ruled(read)])
        verdict = self._commit(DIRECTOR, move, judgement)
        self.disputes[read.dispute] = replace(self.disputes[read.dispute], ruling=self.version)
        if read.decision == rulings.REWIND:
            self._mark()  # no fold from an earlier mark ever passes a rewind
        return verdict

    def _reissue(self, seat: int, move: Move) -> Verdict:
        """The director gave a seat a new token (`referee.engine.reissues`): logged, told to
        every seat, the game unchanged; the token itself is the store's."""
        if seat != DIRECTOR:
            return Verdict.reject(reissues.director_only(), version=self.version)
        reissued = reissues.read_reissue(move, self.setup.seats)
        if isinstance(reissued, Violation):
            return Verdict.reject(reissued, version=self.version)
        event = reissues.reissued(reissued)
        return self._commit(DIRECTOR, move, Judgement(state=self.state, events=[event]))

    def _rewound(self, decision: rulings.Decision) -> Judgement[StateT]:
        """The table as it was at version `decision.to`: its log folded that far (its earlier
        rulings included). Every move since, but the disputes, rulings and reissues, is void."""
        earlier = self._at(decision.to)
        voided = [
            version
            for version, (_, move) in enumerate(self.history[decision.to :], decision.to + 1)
            if move.type not in NEVER_VOIDED
        ]
        self.contributions, self.timeouts = earlier.contributions, list(earlier.timeouts)
        return Judgement(state=earlier.state, events=[rulings.ruled(decision, voided=voided)])

    def _at(self, version: int) -> Mark:
        """What the log folded to `version` makes, from the nearest mark at or before it: the
        moves folded from there are at most MARK_EVERY, and none is a rewind (each is marked),
        so a rewind costs no more than a few moves, however many rulings the log holds (GEN-11).
        A table restored from a snapshot has no mark before it: it folds from version 0 once,
        marking on its way."""
        base = max((marked for marked in self._marks if marked <= version), default=None)
        start = Table.create(self.game, self.setup) if base is None else self._resumed_at(base)
        start._marks = self._marks  # the marks it leaves on its way are this log's too
        start.marking = self.marking
        start._mark()
        start.fold(self.history[start.version : version])
        start._mark()  # a version ruled back to once may be again
        return start._here()

    def _resumed_at(self, version: int) -> Table:
        """This table as it was at a marked `version`, to fold its log on from there."""
        mark = self._marks[version]
        return Table.resumed(
            self.game,
            self.setup,
            mark.state,
            version=version,
            contributions=mark.contributions,
            commitment=self.commitment,
            earlier=self.history[:version],
            disputes=self._disputes_at(version),
            timeouts=mark.timeouts,
        )

    def _disputes_at(self, version: int) -> list[Dispute]:
        """The disputes as the table knew them at `version`: those raised by then, open if
        their ruling came later (disputes and rulings are never voided)."""
        return [
            replace(dispute, ruling=None) if (dispute.ruling or 0) > version else dispute
            for dispute in self.disputes.values()
            if dispute.number <= version
        ]

    def _here(self) -> Mark:
        return Mark(self.state, self.contributions, tuple(self.timeouts))

    def _mark(self) -> None:
        """Keep what a rewind to this version restores (`Mark`)."""
        if self.marking:
            self._marks[self.version] = self._here()

    def expire(self) -> Verdict | None:
        """The table's deadline has passed (the server's clock says so): a claim window closes
        (what the mechanic says expiring does), or the seats the table waits for run out of
        time (`play_clock`). Logged as a move of the table itself (seat SYSTEM), so replays
        need no clock. None when the table has no deadline."""
        judgement = self.game.mechanic.expire(self.state)
        if judgement is None and self._turn_runs:
            judgement, timeouts = play_clock.timed_out(
                self.game, self.state, self.clock, self.timeouts
            )
            self.timeouts = timeouts
        if judgement is None:
            return None
        return self._commit(SYSTEM, Move(EXPIRE), judgement)

    @property
    def deadline(self) -> Deadline | None:
        """When the table expires, if it does: a claim window open, or a turn's clock running.
        Its number is the version it began at: no other deadline of the table has it."""
        window = self.game.mechanic.deadline(self.state)
        if window is not None:
            return Deadline(self.deadline_since, window.after_ms)
        if self._turn_runs:
            return Deadline(self.deadline_since, self.clock.turn_seconds * 1000)
        return None

    @property
    def _turn_runs(self) -> bool:
        """The play clock runs: the table has one and waits for a seat's move."""
        return self.clock.runs and not self.is_over and bool(self.awaited)

    @property
    def awaited(self) -> tuple[int, ...]:
        """The seats the table waits for a move from (none while a claim window is open)."""
        return self.game.mechanic.awaited(self.state)

    def _commit(self, seat: int, move: Move, judgement: Judgement[StateT]) -> Verdict:
        if self.game.house_moves:  # a house's moves follow at once
            judgement = play_clock.house_play(self.game, judgement)
        window_before = self.game.mechanic.deadline(self.state)
        self.state = judgement.after
        self.version += 1
        self._history.append((seat, move))
        if _restarts_deadline(seat, move, window_before, self.game.mechanic.deadline(self.state)):
            self.deadline_since = self.version
        if self.version % MARK_EVERY == 0:
            self._mark()
        outcome = Outcome.PENDING if judgement.pending else Outcome.ACCEPTED
        return Verdict(outcome, (), tuple(judgement.events), self.version)

    def _read(self, seat: int, move: Move) -> dict[str, Any] | Violation:
        """The parsed move, or GEN-8: no such seat, a finished hand, an unreadable move."""
        closed = self._closed_to(seat)
        if closed is not None:
            return closed
        try:
            return parse_move(self.game.spec.moves, move, self.game.pack_kind)
        except MoveFormatError as exc:
            if exc.sentence is None:  # English only
                return Violation(GEN8, exc.message, code=exc.code)
            return unreadable(exc.sentence, code=exc.code)

    def _closed_to(self, seat: int) -> Violation | None:
        """GEN-8: no such seat, or the game is over."""
        unknown = self._unknown_seat(seat)
        if unknown is not None:
            return unknown
        if self.is_over:
            return unreadable(Sentence("table.over"), code="hand_over")
        return None

    def _unknown_seat(self, seat: int) -> Violation | None:
        if not isinstance(seat, int) or not 0 <= seat < self.setup.seats:
            return unreadable(Sentence("table.unknown_seat", {"seat": seat}), code="unknown_seat")
        return None

    @property
    def deal_commitment(self) -> str:
        """sha256 of the seed chain's root (the referee's secret), published at creation."""
        return chance.root_commitment(seeding.root_of(self.setup))

    def view(self, seat: int | None, legal: bool = False) -> dict[str, JSON]:
        """What `seat` may see; with `legal`, a seat's own view lists its legal moves too (as
        GetView gives it): asked for, as they cost judging each candidate move."""
        view = self.game.mechanic.view(self.state, seat)
        view.update(
            game=self.game.name,
            version=self.version,
            **seeding.deal_view(self.setup, self.contributions, self.is_over),
        )
        open_now = self.open_disputes
        view["disputes"] = [dispute.seen() for dispute in open_now]
        view["disputes_ruled"] = len(self.disputes) - len(open_now)
        if self.setup.names:  # labels for people, as CreateTable gave them: nobody's secret
            view["names"] = names.shown(self.setup.names)
        if TURN_SECONDS in self.game.spec.options:  # a game with a play clock
            view["clock"] = {
                **self.clock.seen(),
                "waiting_for": list(self.awaited) if self._turn_runs else [],
                "timeouts": {str(seat): n for seat, n in enumerate(self.timeouts)},
            }
        if seat == ADJUDICATOR:
            view["salt"] = self.setup.salt
        if legal and seat is not None and 0 <= seat < self.setup.seats:
            view["legal"] = self.legal(seat)
        return view

    def legal(self, seat: int) -> dict[str, JSON]:
        """The seat's legal moves now: the mechanic's, and `contribute` until the game is over
        (any seat, any time: its entropy is text of at most `max_chars` characters)."""
        legal = self.per_state(("legal", seat), lambda: self._legal_now(seat))
        return copy.deepcopy(legal)  # the caller's to change

    def per_state(self, key: Hashable, compute: Callable[[], T]) -> T:
        """`compute()`, kept until the table's state changes (by `key`): views are read far
        more often than moves are made, and a rejected move changes nothing, so a seat's
        legal moves, or what its view shows, are worked out once a state. What is kept must
        not be changed by the caller."""
        now = (self.version, id(self.state))
        if self._kept_for != now:
            self._kept, self._kept_for = {}, now
        if key not in self._kept:
            self._kept[key] = compute()
        found: T = self._kept[key]
        return found

    def _legal_now(self, seat: int) -> dict[str, JSON]:
        if self.is_over:
            return {}
        moves = self.game.mechanic.legal(self.state, seat)
        moves[seeding.CONTRIBUTE] = {"max_chars": seeding.MAX_ENTROPY_CHARS}
        return moves


# the moves the table handles itself, whatever the game: no rule of its spec judges them
TABLE_MOVES = frozenset({seeding.CONTRIBUTE, disputes.DISPUTE, rulings.RULING, reissues.REISSUE})
# the moves no seat waits on: a seat's turn clock goes on running through them
ASIDES = frozenset({seeding.CONTRIBUTE, disputes.DISPUTE, reissues.REISSUE})
# the moves a rewind leaves standing: the table's own business, not the game's
NEVER_VOIDED = frozenset({disputes.DISPUTE, rulings.RULING, reissues.REISSUE})


def _restarts_deadline(
    seat: int, move: Move, before: Deadline | None, after: Deadline | None
) -> bool:
    """Does this move start the table's deadline again? A claim window's runs from the discard
    that opened it, through its answers; a turn's clock from the last move of the game; a
    ruling restarts either (the table waited for the director)."""
    if move.type in ASIDES:
        return False
    return seat == DIRECTOR or after is None or before is None or after.number != before.number


def _check_seat_amounts(name: str, amounts: Mapping[int, int] | None, seats: int) -> None:
    """Starting scores or balances: seats of the table, integers a Struct carries exactly."""
    for seat, amount in (amounts or {}).items():
        if not isinstance(seat, int) or not 0 <= seat < seats:
            raise SetupError(f"`{name}`: `{seat}` is not a seat of this table")
        if isinstance(amount, bool) or not isinstance(amount, int) or abs(amount) > SAFE_INTEGER:
            raise SetupError(
                f"`{name}` of seat {seat}: an integer within plus or minus {SAFE_INTEGER}"
            )

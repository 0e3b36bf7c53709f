"""The application service: tables, seats, proposals and verdicts, with no gRPC in sight.

It owns the store, the loaded games and a cache of live tables (`tables`), their watchers
(`watching`), their deadlines (`deadlines`) and the seats' tokens (`auth`). Each live table has a
lock: one proposal at a time is judged, recorded, then answered. A proposal is judged on the
event loop that received it (`propose_on_loop`), its write committed by the store's writer
thread while the loop serves others; one that needs the store first goes to a worker thread
(`propose`). The promises it keeps:
- an accepted move is committed to the store *before* its verdict is returned; if the store fails,
  the cached table (which already applied the move) is dropped and rebuilt from the store, so memory
  never runs ahead of the log;
- a rejected move changes nothing, but its verdict is remembered when it came with a `move_id`;
- a `move_id` seen before gets its first verdict back, and nothing is applied twice;
- a seat acts only with its own token (only its sha256 is stored); a view, a verdict or an event
  stream shows a seat only what that seat may see: views are the table's (`Table.view(seat)`),
  verdicts and events pass the one redaction point (`referee.redaction`);
- several processes may share one store: before judging, a table catches up with the moves the
  store has that it lacks, and a write that loses a race (`StoreConflict`) makes the table reload
  and judge again. Watchers and deadlines follow what the other processes write (`following`).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NoReturn

import structlog

from referee.adjudication.replay import adjudicate, adjudicate_yaml
from referee.clock import Clock
from referee.engine import disputes, reissues, rulings, seeding, snapshot
from referee.engine.game import Game
from referee.engine.setup import TableSetup
from referee.engine.snapshot import SnapshotError
from referee.engine.table import EXPIRE, SYSTEM, Table
from referee.engine.versions import rules_version, short
from referee.errors import FailedPrecondition, InvalidArgument, RefereeError, VersionConflict
from referee.i18n.verdicts import unreadable
from referee.model import DIRECTOR, JSON, Move, Outcome, Sentence, Verdict
from referee.records.seal import sealed
from referee.records.signing import SigningKey, kept_signing_key
from referee.redaction import events_for
from referee.scheduler import Scheduler
from referee.schemas.describe import describe_game
from referee.service import auth, explanations, lobby, past_tables
from referee.service.answers import CreatedTable, GivenRecord, Ruling, SeatView, told_verdict
from referee.service.deadlines import Deadlines
from referee.service.explanations import Explained
from referee.service.following import HEARD_LATE_S, Following
from referee.service.metrics import Metrics
from referee.service.records import seen_record, stored_record
from referee.service.rules_versions import RulesVersions
from referee.service.spoken import Teller
from referee.service.stored_log import StoredLog
from referee.service.tables import MAX_LIVE_TABLES, LiveTable, LiveTables
from referee.service.watching import SHUTTING_DOWN, Accepted, ShuttingDown, Subscription, Watchers
from referee.store import codec
from referee.store.base import (
    KEEP,
    Due,
    Snapshot,
    Store,
    StoreConflict,
    Summary,
    TableFilter,
    Write,
)

log = structlog.get_logger("referee.service")

MAX_MOVE_ID_LENGTH = 128
CONFLICT_RETRIES = 5  # races lost in a row before giving up with VersionConflict
WATCH_CAPACITY = 1024  # moves a watcher may fall behind before its stream is cut
MAX_STREAMS_PER_TABLE = 64  # Watch streams open on one table at once
# a table's state is snapshot with every this many moves: a reload judges fewer again (about
# 0.1 ms a move; restoring takes some 0.4 ms) for a 5 KB write and 0.4 ms every so many moves
SNAPSHOT_EVERY = 50
# Explains judged at once (the others wait their turn on a worker thread): an Explain is all
# Python work, so more at once explain no faster under the GIL, but each more takes the GIL from
# the event loop for longer (beside four spectators looping on Explain, the health check's p99
# was 18 to 116 ms with four at once, 21 to 35 ms one at a time: tests/harden/test_explain_cost.py)
EXPLAINING_AT_ONCE = 1


class RefereeService:
    def __init__(
        self,
        store: Store,
        games: Mapping[str, Game],
        *,
        watch_capacity: int = WATCH_CAPACITY,
        max_live_tables: int = MAX_LIVE_TABLES,
        max_streams_per_table: int = MAX_STREAMS_PER_TABLE,
        allow_stacked: bool = False,
        metrics: Metrics | None = None,
        clock: Clock | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
        signing_key: SigningKey | None = None,
        sole_writer: bool = False,
    ) -> None:
        """`clock`: what deadlines are measured by (the real one, `Scheduler`, by default);
        `snapshot_every`: how many moves between two snapshots of a table (0: none);
        `signing_key`: what records are signed with (by default the store's, made if it has
        none); `sole_writer`: no other process writes `store` (`serve` on memory, or on the
        SQLite file it claims), so a table in memory is judged without a look at the store
        first (were another writer there after all, its accepted moves still could not fork
        the log: an insert at a taken version fails)."""
        self._store = store
        self.signing_key = signing_key or kept_signing_key(store)
        self._snapshot_every = snapshot_every
        self._explaining = threading.BoundedSemaphore(EXPLAINING_AT_ONCE)
        self._allow_stacked = allow_stacked  # a chosen seed or a stacked deal (test mode)
        self._games = dict(games)
        self._versions = RulesVersions(store, games)
        self._watch_capacity = watch_capacity
        self._max_streams_per_table = max_streams_per_table
        self._watchers = Watchers()
        self._tables = LiveTables(
            store,
            self._versions.of_table,
            self._watchers,
            most=max_live_tables,
            loaded=self._loaded,
        )
        self._clock = clock if clock is not None else Scheduler()
        self._deadlines = Deadlines(self._clock, self._deadline_passed)
        self._closed = False
        self._older_tables = lobby.OlderTables(store)  # from before the lobby's summaries
        self.metrics = metrics if metrics is not None else Metrics()  # a registry of its own
        self.metrics.bind(lambda: self.live_tables, store)
        self._following = Following(store, self._deadlines, self._watchers, self._catch_up)
        if store.follow(self._following):  # a store other processes write too
            self._following.check_every(self._clock)
        self._tables.others_write = not sole_writer

    @property
    def games(self) -> list[str]:
        """The names of the games loaded, sorted."""
        return sorted(self._games)

    # -- games ---------------------------------------------------------------------------------

    def list_games(self, languages: Sequence[str] = ()) -> list[dict[str, JSON]]:
        """Each game's description (as `describe_game`), by name."""
        return [self.describe_game(name, languages) for name in sorted(self._games)]

    def describe_game(self, name: str, languages: Sequence[str] = ()) -> dict[str, JSON]:
        """The game's options, moves and rules, worded in the first of `languages` (the caller's,
        most wanted first) that the game is written in, else in English; and the rules version
        a new table plays (`referee.engine.versions`)."""
        game = self._game(name)
        described = describe_game(game, game.language(languages))
        return {"name": game.name, **described, "rules_version": rules_version(game)}

    def _game(self, name: str) -> Game:
        if not name:
            raise InvalidArgument("missing `game`")
        return self._versions.current(name)

    # -- tables --------------------------------------------------------------------------------

    def create_table(
        self,
        game_name: str,
        *,
        options: Mapping[str, JSON] | None = None,
        seats: int,
        dealer: int = 0,
        seed: int | None = None,
        deal: Mapping[str, JSON] | None = None,
        scores: Mapping[int, int] | None = None,
        balances: Mapping[int, int] | None = None,
        entropy: str | None = None,
        names: Mapping[int, str] | None = None,
    ) -> CreatedTable:
        """Open a table (its options, seats and deal checked by the engine) and deal out tokens.
        A chosen seed or a stacked deal only where the service allows them (test mode)."""
        game = self._game(game_name)
        setup = TableSetup(
            game=game.name,
            options=dict(options or {}),
            seats=seats,
            dealer=dealer,
            seed=seed,
            deal=dict(deal) if deal is not None else None,
            scores=dict(scores) if scores else None,
            balances=dict(balances) if balances else None,
            entropy=entropy,
            names=dict(names) if names else None,
        )
        if seeding.chosen(setup) and not self._allow_stacked:
            raise FailedPrecondition(
                "a chosen `seed` or a stacked `deal` is a test and dispute "
                "mode this referee does not allow: tables here are dealt "
                "fair (`referee serve --allow-stacked` allows them)"
            )
        table = Table.create(game, setup)
        tokens = auth.new_tokens(seats)
        digests = {seat: auth.digest(token) for seat, token in tokens.items()}
        table_id = self._store.new_table_id()  # a store of several says which keeps it
        # the table's own setup: the engine filled in the seed and the commitment's salt, which
        # a restart needs to deal the same cards behind the same commitment
        live = LiveTable(table_id, table, {}, StoredLog(0, [], tuple))
        live.due = self._due_after(live)  # a first turn's clock starts now
        live.summary = lobby.summary_of(table)
        self._store.create_table(
            table_id,
            table.setup.to_data(),
            digests,
            self._versions.pin(game),
            live.due,
            live.summary,
        )
        live.seat_of_token = {digest: seat for seat, digest in digests.items()}
        self._tables.add(live)
        self._arm_deadline(live)
        self.metrics.tables_created.labels(game=game.name).inc()
        log.info(
            "table_created",
            table=table_id,
            game=game.name,
            seats=seats,
            rules_version=short(rules_version(game)),
        )
        return CreatedTable(
            table_id, tokens, table.commitment, table.version, table.deal_commitment
        )

    def propose(
        self,
        table_id: str,
        token: str | None,
        move: Move,
        *,
        move_id: str = "",
        expected_version: int | None = None,
        seat: int | None = None,
        languages: Sequence[str] = (),
    ) -> Ruling:
        """Judge `move` for the token's seat; record it; then answer (see the module docstring),
        worded in the first of `languages` the game is written in (the record stays English)."""
        return self._decided(
            table_id, token, move, move_id, expected_version, languages, claimed=seat
        )

    async def propose_on_loop(
        self,
        table_id: str,
        token: str | None,
        move: Move,
        *,
        move_id: str = "",
        expected_version: int | None = None,
        seat: int | None = None,
        languages: Sequence[str] = (),
    ) -> Ruling | None:
        """`propose`, on the event loop that received it (DESIGN.md, "Serving a proposal"):
        judged and worded there under the table's turn, its write committed by the store's
        writer while the loop serves others, answered once it is committed. None when the
        proposal needs what the loop must not wait for (a table to load from the store, a retry
        or a dispute to look up there, a lock a thread holds): `propose` it on a worker thread.
        A table other processes write is caught up with the store first, by a thread. A caller
        that goes away does not cut it between judgement and commit (shielded)."""
        _check_proposal(move, move_id)
        live = self._tables.in_memory(table_id)
        if live is None:
            return None
        if move.type == disputes.DISPUTE and move.fields.get("proposal"):
            return None  # whether the disputed move id exists is in the store
        asked = _Asked(token, seat, move, move_id, expected_version, languages)
        return await asyncio.shield(self._judged_on_loop(live, asked))

    async def committed(self, table_id: str) -> None:
        """Return once the table's proposal being committed on the loop, if any, is: a view
        asked meanwhile waits here, on the loop, not on a worker thread (a slow disk ties up
        no thread, and a view never shows a move that is not durable yet)."""
        live = self._tables.in_memory(table_id)
        if live is not None and live.turn.locked():
            async with live.turn:
                pass

    async def _judged_on_loop(self, live: LiveTable, asked: _Asked) -> Ruling | None:
        async with live.turn:
            if not live.lock.acquire(blocking=False):
                return None  # a thread has the table (an Explain, a deadline): wait there
            try:
                if live.retired:
                    return None
                # a table other processes write catches up with the store first: a read the
                # loop must not wait on, so a thread makes it while the table stays locked
                if self._tables.others_write and not await asyncio.to_thread(
                    self._tables.caught_up, live
                ):
                    return None
                if asked.expected_version not in (None, live.table.version):
                    return None  # a retry of an accepted move names the version before it
                return await self._judge_on_loop(live, asked)
            finally:
                live.lock.release()

    async def _judge_on_loop(self, live: LiveTable, asked: _Asked) -> Ruling | None:
        seat = auth.actor(live.table_id, live.seat_of_token, asked.token, asked.seat)
        before = live.table.version
        verdict = live.table.propose(seat, asked.move)
        try:
            pending = self._to_write(live, seat, asked.move, asked.move_id, verdict, before)
            if pending is not None:
                await asyncio.wrap_future(self._store.submit(pending.write))
        except StoreConflict:  # the move id was used before: its first verdict is stored
            if live.table.version != before:
                self._tables.retire(live, "store conflict")
            return None
        except BaseException:  # the table may hold a move the store does not: drop it
            self._tables.retire(live, "store failure")
            raise
        if pending is not None:
            self._written(live, pending)
        ruling = _ruling(live, seat, asked.move, asked.move_id, verdict)
        self.metrics.count_verdict(live.table.game.name, verdict, replayed=False)
        return ruling.worded(live.table, asked.move, asked.languages)

    def rule(
        self,
        table_id: str,
        move: Move,
        *,
        ruling_id: str = "",
        expected_version: int | None = None,
        languages: Sequence[str] = (),
    ) -> Ruling:
        """The director's ruling on a dispute (`referee.engine.rulings`), judged and recorded as
        a proposal is, as a move of `DIRECTOR`. The caller is the operator: the server checked."""
        if move.type != rulings.RULING:
            raise InvalidArgument(f"a ruling is the move `{rulings.RULING}`, not `{move.type}`")
        return self._decided(
            table_id, None, move, ruling_id, expected_version, languages, director=True
        )

    def _decided(
        self,
        table_id: str,
        token: str | None,
        move: Move,
        move_id: str,
        expected_version: int | None,
        languages: Sequence[str],
        *,
        claimed: int | None = None,
        director: bool = False,
    ) -> Ruling:
        """A proposal of the token's seat (or the director's ruling) judged, recorded, answered."""
        _check_proposal(move, move_id)
        for _ in range(CONFLICT_RETRIES):
            with self._tables.locked(table_id, token) as live:
                actor = (
                    DIRECTOR
                    if director
                    else auth.actor(table_id, live.seat_of_token, token, claimed)
                )
                ruling = self._judge(live, actor, move, move_id, expected_version)
                if ruling is not None:
                    game = live.table.game.name
                    self.metrics.count_verdict(game, ruling.verdict, replayed=ruling.replayed)
                    return ruling.worded(live.table, move, languages)
        raise VersionConflict(f"table `{table_id}` kept changing while judging: propose again")

    def reissue_seat(self, table_id: str, seat: int) -> str:
        """A new secret token for `seat` (the operator's act: the server checked), its old one
        refused from now on, here and in every process sharing the store: the store keeps the
        new token's hash with the move `reissue` that logs the act (`referee.engine.reissues`),
        and another process reloads the table's tokens when it meets that move."""
        move = Move(reissues.REISSUE, {"seat": seat})
        for _ in range(CONFLICT_RETRIES):
            with self._tables.locked(table_id) as live:
                if not 0 <= seat < live.table.setup.seats:
                    raise InvalidArgument(
                        f"table `{table_id}` has seats 0 to {live.table.setup.seats - 1}, "
                        f"not `{seat}`"
                    )
                token = auth.new_token()
                if self._reissued(live, move, seat, auth.digest(token)):
                    log.info("seat_reissued", table=table_id, seat=seat)  # never the token
                    return token
        raise VersionConflict(f"table `{table_id}` kept changing while reissuing: try again")

    def _reissued(self, live: LiveTable, move: Move, seat: int, digest: str) -> bool:
        """Log the reissue and store the new token's hash; False when another process wrote a
        move first (try again)."""
        before = live.table.version
        verdict = live.table.propose(DIRECTOR, move)
        if verdict.outcome is Outcome.REJECTED:  # the seat was checked: a bug
            raise RefereeError(f"the reissue of seat {seat} was refused: {verdict.violations}")
        try:
            self._record(live, DIRECTOR, move, "", verdict, before, seat_token=(seat, digest))
        except StoreConflict:
            self._tables.retire(live, "store conflict")
            return False
        except BaseException:  # the table holds a move the store may not: drop it
            self._tables.retire(live, "store failure")
            raise
        kept = {old: s for old, s in live.seat_of_token.items() if s != seat}
        live.seat_of_token = {**kept, digest: seat}
        return True

    def list_tables(
        self, where: TableFilter, *, page_size: int = 0, page_token: str = ""
    ) -> lobby.Page:
        """The lobby (the operator's: the server checked): the tables `where` asks for, newest
        first, a page at a time, read from the store's summaries (`referee.service.lobby`)."""
        below = lobby.below(page_token, self._store.positions_below)  # checked first
        size = lobby.page_size(page_size)
        self._older_tables.summarise(self._summarise)
        return lobby.page(self._store, where, below, size)

    def _summarise(self, table_id: str) -> None:
        """Give a table stored before summaries its own, from the table loaded."""
        with self._tables.locked(table_id) as live:
            live.summary = lobby.summary_of(live.table)
            self._store.set_summary(table_id, live.summary)

    def view(
        self,
        table_id: str,
        token: str | None,
        *,
        seat: int | None = None,
        director: bool = False,
    ) -> SeatView:
        """The token's seat view, or the public view without a token; the director's (every
        card) for the operator."""
        with self._tables.locked(table_id, token) as live:
            viewer = (
                DIRECTOR if director else auth.viewer(table_id, live.seat_of_token, token, seat)
            )
            table = live.table
            return SeatView(
                self._with_time_left(live, table.view(viewer, legal=True)),
                table.version,
                viewer,
                table.commitment,
                table.is_over,
                rules_version(table.game),
            )

    def record(self, table_id: str, token: str | None, *, operator: bool = False) -> GivenRecord:
        """The table's signed record: the full one when the table is over or for the operator,
        else what the token's seat (a spectator, without a token) may see."""
        with self._tables.locked(table_id, token) as live:
            viewer = auth.viewer(table_id, live.seat_of_token, token, None)
            full = operator or live.table.is_over
            version = rules_version(live.table.game)
        if full:
            record = stored_record(self._store, self._versions, table_id)
        else:
            record = seen_record(self._store.load_table(table_id), version, viewer)
        return GivenRecord(sealed(record, self.signing_key), full)

    def explain(
        self,
        table_id: str,
        token: str | None,
        *,
        version: int | None = None,
        move_id: str = "",
        operator: bool = False,
        languages: Sequence[str] = (),
    ) -> Explained:
        """What judging a past proposal of the table looked at: the accepted move that made
        `version`, or the proposal of `move_id`; as the token's seat may see it, or a spectator
        without a token, or the director (`operator`: everything). See `explanations`.
        The table then is rebuilt from its nearest snapshot (`past_tables`), one Explain at a
        time (`EXPLAINING_AT_ONCE`); the answer's `folded` is what that cost."""
        if (version is None) == (not move_id):
            raise InvalidArgument("name the proposal to explain: a version, or a move id")
        with self._tables.locked(table_id, token) as live:
            caller = auth.viewer(table_id, live.seat_of_token, token, None)
            game, setup, length = live.table.game, live.table.setup, live.table.version
        language = game.language(languages)
        proposal, judged_at = explanations.proposal_of(
            self._store, table_id, length, move_id, version
        )
        with self._explaining:  # one at a time: see EXPLAINING_AT_ONCE
            past = past_tables.table_at(self._store, game, setup, table_id, judged_at)
            return explanations.explained(past, proposal, caller, operator, language)

    def watch(
        self,
        table_id: str,
        token: str | None,
        *,
        from_version: int = 0,
        languages: Sequence[str] = (),
        director: bool = False,
    ) -> Subscription:
        """Moves accepted after `from_version`, then live ones, each redacted for the caller
        (their texts in the first of `languages` the game is written in); whole for the
        director (the operator).

        The caller must `cancel()` the subscription when it stops reading early.
        """
        if from_version < 0:
            raise InvalidArgument(f"`from_version` must be 0 or more, got `{from_version}`")
        if self._closed:
            raise ShuttingDown(SHUTTING_DOWN)
        with self._tables.locked(table_id, token) as live:
            viewer = (
                DIRECTOR if director else auth.viewer(table_id, live.seat_of_token, token, None)
            )
            backlog = live.history[from_version:]
            game = live.table.game
            narrator = Teller(game.spec.mechanics, game.language(languages), game.spec.pack_kind)
            subscription = Subscription(viewer, self._watch_capacity + len(backlog), narrator)
            for item in backlog:
                subscription.push(item)
            if live.table.is_over:
                subscription.close()
            else:  # registered under the table lock: no move falls between backlog and live
                self._watchers.of(table_id, live.table.version).add(
                    subscription, self._max_streams_per_table
                )
            return subscription

    def adjudicate(self, record: JSON, languages: Sequence[str] = ()) -> dict[str, JSON]:
        """Replay a game record: the first illegal move and why (in the caller's language, as
        a verdict's), or the confirmed final result."""
        if not isinstance(record, Mapping):
            raise InvalidArgument(
                "a game record is a mapping with `game`, `seats`, `deal` or `seed`, and `steps`"
            )
        return adjudicate(self._games, dict(record), wording=_told_in(languages))

    def adjudicate_yaml(self, text: str, languages: Sequence[str] = ()) -> dict[str, JSON]:
        return adjudicate_yaml(self._games, text, wording=_told_in(languages))

    def close(self) -> None:
        """End every watch stream (with `ShuttingDown`) and every deadline (on shutdown)."""
        self._closed = True
        self._following.close()
        self._deadlines.close()
        self._watchers.shut_down()

    @property
    def live_tables(self) -> int:
        """How many tables are held in memory."""
        return self._tables.count

    # -- deadlines (a claim window's): the service's clock makes them pass ---------------

    def resume_deadlines(self) -> int:
        """Arm every deadline the store keeps, for the time it has left, so a restarted referee
        expires what was left waiting without anyone touching the table. Returns how many."""
        pending = self._store.deadlines()
        for table_id, due in pending.items():
            self._deadlines.arm(table_id, due)
        log.info("deadlines_resumed", armed=len(pending))
        return len(pending)

    def _with_time_left(self, live: LiveTable, view: dict[str, JSON]) -> dict[str, JSON]:
        """A game with a play clock shows the milliseconds left before the table's deadline (a
        turn's, a claim window's) on the server's clock: the engine knows no time."""
        clock = view.get("clock")
        if isinstance(clock, dict) and live.due is not None:
            clock["left_ms"] = max(0, round((live.due.at - self._clock.time()) * 1000))
        return view

    @property
    def armed_deadlines(self) -> int:
        """How many deadlines wait on the clock."""
        return self._deadlines.armed

    def _loaded(self, live: LiveTable) -> None:
        source = "log" if live.restored_from is None else "snapshot"
        self.metrics.table_loads.labels(source=source).inc()
        self._arm_deadline(live)

    def _arm_deadline(self, live: LiveTable) -> None:
        live.due = self._due_after(live)
        if not self._closed:
            self._deadlines.arm(live.table_id, live.due)

    def _due_after(self, live: LiveTable) -> Due | None:
        """The table's pending deadline in its state now: the one it had if it is the same, else
        a new one due its full length from now."""
        deadline = live.table.deadline
        if deadline is None:
            return None
        if live.due is not None and live.due.number == deadline.number:
            return live.due
        return Due(deadline.number, self._clock.time() + deadline.after_ms / 1000)

    def _deadline_passed(self, table_id: str, number: int) -> None:
        try:
            if not self._tables.holds(table_id):  # ask the store before loading the table
                stored = self._store.deadline(table_id)
                if stored is None or stored.number != number:  # called elsewhere, or moved on
                    self._deadlines.arm(table_id, stored, late_by=HEARD_LATE_S)
                    return
            with self._tables.locked(table_id) as live:
                deadline = live.table.deadline
                if deadline is None or deadline.number != number:
                    self._arm_deadline(live)  # the state moved on: its own deadline, if any
                    return
                before = live.table.version
                verdict = live.table.expire()
                if verdict is not None:
                    self._record(live, SYSTEM, Move(EXPIRE), "", verdict, before)
                    self.metrics.count_timeout(live.table.game.name, verdict)
                    log.info("deadline_passed", table=table_id, deadline=number)
        except StoreConflict:  # another process called it first: nothing to do
            self._tables.retire_quietly(table_id)
            log.info("deadline_passed_elsewhere", table=table_id, deadline=number)
        except RefereeError as error:  # a timer has nobody to answer: log, never crash
            self._tables.retire_quietly(table_id)
            log.error("deadline_not_applied", table=table_id, deadline=number, error=str(error))

    def _catch_up(self, table_id: str) -> None:
        with self._tables.locked(table_id):
            pass  # locking a table catches it up and tells its watchers

    # -- proposals -----------------------------------------------------------------------------

    def _first_verdict(self, live: LiveTable, seat: int, move: Move, move_id: str) -> Ruling | None:
        """The verdict `move_id` was given before, if any (as given then: `replayed`)."""
        if not move_id:
            return None
        first = self._store.find_verdict(live.table_id, move_id)
        if first is None:
            return None
        if first.seat != seat or first.move != codec.decode(codec.encode(move.to_data())):
            raise InvalidArgument(f"move id `{move_id}` was already used for another move")
        return _ruling(live, seat, move, move_id, Verdict.from_data(first.verdict), replayed=True)

    def _judge(
        self, live: LiveTable, seat: int, move: Move, move_id: str, expected_version: int | None
    ) -> Ruling | None:
        """Judge, record, answer; None when another process recorded a move first (retry).

        A move id seen before is found by the store's unique key when its verdict is recorded,
        not looked up before judging: a retry is rare, and a fresh move pays no extra query.
        """
        if expected_version is not None and expected_version != live.table.version:
            # a retry of a move accepted since names the version before it
            return self._first_verdict(live, seat, move, move_id) or _stale(live, expected_version)
        before = live.table.version
        unknown = self._unknown_disputed(live, move)
        verdict = unknown or live.table.propose(seat, move)
        try:
            self._record(live, seat, move, move_id, verdict, before)
        except StoreConflict:  # the move id was used before, or the store is ahead of this table
            if live.table.version != before:  # it holds a move the store refused: reload it
                self._tables.retire(live, "store conflict")
            return self._first_verdict(live, seat, move, move_id)  # None: judge again
        except BaseException:  # the table may hold a move the store does not: drop it
            self._tables.retire(live, "store failure")
            raise
        return _ruling(live, seat, move, move_id, verdict)

    def _unknown_disputed(self, live: LiveTable, move: Move) -> Verdict | None:
        """A dispute of a move id no proposal of the table had (the table keeps no move ids:
        the store does), rejected as unreadable (GEN-8)."""
        disputed = move.fields.get("proposal") if move.type == disputes.DISPUTE else None
        if not isinstance(disputed, str) or not disputed:
            return None
        if self._store.find_verdict(live.table_id, disputed) is not None:
            return None
        sentence = Sentence("dispute.unknown_move_id", {"move_id": disputed[:40]})
        return Verdict.reject(unreadable(sentence), version=live.table.version)

    def _record(
        self,
        live: LiveTable,
        seat: int,
        move: Move,
        move_id: str,
        verdict: Verdict,
        version_before: int,
        *,
        seat_token: tuple[int, str] | None = None,
    ) -> None:
        """Commit what the move changed (`_to_write`), then tell the table's watchers."""
        pending = self._to_write(live, seat, move, move_id, verdict, version_before, seat_token)
        if pending is not None:
            self._store.record(pending.write)
            self._written(live, pending)

    def _to_write(
        self,
        live: LiveTable,
        seat: int,
        move: Move,
        move_id: str,
        verdict: Verdict,
        version_before: int,
        seat_token: tuple[int, str] | None = None,
    ) -> PendingWrite | None:
        """What to commit of a judged move: the move if it changed the table, else its verdict
        if it has a move id to be remembered by (None: nothing); with the seat's new token hash
        (`seat_token`), for a reissue.

        Whether a move is logged depends on the table's version, not on the outcome, so that
        whatever the engine counts as a change (a pending claim, say) is replayed after a restart.
        """
        table_id = live.table_id
        if live.table.version == version_before:  # rejected: nothing changed
            if not move_id:
                return None
            write = Write(table_id, None, seat, move.to_data(), move_id, verdict.to_data())
            return PendingWrite(write, verdict)
        if live.table.version != version_before + 1:
            raise RefereeError(
                f"one move moved table `{table_id}` from version "
                f"{version_before} to {live.table.version}"
            )
        due = self._due_after(live)
        summary = lobby.summary_of(live.table)
        write = Write(
            table_id,
            live.table.version,
            seat,
            move.to_data(),
            move_id or None,
            verdict.to_data(),
            deadline=KEEP if due == live.due else due,
            snapshot=self._snapshot(live),
            summary=KEEP if summary == live.summary else summary,
            seat_token=seat_token,
        )
        return PendingWrite(write, verdict, due, summary)

    def _written(self, live: LiveTable, pending: PendingWrite) -> None:
        """A committed move's table told: its deadline, summary, history and watchers."""
        if pending.write.seq is None:
            return
        live.due = pending.due
        live.summary = pending.summary
        live.history.append(Accepted(pending.write.seq, pending.write.seat, pending.verdict.events))
        self._tables.tell_watchers(live)
        self._arm_deadline(live)

    def _snapshot(self, live: LiveTable) -> Snapshot | None:
        """The table's snapshot, if its version is one to take it at."""
        version = live.table.version
        if not self._snapshot_every or version % self._snapshot_every:
            return None
        try:
            return Snapshot(version, snapshot.snapshot(live.table))
        except SnapshotError as error:  # a cache only: the table is replayed instead
            log.warning("snapshot_not_taken", table=live.table_id, version=version, why=str(error))
            return None


@dataclass(frozen=True)
class _Asked:
    """A proposal as asked, for the event loop's judgement."""

    token: str | None
    seat: int | None  # the seat the caller claims to be, if it says
    move: Move
    move_id: str
    expected_version: int | None
    languages: Sequence[str]


@dataclass(frozen=True)
class PendingWrite:
    """A judged move's write, and what its table takes on once it is committed."""

    write: Write
    verdict: Verdict
    due: Due | None = None
    summary: Summary | None = None


def _ruling(
    live: LiveTable,
    seat: int,
    move: Move,
    move_id: str,
    verdict: Verdict,
    *,
    replayed: bool = False,
) -> Ruling:
    """The verdict as judged, unredacted: `Ruling.worded` makes it the proposer's."""
    return Ruling(verdict, seat, move_id, events_for(verdict.events, seat), replayed)


def _check_proposal(move: Move, move_id: str) -> None:
    if len(move_id) > MAX_MOVE_ID_LENGTH:
        raise InvalidArgument(f"`move_id` is longer than {MAX_MOVE_ID_LENGTH} characters")
    problem = codec.unstorable(move.to_data())
    if problem:  # the log could not hold it: refused before it is judged
        raise InvalidArgument(f"the move cannot be recorded: {problem}")


def _stale(live: LiveTable, expected: int) -> NoReturn:
    raise VersionConflict(
        f"table `{live.table_id}` is at version {live.table.version}, not {expected}"
    )


def _told_in(languages: Sequence[str]) -> Callable[[Game, Verdict], Verdict]:
    """How Adjudicate words a rejection: as a verdict is told, in the caller's language (the
    record is the caller's: nothing in it is hidden from them)."""

    def told(game: Game, verdict: Verdict) -> Verdict:
        return told_verdict(game, verdict, game.language(languages))

    return told

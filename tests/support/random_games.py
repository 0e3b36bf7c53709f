"""The random-games driver of the liveness tests (tests/liveness/test_random_games.py), shared
with the engine's and the contract's tests: random tables of a game (`setups`), the moves of its
client bots, junk and the oracle's, and `play`, a whole adversarial game in which a rejected move
must change nothing and some seat always has a legal move. `COVERED` counts what was played."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from hypothesis import strategies as st

from referee.engine.game import Game
from referee.engine.table import CLOSE_WINDOW, SYSTEM, Table, TableSetup
from referee.errors import OptionError, SetupError
from referee.model import ADJUDICATOR, Move, Verdict
from referee.plugins import banking
from referee.spec.options import Option
from referee_bots import pontoon_bot, rummy_bot, tricks_bot
from tests.liveness.oracle import accepted, candidates, witness

STEPS = 400  # proposals per game
BOT_TRIES = 300  # a bot's candidates proposed for one move
COVERED: Counter[str] = Counter()
WATCHED = {
    "hand_void": "hands ended void (PN-21)",
    "stock_rebuilt": "stocks rebuilt (PN-21)",
    "pack_empty": "hands standing on an empty pack (PO-5)",
    "claim_won": "claims won",
    "split": "splits",
    "hand_over": "hands or deals played to the end",
}
JUNK: list[Any] = [
    "ZZ",
    "1H",
    "",
    "10",
    "T1",
    "MT",
    "7HH",
    7,
    -1,
    10**12,
    2.5,
    float("nan"),
    [],
    {},
    None,
    True,
    ["AS", "AS", "AS"],
]


@st.composite
def setups(draw: st.DrawFn, game: Game) -> TableSetup:
    """A table of `game`: as many seats as it allows, or the fewest, or between; any options."""
    spec = game.spec
    seats = draw(
        st.sampled_from(
            [
                spec.seats_max,
                spec.seats_max,
                spec.seats_min,
                draw(st.integers(spec.seats_min, spec.seats_max)),
            ]
        )
    )
    options = {name: draw(option_values(option)) for name, option in spec.options.items()}
    balances = {s: 1000 for s in range(seats)} if game.spec.mechanics == "banking" else None
    return TableSetup(
        game=game.name,
        seats=seats,
        dealer=draw(st.integers(0, seats - 1)),
        seed=draw(st.integers(0, 2**32)),
        options=options,
        balances=balances,
    )


def option_values(option: Option) -> st.SearchStrategy[Any]:
    if option.type == "enum":
        return st.sampled_from(option.values)
    if option.type == "bool":
        return st.booleans()
    low = option.minimum if option.minimum is not None else 0
    high = option.maximum if option.maximum is not None else max(low, int(option.default)) * 4
    return st.sampled_from(sorted({option.default, low, high, (low + high) // 2}))


def bot_moves(game: Game, table: Table, rng: random.Random) -> Iterator[tuple[int, dict[str, Any]]]:
    """The game's client bot, for the seat whose move it is (from that seat's own view)."""
    view = table.view(ADJUDICATOR)
    mechanic = game.spec.mechanics
    if mechanic == "banking":
        seat = pontoon_bot.next_to_act(view)
        options = table.state.options
        # a spec naming its moves its own way is played from `legal` (the plugin's bot)
        renamed = any(move.handler != move.type for move in game.spec.moves.values())
        for move in banking.turn_candidates(
            table.view(seat, legal=renamed),
            rng,
            min_bet=options["min_bet"],
            max_bet=options["max_bet"],
        ):
            yield seat, move
        return
    seats = view.get("deciding") or ([] if view.get("to_act") is None else [view["to_act"]])
    for seat in seats:
        bot = rummy_bot if mechanic == "rummy" else tricks_bot
        for move in bot.turn_candidates(table.view(seat), rng):
            yield seat, move


def junk_move(game: Game, table: Table, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A random seat (or no seat of the table) with a random move type and random fields."""
    seat = rng.choice([*range(table.setup.seats), -1, table.setup.seats, 99])
    kind = rng.choice([*game.spec.moves, "", "DRAW", "bet ", "explode"])
    fields = {}
    for field in getattr(game.spec.moves.get(kind), "fields", ()):
        if rng.random() < 0.8:
            fields[field.name] = rng.choice(JUNK)
    if rng.random() < 0.2:
        fields[rng.choice(["extra", "card", "amount"])] = rng.choice(JUNK)
    return seat, {"type": kind, **fields}


def oracle_move(game: Game, table: Table, rng: random.Random) -> tuple[int, Move] | None:
    """A random legal move of a random seat among the first the oracle finds (claims, passes,
    splits, buys ...)."""
    seat = rng.randrange(table.setup.seats)
    legal = []
    for move in candidates(game, table.state, seat):
        if accepted(game, table.state, seat, move):
            legal.append(move)
            if len(legal) >= 8:
                break
    return (seat, rng.choice(legal)) if legal else None


# the moves that run a table to its limits: a Pontoon pack drained by splits, buys and twists;
# a Taradinho stock drained while every discard is claimed out of turn (TD-2)
DRAINING = {"banking": ("split", "buy", "twist"), "rummy": ("take_discard",), "tricks": ()}


def draining_move(game: Game, table: Table) -> tuple[int, Move] | None:
    """The first legal draining move of any seat, if there is one."""
    kinds = DRAINING[game.spec.mechanics]
    for seat in range(table.setup.seats):
        for move in candidates(game, table.state, seat):
            if move.type in kinds and accepted(game, table.state, seat, move):
                return seat, move
    return None


# what a driver's caller is shown of each verdict (tests/contract checks it against the schemas)
Watcher = Callable[[Table, int, Move, Verdict], None]


def propose(
    table: Table, seat: int, move: Move | Mapping[str, Any], watch: Watcher | None = None
) -> bool:
    """Propose; a rejection must change nothing. True when accepted."""
    move = move if isinstance(move, Move) else Move.from_data(dict(move))
    before, version = table.view(ADJUDICATOR), table.version
    verdict = table.propose(seat, move)
    if watch is not None:
        watch(table, seat, move, verdict)
    if verdict.accepted or verdict.outcome.name == "PENDING":
        COVERED["accepted moves"] += 1
        for event in verdict.events:
            if event.kind in WATCHED:
                COVERED[WATCHED[event.kind]] += 1
        return True
    assert table.version == version and table.view(ADJUDICATOR) == before, move
    COVERED["rejected moves"] += 1
    return False


def play(game: Game, setup: TableSetup, seed: int, watch: Watcher | None = None) -> None:
    """A random game of `game`, to its end or STEPS proposals; `watch` sees every verdict."""
    try:
        table = Table.create(game, setup)
    except (SetupError, OptionError):  # option values that do not go together (min over max)
        return
    rng = random.Random(seed)
    drains = rng.random() < 0.5  # half the tables are pushed to their limits
    COVERED[f"games of {game.name}"] += 1
    for _ in range(STEPS):
        if table.is_over:
            COVERED[f"games of {game.name} played to the end"] += 1
            return
        found = witness(game, table.state)
        assert found is not None, stuck(table)
        COVERED["states with a witness"] += 1
        roll = rng.random()
        if table.deadline is not None and roll < 0.1:
            closed = table.expire()  # the deadline passes
            if watch is not None and closed is not None:
                watch(table, SYSTEM, Move(CLOSE_WINDOW), closed)
        elif roll < 0.2:
            propose(table, *junk_move(game, table, rng), watch=watch)
        elif roll < 0.35 and drains:
            chosen = draining_move(game, table)
            if chosen is not None:
                propose(table, *chosen, watch=watch)
        elif roll < 0.5:
            chosen = oracle_move(game, table, rng)
            if chosen is not None:
                propose(table, *chosen, watch=watch)
        else:
            played = any(
                propose(table, seat, move, watch=watch)
                for seat, move in _limited(bot_moves(game, table, rng))
            )
            if not played:
                propose(table, *found, watch=watch)


def _limited(moves: Iterator[tuple[int, dict[str, Any]]]) -> Iterator[tuple[int, dict[str, Any]]]:
    for count, item in enumerate(moves):
        if count >= BOT_TRIES:
            return
        yield item


def stuck(table: Table) -> str:
    view = table.view(ADJUDICATOR)
    return (
        f"no seat of `{table.game.name}` has a legal move at version {table.version}: "
        f"{ {k: view.get(k) for k in ('phase', 'to_act', 'hands', 'stock_size', 'discard_top', 'melds', 'claim_window', 'trick')} }"
        f"\nsetup {table.setup}\nlog {[(s, m.to_data()) for s, m in table.history]}"
    )

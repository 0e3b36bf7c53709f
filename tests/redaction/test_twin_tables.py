"""Two tables that differ only in cards hidden from a seat look the same to that seat, byte for
byte (issue 10, point 6).

For every shipped game: a stacked deal, and its twin where cards hidden from seat `s` trade
places (between two other seats' hands, with the bottom of the stock or pack, and for a Pontoon
banker its own first card, which it does not see). Both tables are played alike through a real
referee: `s` plays its bot's moves, and proposes moves naming the traded cards and bare moves of
any type (illegal for it, or out of turn); the other seats play moves that name no traded card
and that both tables accept. Until a traded
card comes into `s`'s sight (the leak oracle says when) every GetView, every verdict of `s`'s
proposals and every move of its Watch stream is the same bytes at both tables
(`SerializeToString(deterministic=True)`), once the deck commitments are set aside: a commitment
is a salted hash of the whole deck, different at every table by design (GEN-5), and the play
clock's `left_ms`, read off the server's clock when each view was asked for.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from google.protobuf import struct_pb2
from google.protobuf.message import Message

from referee.cards import codes
from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.mechanics.banking.mechanic import BankingMechanic
from referee.model import ADJUDICATOR, Move
from referee_bots import pontoon_bot, rummy_bot, tricks_bot
from tests.liveness.oracle import accepted, candidates
from tests.redaction.breaks import CONTROLS
from tests.redaction.referee_under_test import Received, WatchedTable
from tests.redaction.visibility import CardFinder, hand_of, visible
from tests.support.games import shipped_games

pytestmark = pytest.mark.slow  # every test here is a long run (3 s or more)

GAMES = shipped_games()
STEPS = 30
SOON = 20  # the cards of the stock that may be drawn during a test
SCALE = int(os.environ.get("REDACTION_SCALE", "1"))
TABLES = {"banking": 6, "rummy": 2, "tricks": 2}  # twin pairs a game: a Pontoon hand is short
ROUND_TRIP = {"rummy": {"claim_window_ms": 600_000}}  # no deadline passes during a test


# --- the twin deals -----------------------------------------------------------------------------


def stacked_from(game: Game, state: Any) -> dict[str, Any]:
    """A stacked deal (SCENARIOS.md) that deals what a seeded table dealt."""
    mechanic = game.spec.mechanics
    if mechanic == "banking":
        return {"deck": codes(state.deck)}
    hands = {str(s): codes(h) for s, h in enumerate(state.hands)}
    if mechanic == "rummy":
        turned = {} if state.turned is None else {"turned": str(state.turned)}
        return {"hands": hands, **turned, "stock": codes(reversed(state.stock))}
    return {"hands": hands}


def traded(
    game: Game, deal: dict[str, Any], state: Any, seat: int
) -> tuple[dict[str, Any], set[str]]:
    """The twin deal: cards hidden from `seat` trade places; and which cards they are."""
    others = [s for s in range(state.seats) if s != seat]
    if game.spec.mechanics == "banking":
        deck = list(deal["deck"])
        if state.hands[others[0]][0].cards:  # bets after the first card: hands are face down
            hidden = [str(state.hands[others[0]][0].cards[0])]
            if seat == state.banker:
                hidden.append(str(state.hands[seat][0].cards[0]))
        else:  # bets before any card: the banker's cards nobody sees, as the deal will place them
            players = len(state.players())
            mechanic = game.mechanic
            assert isinstance(mechanic, BankingMechanic)
            places = mechanic.config.visibility.hidden_places
            hidden = [deck[place * (players + 1) + players] for place in places]
        swapped = set()
        for depth, card in enumerate(hidden, start=1):  # each with a card from the bottom
            i, j = deck.index(card), len(deck) - depth
            deck[i], deck[j] = deck[j], deck[i]
            swapped |= {deck[i], deck[j]}
        return {"deck": deck}, swapped
    hands = {s: list(cards) for s, cards in deal["hands"].items()}
    # with two packs a code has two cards: neither may be in sight, nor soon drawn
    seen = visible(state, seat) | set(deal.get("stock", [])[:SOON])
    a, b = str(others[0]), str(others[-1])
    i, j = next(
        (i, j)
        for i, j in itertools.product(range(len(hands[a])), repeat=2)
        if hands[a][i] != hands[b][j] and not {hands[a][i], hands[b][j]} & seen
    )
    hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    swapped = {hands[a][i], hands[b][j]}
    twin = {**deal, "hands": hands}
    if game.spec.mechanics == "rummy":  # and one with the bottom of the stock
        stock = list(deal["stock"])
        low = next(n for n in range(len(stock) - 1, SOON, -1) if stock[n] not in seen | swapped)
        k = next(
            k for k in range(len(hands[a])) if hands[a][k] not in (stock[low], *swapped, *seen)
        )
        hands[a][k], stock[low] = stock[low], hands[a][k]
        swapped |= {hands[a][k], stock[low]}
        twin["stock"] = stock
    return twin, swapped


def setups(game: Game, seed: int, seat: int) -> tuple[TableSetup, TableSetup, set[str]]:
    seats = max(3, game.spec.seats_min)
    banking = game.spec.mechanics == "banking"
    base = TableSetup(
        game=game.name,
        seats=seats,
        seed=seed,
        options={  # those of the game's options
            k: v
            for k, v in ROUND_TRIP.get(game.spec.mechanics, {}).items()
            if k in game.spec.options
        },
        balances={s: 1000 for s in range(seats)} if banking else None,
    )
    state = Table.create(game, base).state
    deal = stacked_from(game, state)
    twin, swapped = traded(game, deal, state, seat)
    return (
        TableSetup(**{**base.__dict__, "deal": deal}),
        TableSetup(**{**base.__dict__, "deal": twin}),
        swapped,
    )


# --- playing both alike -------------------------------------------------------------------------


def next_seat(game: Game, table: Table) -> int | None:
    full = table.view(ADJUDICATOR)
    if game.spec.mechanics == "banking":
        return pontoon_bot.next_to_act(full)
    window = full.get("claim_window") or {}
    waiting = full.get("deciding") or window.get("waiting") or [full.get("to_act")]
    seat: int | None = waiting[0]
    return seat


def bot_moves(game: Game, table: Table, seat: int, rng: random.Random) -> Iterator[Move]:
    view = table.view(seat)
    if game.spec.mechanics == "banking":
        options = table.state.options
        found = pontoon_bot.turn_candidates(
            view, rng, min_bet=options["min_bet"], max_bet=options["max_bet"]
        )
    else:
        found = (rummy_bot if game.spec.mechanics == "rummy" else tricks_bot).turn_candidates(
            view, rng
        )
    return (Move.from_data(m) for m in itertools.islice(found, 20))


def others_move(
    game: Game,
    twins: tuple[WatchedTable, WatchedTable],
    seat: int,
    swapped: set[str],
    finder: CardFinder,
) -> Move | None:
    """A move of `seat` (the oracle's) that names no traded card and that both tables accept."""
    states = [t.shadow.state for t in twins]
    for move in itertools.islice(candidates(game, states[0], seat), 200):
        if finder.in_value(move.to_data()) & swapped:
            continue
        if all(accepted(game, state, seat, move) for state in states):
            return move
    return None


def naming_traded(game: Game, table: Table, swapped: set[str]) -> Iterator[Move]:
    """Moves that name a traded card (another seat's, or the stock's): not the proposer's."""
    finder = CardFinder(game)
    for other in range(table.setup.seats):
        for move in itertools.islice(candidates(game, table.state, other), 60):
            if finder.in_value(move.to_data()) & swapped:
                yield move
                break
    for card in sorted(swapped):
        yield Move("discard", {"card": card})
        yield Move("play", {"card": card})


def in_sight(table: WatchedTable, seat: int, swapped: set[str], hand: int) -> bool:
    """Has a traded card come into `seat`'s sight this hand, as the leak oracle says (a bust
    shows the hand that holds one), or a new hand begun?"""
    return bool(table.knowledge[seat].live[-1] & swapped) or hand_of(table.shadow.state) != hand


def play_twins(stub: Any, game: Game, seed: int, seat: int) -> tuple[list[Received], ...]:
    """Both tables played alike; what `seat` got at each, before a traded card came into sight."""
    setup_a, setup_b, swapped = setups(game, seed, seat)
    twins = (WatchedTable(stub, game, setup_a), WatchedTable(stub, game, setup_b))
    assert twins[0].shadow.view(ADJUDICATOR) != twins[1].shadow.view(ADJUDICATOR)
    hand = hand_of(twins[0].shadow.state)
    assert not any(in_sight(t, seat, swapped, hand) for t in twins), swapped
    finder = CardFinder(game)
    rng = random.Random(seed)
    for _ in range(STEPS):
        if any(in_sight(t, seat, swapped, hand) or t.shadow.is_over for t in twins):
            break
        for table in twins:
            table.view(seat)
        bare = Move(rng.choice(sorted(game.spec.moves)))  # any move type, maybe out of turn
        for move in [*itertools.islice(naming_traded(game, twins[0].shadow, swapped), 3), bare]:
            results = [table.propose(seat, move) for table in twins]
            assert results[0] == results[1], (seat, move, "judged apart")
        if not step(game, twins, seat, swapped, finder, rng):
            break
    # the last move may have shown a traded card: what it sent is compared no more
    shown = any(in_sight(t, seat, swapped, hand) for t in twins)
    limit = twins[0].shadow.version + (0 if shown else 1)
    for table in twins:
        table.finish()
    return tuple([r for r in t.received if r.who == seat and r.version < limit] for t in twins)


def step(
    game: Game,
    twins: tuple[WatchedTable, WatchedTable],
    seat: int,
    swapped: set[str],
    finder: CardFinder,
    rng: random.Random,
) -> bool:
    """One accepted move at both tables; False when there is none to play alike."""
    mover = next_seat(game, twins[0].shadow)
    if mover is None:
        return False
    found = others_move(game, twins, mover, swapped, finder)  # the oracle's, when no bot's
    moves = itertools.chain(
        bot_moves(game, twins[0].shadow, seat, rng) if mover == seat else (),
        [] if found is None else [found],
    )
    for move in moves:
        results = [table.propose(mover, move) for table in twins]
        assert results[0] == results[1], (mover, move, "judged apart")
        if results[0]:
            return True
    return False


# --- the bytes ----------------------------------------------------------------------------------


def without_commitments(message: Message) -> bytes:
    """The message's bytes (deterministic), its deck commitments blanked."""
    copy = type(message)()
    copy.CopyFrom(message)
    if hasattr(copy, "commitment"):
        copy.commitment = ""
    if hasattr(copy, "view"):
        _blank(copy.view)
    for event in getattr(copy, "events", ()):
        _blank(event.data)
    return copy.SerializeToString(deterministic=True)


def _blank(struct: struct_pb2.Struct) -> None:
    if "commitment" in struct.fields:
        struct.fields["commitment"].string_value = ""
    if "left_ms" in struct.fields:  # the time left on the server's clock: when it was asked
        struct.fields["left_ms"].number_value = 0
    for value in struct.fields.values():
        _blank_value(value)


def _blank_value(value: struct_pb2.Value) -> None:
    if value.HasField("struct_value"):
        _blank(value.struct_value)
    elif value.HasField("list_value"):
        for item in value.list_value.values:
            _blank_value(item)


def first_difference(got_a: list[Received], got_b: list[Received]) -> str | None:
    """Where what a seat got at the two tables first differs, or None."""
    if [(r.rpc, r.version) for r in got_a] != [(r.rpc, r.version) for r in got_b]:
        return "not the same messages"
    for a, b in zip(got_a, got_b):
        same = (
            a.data == b.data
            if a.message is None  # an error status
            else without_commitments(a.message) == without_commitments(b.message)
        )
        if not same:
            return f"{a.rpc} at version {a.version}:\n{a.data}\n{b.data}"
    return None


@pytest.mark.parametrize("seat", [0, 1], ids=["dealer", "after the dealer"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_cards_hidden_from_a_seat_change_no_byte_it_receives(
    stub: Any, name: str, seat: int
) -> None:
    game = GAMES[name]
    views = 0
    for seed in range(TABLES[game.spec.mechanics] * SCALE):
        got_a, got_b = play_twins(stub, game, seed, seat)
        difference = first_difference(got_a, got_b)
        assert difference is None, f"seed {seed}: seat {seat}'s {difference}"
        views += sum(r.rpc == "GetView" for r in got_a)
    assert views >= 10, "too short games to compare"


# Events shown whole make no twin differ: the secrets they show (what others draw) are alike at
# both tables. The leak test catches them.
@pytest.mark.parametrize("control", ["views shown whole", "rejections unredacted"])
def test_the_twins_differ_when_a_redaction_is_off(
    stub: Any, control: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    name, broken, rpc = CONTROLS[control]
    for target, attribute, replacement in broken:
        monkeypatch.setattr(target, attribute, replacement)
    game = GAMES[name]
    differences = (
        first_difference(*play_twins(stub, game, seed, 0))
        for seed in range(TABLES[game.spec.mechanics] * SCALE)
    )
    found = next((d for d in differences if d is not None), "")
    assert found.startswith(rpc), f"{control}: seat 0 got the same at both tables"

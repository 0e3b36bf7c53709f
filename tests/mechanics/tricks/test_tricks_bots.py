"""Piedicavallo Tarocchi bots against a real referee over gRPC (port 0, SQLite file).

Four `referee_client.tricks_bot` bots play whole games, each holding only its own seat's token.
Everything each seat receives is recorded: its view after every accepted move, the events of its
own verdicts, and its Watch stream (live, from before the first move to the end of the game); a
spectator (no token) is recorded the same way. Then, for every seat:

- GEN-3, TA-1: it never sees a card of another seat's hand, not even its partner's: every card
  it is shown is in its own hand or already played; its `hand` is its own, nothing more;
- TA-5: the dealer's two discarded cards are shown to the dealer only, until the deal is over,
  when `deal_over` and `last_hand` reveal them to everyone;
- TA-6: the number of trumps discarded is announced to everyone, and it is right;
- the cards it saw played add up: 15 from each seat, 60 different cards, its own the ones it
  was dealt, the pack whole with the discard, each trick the four cards played to it;
- TA-10..TA-12: the points of the two teams add to 114 (228 for two deals) and are what the
  tricks taken make: each trick's cards to the winners' team, the Matto kept by the team that
  played it, the discard to the dealer's team when it took a trick.
"""

from __future__ import annotations

import importlib.util
import random
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from referee.app import create_server
from referee.service import RefereeService
from referee.store.sqlite import SqliteStore
from referee_bots import tricks_bot
from referee_bots.tricks_bot import next_to_act, turn_candidates
from referee_client import RefereeClient
from tests.oracles import tarocchi
from tests.oracles.tarocchi import DEAL_POINTS, team_of

GAME = "tarocchi_piedicavallo"
MAX_PROPOSALS = 3000  # per game: a deal of bots takes about 70
SPECTATOR = None
Observer = int | None  # a seat, or the spectator


@pytest.fixture
def target(tmp_path: Path, games: dict[str, Any]) -> Iterator[str]:
    service = RefereeService(SqliteStore(tmp_path / "referee.db"), games, allow_stacked=True)
    server, port = create_server(service, "127.0.0.1", 0)
    server.start()
    yield f"127.0.0.1:{port}"
    server.stop(None)
    service.close()


@pytest.fixture
def client(target: str) -> Iterator[RefereeClient]:
    with RefereeClient(target) as connected:
        yield connected


# --- what every seat receives ----------------------------------------------------------------------


@dataclass
class Received:
    """Everything one observer got over gRPC, in order."""

    views: list[dict[str, Any]] = field(default_factory=list)
    verdicts: list[dict[str, Any]] = field(default_factory=list)  # its accepted verdicts
    stream: list[dict[str, Any]] = field(default_factory=list)  # its Watch updates


@dataclass
class Game:
    table: Any
    received: dict[Observer, Received]
    proposals: int

    def stream_events(self, observer: Observer) -> Iterator[tuple[int, dict[str, Any]]]:
        for update in self.received[observer].stream:
            for event in update["events"]:
                yield update["version"], event


def watch(
    client: RefereeClient, table_id: str, token: str | None, into: Received
) -> threading.Thread:
    def read() -> None:
        into.stream.extend(client.watch(table_id, token))  # the stream ends with the game

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def play_game(client: RefereeClient, seed: int, *, dealer: int = 0, deals: int = 1) -> Game:
    """Four bots play a whole game; every seat's views, verdicts and Watch stream recorded."""
    table = client.create_table(
        GAME, seats=4, seed=seed, dealer=dealer, options={"deals_per_game": deals}
    )
    tokens: dict[Observer, str | None] = {seat: token for seat, token in table.tokens.items()}
    tokens[SPECTATOR] = None
    received = {observer: Received() for observer in tokens}
    watchers = [watch(client, table.id, token, received[o]) for o, token in tokens.items()]
    rng, proposals = random.Random(seed), 0
    while True:
        for observer, token in tokens.items():
            received[observer].views.append(client.view(table.id, token))
        public = received[SPECTATOR].views[-1]
        if public["match_over"]:
            break
        seat = next_to_act(public)
        for move in turn_candidates(received[seat].views[-1], rng):
            proposals += 1
            verdict = client.propose(table.id, table.tokens[seat], move)
            if verdict["accepted"]:
                received[seat].verdicts.append(verdict)
                break
            assert verdict["violations"], verdict
        else:
            raise AssertionError(f"seat {seat} found no accepted move: {received[seat].views[-1]}")
        assert proposals < MAX_PROPOSALS
    for thread in watchers:
        thread.join(timeout=30)
        assert not thread.is_alive(), "a Watch stream did not end with the game"
    return Game(table, received, proposals)


# --- the deals, as the spectator saw them ----------------------------------------------------------


@dataclass
class Deal:
    number: int
    dealer: int
    hands: dict[int, set[str]] = field(default_factory=dict)  # as dealt: each seat's first view
    plays: list[tuple[int, int, str]] = field(default_factory=list)  # (version, seat, card)
    tricks: list[tuple[list[tuple[int, str]], int]] = field(default_factory=list)  # plays, winner
    over: dict[str, Any] = field(default_factory=dict)  # the `deal_over` event
    discard: list[str] = field(default_factory=list)  # as the dealer saw it

    def played_by(self, version: int) -> set[str]:
        """The cards played in this deal once the move of `version` was made."""
        return {card for v, _, card in self.plays if v <= version}


def deals_of(game: Game) -> list[Deal]:
    """The deals from the spectator's stream; the hands from each seat's own first view."""
    deals = [Deal(1, game.received[SPECTATOR].views[0]["dealer"])]
    trick: list[tuple[int, str]] = []
    for version, event in game.stream_events(SPECTATOR):
        deal = deals[-1]
        if event["kind"] == "played":
            deal.plays.append((version, event["seat"], event["card"]))
            trick.append((event["seat"], event["card"]))
        elif event["kind"] == "trick_won":
            assert event["cards"] == [card for _, card in trick], (event, trick)
            assert event["team"] == team_of(event["seat"])
            deal.tricks.append((trick, event["seat"]))
            trick = []
        elif event["kind"] == "deal_over":
            deal.over = event
        elif event["kind"] == "hand_dealt":
            deals.append(Deal(event["hand_number"], event["dealer"]))
    for deal in deals:
        for seat in range(4):
            first = next(v for v in game.received[seat].views if v["hand_number"] == deal.number)
            deal.hands[seat] = set(first["hand"])
        dealer_views = [
            v
            for v in game.received[deal.dealer].views
            if v["hand_number"] == deal.number and v["discard"]
        ]
        deal.discard = dealer_views[0]["discard"]
    return deals


def cards_in(value: Any, pack: set[str]) -> set[str]:
    """Every card code anywhere in `value` (a view, an event)."""
    if isinstance(value, str):
        return {value} & pack
    if isinstance(value, dict):
        return set().union(*(cards_in(v, pack) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(cards_in(v, pack) for v in value))
    return set()


# --- the checks --------------------------------------------------------------------------------


def check_deals_dealt(deals: list[Deal]) -> set[str]:
    """TA-2, TA-5: four disjoint hands, 15 each and 17 to the dealer, the whole 62-card pack."""
    pack = set().union(*deals[0].hands.values())
    assert (
        len(pack) == 62 and sum(tarocchi.points(tarocchi.card(c)) for c in pack) == DEAL_POINTS
    )  # TA-2, TA-4
    for deal in deals:
        sizes = {seat: len(hand) for seat, hand in deal.hands.items()}
        assert sizes == {s: 17 if s == deal.dealer else 15 for s in range(4)}, sizes
        assert set().union(*deal.hands.values()) == pack
    return pack


def check_views(game: Game, deals: list[Deal], pack: set[str]) -> None:
    """GEN-3: a seat's `hand` is exactly its own cards left; anything else it is shown is played
    already, or the discard (the dealer's own, or revealed once the deal is over)."""
    for observer, received in game.received.items():
        for view in received.views:
            deal = deals[view["hand_number"] - 1]
            played = deal.played_by(view["version"])
            assert not {"hands", "deck", "salt"} & set(view), (observer, sorted(view))
            rest = {
                k: v for k, v in view.items() if k not in ("hand", "discard", "last_hand", "legal")
            }
            assert cards_in(rest, pack) <= played, (observer, cards_in(rest, pack) - played)
            # its legal moves name its own cards only
            assert cards_in(view.get("legal", {}), pack) <= set(view.get("hand", ())), observer
            check_last_hand(view, deals)
            if observer is SPECTATOR:
                assert "hand" not in view and "discard" not in view
                continue
            assert view["seat"] == observer and view["team"] == team_of(observer)
            check_own_hand(view, deal, observer)


def check_own_hand(view: dict[str, Any], deal: Deal, seat: int) -> None:
    """A seat's hand: what it was dealt less what it played (and, the dealer, its discard)."""
    mine = {card for v, s, card in deal.plays if s == seat and v <= view["version"]}
    discarded = set(view.get("discard", []))
    assert set(view["hand"]) == deal.hands[seat] - mine - discarded, (seat, view["hand"])
    assert len(view["hand"]) == len(set(view["hand"])) == view["hand_sizes"][str(seat)]
    if seat == deal.dealer:  # TA-5: the dealer knows its own discard, from the moment it is made
        assert view["discard"] in ([], deal.discard)
        assert bool(view["discard"]) == (view["phase"] != "discard")
    else:
        assert "discard" not in view, (seat, view["discard"])


def check_last_hand(view: dict[str, Any], deals: list[Deal]) -> None:
    """The finished deal revealed: the deal before this one, or the last one once the game is
    over (a deal that ends deals the next one in the same move)."""
    last = view["last_hand"]
    if not last:
        assert view["hand_number"] == 1 and not view["match_over"]
        return
    finished = view["hand_number"] - (0 if view["match_over"] else 1)
    assert last["hand_number"] == finished, (last["hand_number"], view["hand_number"])
    assert last["discard"] == deals[finished - 1].discard


def check_events(game: Game, deals: list[Deal], pack: set[str]) -> None:
    """GEN-3, TA-6 in every event a seat receives: its Watch stream, and its own verdicts
    (which carry the events of the stream at their versions, no more)."""
    for observer in game.received:
        streamed = list(game.stream_events(observer))
        check_stream(observer, streamed, deals, pack)
        own = [(v["version"], e) for v in game.received[observer].verdicts for e in v["events"]]
        versions = {version for version, _ in own}
        assert own == [(v, e) for v, e in streamed if v in versions], observer
        assert len(versions) == len(game.received[observer].verdicts)


def check_stream(
    observer: Observer, events: list[tuple[int, dict[str, Any]]], deals: list[Deal], pack: set[str]
) -> None:
    number, discards = 1, 0
    for version, event in events:
        deal = deals[number - 1]
        shown = dict(event)
        if event["kind"] == "discarded":
            discards += 1
            check_discarded(observer, event, deal)
            shown.pop("cards", None)
        elif event["kind"] == "deal_over":  # TA-5: the discard revealed to all once over
            assert shown.pop("discard") == deal.discard
        elif event["kind"] == "hand_dealt":
            number = event["hand_number"]
        assert cards_in(shown, pack) <= deal.played_by(version), (observer, event)
    assert discards == len(deals)


def check_discarded(observer: Observer, event: dict[str, Any], deal: Deal) -> None:
    """TA-5, TA-6: the cards to the dealer only; the trump count to everyone, and right."""
    assert event["seat"] == deal.dealer and event["count"] == 2
    assert event["trumps"] == trumps_in(deal.discard), (event, deal.discard)
    if observer == deal.dealer:
        assert event["cards"] == deal.discard
    else:
        assert "cards" not in event, (observer, event)


def check_announcement_in_views(game: Game, deals: list[Deal]) -> None:
    """TA-6: every view shows the count once the discard is made, the same to everyone."""
    for observer, received in game.received.items():
        for view in received.views:
            deal = deals[view["hand_number"] - 1]
            expected = trumps_in(deal.discard)
            if view["phase"] == "discard":
                assert view["announced_trumps"] is None, (observer, view)
            else:
                assert view["announced_trumps"] == expected, (observer, view)


def check_plays_add_up(game: Game, deals: list[Deal], pack: set[str]) -> None:
    """Every observer saw the same 60 plays per deal: 15 from each seat, of its own cards."""
    for observer in game.received:
        seen = [
            (e["seat"], e["card"]) for _, e in game.stream_events(observer) if e["kind"] == "played"
        ]
        assert seen == [(s, c) for d in deals for _, s, c in d.plays], observer
    for deal in deals:
        cards = [card for _, _, card in deal.plays]
        assert len(cards) == len(set(cards)) == 60
        assert set(cards) | set(deal.discard) == pack and not set(cards) & set(deal.discard)
        for seat in range(4):
            mine = {card for _, s, card in deal.plays if s == seat}
            assert len(mine) == 15
            own = deal.hands[seat] - (set(deal.discard) if seat == deal.dealer else set())
            assert mine == own, seat
        assert len(deal.tricks) == 15 and all(len(plays) == 4 for plays, _ in deal.tricks)


def trumps_in(codes: list[str]) -> int:
    return sum(tarocchi.is_trump(tarocchi.card(c)) for c in codes)


def expected_points(deal: Deal) -> list[int]:
    """TA-10, TA-11: the count of the deal's tricks and discard (tests/oracles/tarocchi.py)."""
    tricks = [
        ([(seat, tarocchi.card(c)) for seat, c in plays], winner) for plays, winner in deal.tricks
    ]
    return tarocchi.count(tricks, [tarocchi.card(c) for c in deal.discard], deal.dealer)


def check_count(deal: Deal) -> None:
    """TA-12: the points add to 114, as the tricks taken make them; the higher team wins."""
    over = deal.over
    points = [over["points"][str(t)] for t in range(2)]
    assert sum(points) == DEAL_POINTS and points == expected_points(deal), (points, deal.tricks)
    won = Counter(team_of(winner) for _, winner in deal.tricks)
    assert over["tricks"] == {str(t): won[t] for t in range(2)}
    assert over["winner"] == (None if points[0] == points[1] else points.index(max(points)))


def check_game(game: Game) -> list[Deal]:
    deals = deals_of(game)
    pack = check_deals_dealt(deals)
    check_views(game, deals, pack)
    check_events(game, deals, pack)
    check_announcement_in_views(game, deals)
    check_plays_add_up(game, deals, pack)
    for deal in deals:
        check_count(deal)
    return deals


# --- the tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "dealer"), [(3, 0), (11, 2), (2024, 3)])
def test_bots_play_a_deal_and_no_seat_sees_more_than_it_may(
    client: RefereeClient, seed: int, dealer: int
) -> None:
    game = play_game(client, seed, dealer=dealer)
    deals = check_game(game)
    assert [d.dealer for d in deals] == [dealer]
    final = game.received[SPECTATOR].views[-1]
    assert final["phase"] == "over" and final["to_act"] is None
    assert sum(final["totals"].values()) == 114
    assert final["totals"] == deals[0].over["points"]


def test_two_deals_add_up_to_228(client: RefereeClient) -> None:
    game = play_game(client, 5, deals=2)
    deals = check_game(game)
    assert [(d.number, d.dealer) for d in deals] == [(1, 0), (2, 1)]  # TA-12: the deal passes on
    final = game.received[SPECTATOR].views[-1]
    totals = final["totals"]
    assert sum(totals.values()) == 228
    assert totals == {t: deals[0].over["points"][t] + deals[1].over["points"][t] for t in totals}
    assert deals[1].over["totals"] == totals
    last = [e for _, e in game.stream_events(SPECTATOR)][-1]
    assert last["kind"] == "game_over" and last["totals"] == totals


def test_a_token_plays_its_own_seat_only(client: RefereeClient) -> None:
    """The token decides the seat: seat 1 cannot play before the dealer (seat 0) discards."""
    table = client.create_table(GAME, seats=4, seed=3)
    view = client.view(table.id, table.tokens[1])
    verdict = client.propose(table.id, table.tokens[1], {"type": "play", "card": view["hand"][0]})
    assert not verdict["accepted"]
    assert {"GEN-7", "TA-5"} <= {v["rule"] for v in verdict["violations"]}


# --- the bot alone -----------------------------------------------------------------------------

DEALER_VIEW: dict[str, Any] = {
    "seat": 0,
    "to_act": 0,
    "phase": "discard",
    "trick": [],
    "hand": [
        "2C",
        "TB",
        "7B",
        "KB",
        "AD",
        "2D",
        "6S",
        "JC",
        "T1",
        "KC",
        "TS",
        "T21",
        "T8",
        "QB",
        "8S",
        "T6",
        "AC",
    ],
    "hand_sizes": {"0": 17, "1": 15, "2": 15, "3": 15},
}


def test_the_bot_proposes_every_pair_for_the_discard() -> None:
    moves = list(turn_candidates(DEALER_VIEW, random.Random(1)))
    pairs = {frozenset(m["cards"]) for m in moves}
    assert len(moves) == len(pairs) == 17 * 16 // 2
    assert all(m["type"] == "discard" and len(m["cards"]) == 2 for m in moves)


def test_the_bot_leads_any_card_and_follows_the_suit_first() -> None:
    view = {
        **DEALER_VIEW,
        "phase": "play",
        "hand": DEALER_VIEW["hand"][:15],
        "trick": [{"seat": 3, "card": "5B"}],
    }
    cards = [m["card"] for m in turn_candidates(view, random.Random(2))]
    assert sorted(cards) == sorted(view["hand"])
    batons = [c for c in view["hand"] if tricks_bot.suit(c) == "B"]
    assert set(cards[: len(batons)]) == set(batons) == {"TB", "7B", "KB", "QB"}
    assert [tricks_bot.suit(c) for c in ("T1", "T21", "TS", "MT", "KC")] == [
        "T",
        "T",
        "S",
        "T",
        "C",
    ]


def test_the_bot_is_deterministic_and_waits_its_turn() -> None:
    def first(seed: int) -> list[dict[str, Any]]:
        return list(turn_candidates(DEALER_VIEW, random.Random(seed)))[:5]

    assert first(7) == first(7) and first(7) != first(8)
    assert list(turn_candidates({**DEALER_VIEW, "to_act": 1}, random.Random(7))) == []
    assert list(turn_candidates({**DEALER_VIEW, "seat": None}, random.Random(7))) == []
    assert next_to_act({"to_act": 2}) == 2
    with pytest.raises(ValueError):
        next_to_act({"to_act": None})


# --- the command and the example -------------------------------------------------------------------


def test_referee_play_tarocchi(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    assert main(["play", GAME, "--bots", "4", "--seed", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "deal 1: dealer seat 0" in out and "trick 15:" in out and "trick 16:" not in out
    summary = next(line for line in out.splitlines() if line.startswith("deal 1 over"))
    assert "points team 0" in summary and "the discard was" in summary
    assert "game over after 1 deal(s)" in out


@pytest.mark.slow
def test_referee_play_tarocchi_four_deals_in_process_and_over_grpc_alike(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from referee.cli import main

    command = ["play", GAME, "--bots", "4", "--seed", "3", "--option", "deals_per_game=4"]
    assert main(command) == 0
    here = capsys.readouterr().out.splitlines()
    with capture_logs():  # the server's logs would go to the same stdout
        assert main([*command, "--target", target]) == 0
    there = capsys.readouterr().out.splitlines()
    assert here[1:] == there[1:]  # the first line differs: its commitment (a fresh salt)
    assert [line.split(":")[0] for line in here if line.startswith("deal ") and "over" in line] == [
        f"deal {n} over" for n in range(1, 5)
    ]
    totals = here[-1].split("totals ")[1].split(";")[0]
    assert sum(int(part.split()[-1]) for part in totals.split(",")) == 4 * 114


def test_referee_play_sueca_finishes_a_match_in_process_and_over_grpc_alike(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same bot plays Sueca from its spec alone: the turned card told at each deal, each
    deal's 120 card points and game points, the match over at the first team with 4."""
    from referee.cli import main

    command = ["play", "sueca", "--bots", "4", "--seed", "1", "--quiet"]
    assert main(command) == 0
    here = capsys.readouterr().out.splitlines()
    with capture_logs():
        assert main([*command, "--target", target]) == 0
    there = capsys.readouterr().out.splitlines()
    assert here[1:] == there[1:]
    dealt = [line for line in here if line.startswith("deal ") and "turned" in line]
    over = [line for line in here if line.startswith("deal ") and " over: " in line]
    assert len(dealt) == len(over) >= 2 and "dealer seat 0, " in dealt[0]
    assert all(f"dealer seat {n % 4}," in line for n, line in enumerate(dealt))  # SU-3
    for line in over:
        counted = line.split("; points ")[1].split(";")[0]
        assert sum(int(part.split()[-1]) for part in counted.split(",")) == 120
        assert "game points team 0 " in line and "the discard was" not in line
    final = here[-1].split("game points ")[1].split(";")[0]
    scores = [int(part.split()[-1]) for part in final.split(",")]
    assert max(scores) >= 4 and here[-1].startswith(f"game over after {len(over)} deal(s)")


def test_the_example_plays_a_game_over_grpc(client: RefereeClient) -> None:
    path = Path(__file__).resolve().parents[3] / "clients/python/examples/bots_play_tarocchi.py"
    spec = importlib.util.spec_from_file_location("bots_play_tarocchi", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    final = module.play(client, seed=3, show=False, deals=2)
    assert final["match_over"] and sum(final["totals"].values()) == 228

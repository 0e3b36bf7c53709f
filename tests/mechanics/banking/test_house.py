"""The banking keys a game with a house needs, shown on specs/blackjack.yaml (and refused when
written wrong): a house seat whose every move the table plays (`house:`), bets before any card
(`banking.bet_after_round: 0`), cards dealt as `banking.visibility` says, a shoe of several packs
reshuffled at a cut card (`banking.packs`, `dealt`, `shoe_size`), chips every seat starts with
and players leaving the table when out of them (`banking.buy_in`, `banking.leaves`)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.engine.table import Table, TableSetup
from referee.errors import SpecErrors
from referee.model import ADJUDICATOR, Move, Outcome, Verdict
from referee.plugins.games import DEFAULT_SPECS, load_game

SPEC = Path(DEFAULT_SPECS) / "blackjack.yaml"
GAME = load_game(SPEC)
HOLE = 1  # the dealer's second card, face down


def table(seats: int = 3, seed: int = 1, **options: Any) -> Table:
    return Table.create(GAME, TableSetup(game="blackjack", seats=seats, seed=seed, options=options))


def propose(t: Table, seat: int, move: dict[str, Any]) -> Verdict:
    return t.propose(seat, Move.from_data(move))


def bets_in(t: Table, amount: int = 10) -> list[Any]:
    """Every player of the hand bets; the events of the last bet (the deal)."""
    events: list[Any] = []
    number = t.view(ADJUDICATOR)["hand_number"]
    while t.view(ADJUDICATOR)["phase"] == "bet" and t.view(ADJUDICATOR)["hand_number"] == number:
        verdict = propose(t, t.view(ADJUDICATOR)["to_act"], {"type": "bet", "amount": amount})
        assert verdict.outcome is Outcome.ACCEPTED, verdict.violations
        events = list(verdict.events)
    return events


def play_hand(t: Table, rng: random.Random) -> list[Any]:
    """One hand by random players (hit or stand); the events of its moves."""
    number = t.view(ADJUDICATOR)["hand_number"]
    events = bets_in(t)
    while t.view(ADJUDICATOR)["hand_number"] == number and not t.is_over:
        seat = t.view(ADJUDICATOR)["to_act"]
        verdict = propose(t, seat, {"type": rng.choice(["hit", "stand"])})
        assert verdict.outcome is Outcome.ACCEPTED, verdict.violations
        events += verdict.events
    return events


def in_play(seed: int) -> Table | None:
    """A table whose hand is dealt and waits for a player (no dealer blackjack, no blackjack of
    the first player)."""
    t = table(seed=seed)
    bets_in(t)
    return t if t.view(ADJUDICATOR)["phase"] == "play" else None


def test_nobody_sees_a_card_before_the_bets_and_every_seat_sees_the_players_and_the_up_card() -> (
    None
):
    t = next(found for seed in range(20) if (found := in_play(seed)) is not None)
    full = t.view(ADJUDICATOR)
    dealer = full["hands"]["0"][0]["cards"]
    for viewer in [0, 1, 2, None]:
        seen = t.view(viewer)["hands"]
        assert seen["1"][0]["cards"] == full["hands"]["1"][0]["cards"]  # public
        assert seen["2"][0]["cards"] == full["hands"]["2"][0]["cards"]
        assert seen["0"][0]["cards"] == [
            dealer[0],
            "??",
        ]  # the hole card: nobody, the house neither
        known = t.game.mechanic.knowable(t.state, viewer)
        assert dealer[0] in known
        if dealer[HOLE] not in full["hands"]["1"][0]["cards"] + full["hands"]["2"][0]["cards"]:
            assert dealer[HOLE] not in known  # knowable agrees with the view


def test_the_hole_card_is_dealt_to_no_audience_and_shown_at_the_dealers_turn() -> None:
    t = table(seats=2, seed=5)
    deal = propose(t, 1, {"type": "bet", "amount": 10}).events
    cards = [e for e in deal if e.kind == "card"]
    assert [e.data["seat"] for e in cards] == [1, 0, 1, 0]
    assert all("card" in e.data for e in cards[:3])  # face up: the card in the public data
    assert "card" not in cards[3].data and not cards[3].audience  # the hole card: nobody's
    while not t.view(ADJUDICATOR)["last_hand"]:
        propose(t, 1, {"type": "stand"})
    shown = t.view(None)["last_hand"]["hands"]["0"][0]
    assert len(shown) >= 2 and "??" not in shown


def test_the_house_plays_its_moves_itself_and_a_replay_plays_them_alike() -> None:
    t = table(seats=4, seed=9)
    rng = random.Random(9)
    events: list[Any] = []
    for _ in range(6):
        events += play_hand(t, rng)
    played = [e.data["move"] for e in events if e.kind == "house_played"]
    assert "next_hand" in played and "stand" in played
    assert all(seat != 0 for seat, _ in t.history)  # the log holds the players' moves alone
    again = Table.replay(GAME, t.setup, t.history)
    assert again.view(ADJUDICATOR) == t.view(ADJUDICATOR)


def test_the_shoe_holds_decks_packs_and_is_shuffled_at_the_cut_card_only() -> None:
    t = table(seats=3, seed=2, decks=1)
    shoe, cut = 52, 39  # three quarters
    assert t.state.shoe == shoe and len(t.state.pack) == shoe
    rng, shuffles, hands = random.Random(2), 0, 0
    while shuffles < 2:
        dealt_before = t.state.dealt
        events = play_hand(t, rng)
        hands += 1
        kinds = [e.kind for e in events]
        reshuffled = "deck_revealed" in kinds
        end = kinds.index("deck_revealed") if reshuffled else len(kinds)
        dealt = dealt_before + kinds[:end].count("card")  # the hand's cards, the hole card too
        assert reshuffled == (dealt >= cut), (dealt, reshuffled)
        assert t.state.dealt == (0 if reshuffled else dealt)
        shuffles += reshuffled
        assert len(t.state.pack) == shoe  # the cards used went under it
    assert hands > shuffles  # not every hand


def test_players_start_with_their_chips_and_leave_when_out_of_them() -> None:
    setup = TableSetup(
        game="blackjack",
        seats=3,
        options={"starting_chips": 30, "min_bet": 10},
        balances={2: 40},  # the table's creation gives seat 2 its own
        deal={"deck": ["TC", "9D", "9H", "6C", "9S", "8S", "KC"]},
    )
    t = Table.create(GAME, setup)
    assert t.view(None)["balances"] == {"0": 30, "1": 30, "2": 40}
    assert propose(t, 1, {"type": "bet", "amount": 31}).violations[0].rule == "BJ-2-chips"
    propose(t, 1, {"type": "bet", "amount": 25})
    propose(t, 2, {"type": "bet", "amount": 40})
    verdict = propose(t, 1, {"type": "hit"})  # 1: TC 6C KC, bust: 5 chips left
    assert verdict.outcome is Outcome.ACCEPTED
    verdict = propose(t, 2, {"type": "stand"})  # 2: 9D 9S, 18 against 17: 80
    kinds = [e.kind for e in verdict.events]
    assert kinds.count("leaves_table") == 1
    after = t.view(None)
    assert after["out"] == [1] and after["balances"] == {"0": 15, "1": 5, "2": 80}
    assert after["to_act"] == 2 and not t.is_over  # the next hand, without seat 1
    propose(t, 2, {"type": "sit_out"})  # nobody plays: the next hand again
    assert t.view(None)["hand_number"] == 3 and not t.is_over


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("bet_after_round: 0 ", "bet_after_round: 2 ", "`banking.bet_after_round` is 1"),
        ("banker: [public, hidden]", "banker: [public, secret]", "who sees the card"),
        ("players: public,", "players: shown,", "who sees the card"),
        ("    - move: next_hand\n", "    - move: deal_again\n", "`deal_again` is no move"),
    ],
)
def test_the_keys_written_wrong_are_spec_errors(
    tmp_path: Path, old: str, new: str, said: str
) -> None:
    text = SPEC.read_text()
    assert old in text
    path = tmp_path / "blackjack.yaml"
    path.write_text(text.replace(old, new))
    with pytest.raises(SpecErrors) as raised:
        load_game(path, DEFAULT_SPECS)
    assert said in str(raised.value)

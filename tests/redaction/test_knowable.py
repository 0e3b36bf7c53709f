"""The cards a seat may know are its mechanic's answer from the state (`Mechanic.knowable`), and
they are the cards its view shows (issue 28: redact by what a seat may see, not by rendering its
view).

The oracle is the old reading (`seen_in_views.py`): every card code in the seat's whole rendered
view, the finished hand's record aside. On random tables of every shipped game (seats, dealer,
options and seed drawn by hypothesis), at every state the game's bot reaches (the bot
`make bench` and the transcripts play), for every seat and a spectator, the mechanic's answer
equals it; the adjudicator knows at least what its view shows. One whole bot game of each game
reaches every phase (rummy's re-entry decisions and match end among them).

What the view-read cut got wrong: a label a client writes into the table (a seat's name, a
disputed move id), shown in every view, counted the cards it quotes as seen, so a rejection
could name them. The attack test shows it, with the old reading as its control.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import redaction
from referee.engine.game import Game
from referee.engine.table import Table, TableSetup
from referee.errors import OptionError, SetupError
from referee.model import ADJUDICATOR, Move, Outcome, Verdict, Violation
from referee.plugins import installed
from referee.redaction import HIDDEN, verdict_for
from tests.redaction.seen_in_views import seen_in_view
from tests.support.games import shipped_games
from tests.support.random_games import setups

GAMES = shipped_games()
EXAMPLES = 5  # random tables a game
STEPS = 40  # accepted moves a random table
# the phases a whole bot game of each mechanic goes through
PHASES = {
    "rummy": {"take", "play", "decide", "over"},
    "banking": {"bet", "play", "banker", "between"},
    "tricks": {"discard", "play", "over"},
}


# a phase only a game that declares its move goes through (a deal without the dealer's discard, a
# rummy without re-entries)
MOVE_PHASES = {"discard": "discard", "decide": "reenter"}


def unreached(game: Game) -> set[str]:
    return {phase for phase, move in MOVE_PHASES.items() if move not in game.spec.moves}


# the phases a house (`house:`) plays through at once, never waited in: the dealer's turn, the
# next deal
HOUSE_PHASES = {"banker", "between"}


def bot_states(game: Game, setup: TableSetup, rng: random.Random, steps: int) -> Iterator[Table]:
    """The table at the deal and after each move its bot makes (`referee.bench.recorded_game`'s
    bot), for `steps` moves or to the end; nothing for a setup its options refuse."""
    bot = installed.by_name()[game.spec.mechanics].transcript
    assert bot is not None
    try:
        table = Table.create(game, setup)
    except (SetupError, OptionError):  # option values that do not go together (min over max)
        return
    candidates = bot.candidates(game.resolve_options(setup.options))
    yield table
    for _ in range(steps):
        if table.is_over:
            return
        seat = bot.next_seat(table.view(ADJUDICATOR))
        if not any(
            table.propose(seat, Move.from_data(dict(data))).outcome is not Outcome.REJECTED
            for data in candidates(table.view(seat, legal=bot.legal), rng)
        ):
            return  # the bot has no move here
        yield table


def check_knowable(table: Table) -> None:
    """Every seat and a spectator know exactly the cards their views show; the adjudicator at
    least those."""
    mechanic, state = table.game.mechanic, table.state
    for seat in [*range(table.setup.seats), None]:
        known, shown = mechanic.knowable(state, seat), seen_in_view(table, seat)
        assert known == shown, (seat, state.phase, sorted(known - shown), sorted(shown - known))
    assert mechanic.knowable(state, ADJUDICATOR) >= seen_in_view(table, ADJUDICATOR)


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_seat_knows_the_cards_its_view_shows(name: str, data: st.DataObject) -> None:
    game = GAMES[name]
    setup = data.draw(setups(game), label="setup")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="bot seed"))
    for table in bot_states(game, setup, rng, STEPS):
        check_knowable(table)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_whole_bot_game_agrees_in_every_phase(name: str) -> None:
    game = GAMES[name]
    plugin = installed.by_name()[game.spec.mechanics]
    assert plugin.bench_setup is not None
    phases = set()
    for table in bot_states(game, plugin.bench_setup(game, 1), random.Random(1), 3000):
        check_knowable(table)
        phases.add(table.state.phase)
        if plugin.bench_hands and table.state.hand_number > plugin.bench_hands:
            break
    assert phases >= PHASES[game.spec.mechanics] - unreached(game) - (
        HOUSE_PHASES if game.house_moves else set()
    )


# --- a label quoting cards ----------------------------------------------------------------------


def pontoon_table(names: dict[int, str] | None = None) -> Table:
    """Three seats, the banker (seat 0) with its first card face down, hidden from the others."""
    setup = TableSetup(
        game="pontoon", seats=3, seed=5, balances={0: 100, 1: 100, 2: 100}, names=names
    )
    return Table.create(GAMES["pontoon"], setup)


def labelled(how: str, card: str) -> Table:
    """A table whose every view quotes `card`: in a seat's name, or in an open dispute's move id."""
    if how == "name":
        return pontoon_table({2: f"has {card}"})
    table = pontoon_table()
    dispute = Move("dispute", {"proposal": f"move {card}", "reason": "look"})
    assert table.propose(2, dispute).accepted
    return table


@pytest.mark.parametrize("old_cut", [False, True], ids=["knowable", "control: view-read"])
@pytest.mark.parametrize("how", ["name", "dispute"])
def test_a_label_quoting_a_hidden_card_does_not_show_it(
    how: str, old_cut: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    banker_first = str(pontoon_table().state.hands[0][0].cards[0])
    table = labelled(how, banker_first)
    assert str(table.state.hands[0][0].cards[0]) == banker_first  # the same deal
    assert banker_first in str(table.view(1))  # every view quotes it
    if old_cut:
        monkeypatch.setattr(redaction, "knowable", seen_in_view)
    rejection = Verdict.reject(
        Violation("PO-3", f"not with `{banker_first}`", cards=(banker_first,))
    )
    (violation,) = verdict_for(table, 1, Move("stick"), rejection).violations
    if old_cut:  # the control: the card the label quotes passes as seen
        assert violation.cards == (banker_first,)
    else:
        assert violation.cards == () and violation.message == f"not with `{HIDDEN}`"


def test_the_cut_is_kept_once_a_state() -> None:
    """A seat's rejections in a row are cut to cards worked out once; a move makes them anew."""
    table = pontoon_table()
    first = redaction.knowable(table, 1)
    assert redaction.knowable(table, 1) is first
    assert table.propose(1, Move("bet", {"amount": 5})).accepted
    assert redaction.knowable(table, 1) is not first
    assert redaction.knowable(table, 1) == seen_in_view(table, 1)

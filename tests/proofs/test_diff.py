"""`referee diff` (issue 3, item 6): z3 finds where two rule sets differ, or proves they agree
within the bound; a meld difference comes with a scenario that really plays out that way on both
sides; an exhausted budget is `unknown`, never `equivalent`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from referee.cli import main
from referee.engine.game import Game
from referee.plugins.games import DEFAULT_SPECS, load_game
from referee.proofs.diff import Comparison, Pair, Side, compare, parse_side, unexamined
from referee.proofs.diff_scenario import Witness
from referee.scenario.format import MoveStep, load_data, load_file, load_text
from referee.scenario.runner import run_scenario
from referee.scenario.target import InProcessTarget
from tests.support import examples
from tests.support.games import shipped_games

# long runs; one worker runs the whole module: its proofs (a module fixture) are found once, not
# once a worker
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("proofs-diff")]

NEXT_RANK = "pontinho:joker_rule=next_rank_same_suit"
BOUND = 4  # small: the whole file runs in seconds
MELD_KINDS = {"trio", "sequence"}

# A variant in the spirit of Taradinho (TD-1): anyone may take the top discard, a joker may sit
# in a trio at any time, and a move it leaves out (`decline`: a blown seat always comes back in).
# (The real Taradinho spec comes later.)
# Made by editing a copy of pontinho.yaml rather than with `extends`, whose rule texts are read at
# the child file's positions (see the report to the lead).
SKETCH_EDITS = [
    (r"(?m)^game: pontinho$", "game: sketch"),
    (r"(?m)^  decline:\n(?:    .*\n)*", ""),
    (r"on: \[reenter, decline\]", "on: [reenter]"),
    (r"(?m)^    - move: decline\n", ""),  # nor does its play clock decline for a seat
    (r"(- id: PN-19\n(?:    .*\n)*?    require: )in_turn", r'\1"true"'),  # TD-1
    (
        r"require: 'all\(i in indices\(cards\): trio_natural_at\(i\)\)'",
        'require: "true"',
    ),  # PN-8 relaxed
]


def _sketch_text() -> str:
    text = (DEFAULT_SPECS / "pontinho.yaml").read_text(encoding="utf-8")
    for pattern, replacement in SKETCH_EDITS:
        text, count = re.subn(pattern, replacement, text, count=1)
        assert count == 1, pattern
    return text


def _pair(games: dict[str, Game], a: str, b: str, **kwargs: Any) -> Pair:
    return Pair((parse_side(a, games), parse_side(b, games)), **{"max_cards": BOUND, **kwargs})


def _by_label(results: list[Comparison]) -> dict[str, Comparison]:
    return {c.label: c for c in results}


@pytest.fixture(scope="module")
def games(pontinho: Game, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Game]:
    path = tmp_path_factory.mktemp("specs") / "sketch.yaml"
    path.write_text(_sketch_text(), encoding="utf-8")
    return {"pontinho": pontinho, "sketch": load_game(path)}


@pytest.fixture(scope="module")
def joker_rules(games: dict[str, Game]) -> dict[str, Comparison]:
    return _by_label(list(compare(_pair(games, "pontinho", NEXT_RANK))))


@pytest.fixture(scope="module")
def sketch(games: dict[str, Game]) -> dict[str, Comparison]:
    return _by_label(list(compare(_pair(games, "pontinho", "sketch"))))


# --- a spec against itself ----------------------------------------------------------------


def test_a_spec_against_itself_is_equivalent_at_every_checkpoint(games: dict[str, Game]) -> None:
    results = list(compare(_pair(games, "pontinho", "pontinho")))
    labels = {c.label for c in results}
    assert {"draw", "take_discard", "meld", "layoff", "discard", "go_out", "take"} <= labels
    assert MELD_KINDS | {"go_out (after its effects)"} <= labels
    for comparison in results:
        assert comparison.status == "equivalent", comparison
        for finding in comparison.findings:
            assert finding.status == "agree" and finding.sizes == len(comparison.sizes)
    assert _by_label(results)["trio"].sizes == tuple(range(BOUND + 1))


# --- two option sets known to differ ------------------------------------------------------


def test_the_joker_rules_differ_at_the_melds_and_the_take_only(
    joker_rules: dict[str, Comparison],
) -> None:
    # which cards are jokers decides the melds, and PN-11 (a discarded joker taken is laid as
    # itself), judged where a move took the discard
    differing = {label for label, c in joker_rules.items() if c.status != "equivalent"}
    assert differing == MELD_KINDS | {"take"}
    for kind in MELD_KINDS:
        assert [f.status for f in joker_rules[kind].findings] == ["differs", "differs"]


@pytest.mark.parametrize("kind", sorted(MELD_KINDS))
@pytest.mark.parametrize("accepts", [0, 1])
def test_a_meld_difference_is_a_scenario_that_plays_out_on_both_sides(
    games: dict[str, Game], joker_rules: dict[str, Comparison], kind: str, accepts: int
) -> None:
    finding = joker_rules[kind].findings[accepts]
    witness = finding.scenario
    assert isinstance(witness, Witness) and witness.confirmed, finding.no_scenario
    sides = [parse_side(text, games) for text in ("pontinho", NEXT_RANK)]
    _assert_replays(games, witness, sides[accepts], sides[1 - accepts], kind)


def _assert_replays(
    games: dict[str, Game], witness: Witness, yes: Side, no: Side, kind: str
) -> None:
    """The accepting side's scenario passes; its steps on the other side reject the meld."""
    target = InProcessTarget(games)
    scenario = load_text(witness.text, witness.name)
    assert (scenario.setup.game, dict(scenario.setup.options)) == (yes.game.name, dict(yes.given))
    steps = [s for s in scenario.steps if isinstance(s, MoveStep)]
    assert len(steps) == len(scenario.steps), "a witness is moves only"
    assert [(s.seat, s.move.type) for s in steps][:1] == [(1, "draw")]
    assert steps[-1].move.type in ("meld", "go_out")
    report = run_scenario(scenario, target)
    assert report.passed, [str(f) for f in report.failures]
    # the same deal and steps at the other side's table: the meld is rejected
    data = yaml.safe_load(witness.text)
    data["game"], data["options"] = no.game.name, dict(no.given)
    data["steps"][-1]["expect"] = "reject"
    report = run_scenario(load_data(data, "other side"), target)
    assert report.passed, [str(f) for f in report.failures]
    assert witness.text.startswith("# referee diff") and f"at `{kind}`" in witness.text


def test_a_difference_names_what_the_rejecting_side_breaks(
    joker_rules: dict[str, Comparison],
) -> None:
    for kind in MELD_KINDS:
        for finding in joker_rules[kind].findings:
            assert finding.broken and finding.size is not None and finding.size <= BOUND
            assert len(finding.situation["cards"]) == finding.size
            assert {"cards", "turned"} <= set(finding.situation)


# --- move checkpoints: the situation, honestly without a scenario --------------------------


def test_a_move_difference_shows_a_consistent_situation(games: dict[str, Game]) -> None:
    results = _by_label(
        list(compare(_pair(games, "pontinho", "pontinho:go_out_discard=forbidden")))
    )
    # forbidding the final discard also keeps two cards after a meld or a lay-off (PN-22)
    keep_two = {
        f"{move} (after its effects)" for move in ("take_discard", "meld", "layoff", "swap_joker")
    }
    assert {label for label, c in results.items() if c.status == "differs"} == {
        "discard",
        "go_out",
        *keep_two,
    }
    finding = results["discard"].findings[0]  # A accepts a discard that goes out; B forbids it
    assert finding.broken == ["PN-23-discard-forbidden"]
    assert results["discard"].findings[1].status == "agree"
    seen = finding.situation
    # the rummy facts: a discard goes out exactly when it is the last card held
    assert seen["going_out"] is True and seen["hand"] == [seen["move.card"]]
    assert finding.scenario is None


# --- two different games ------------------------------------------------------------------


def test_two_games_differ_where_their_rules_do(sketch: dict[str, Comparison]) -> None:
    assert sketch["decline"].status == "differs" and sketch["decline"].only == 0
    take = sketch["take_discard"]
    assert [f.status for f in take.findings] == ["agree", "differs"]
    assert take.findings[1].broken == ["PN-19"] and take.findings[1].situation["in_turn"] is False
    trio = sketch["trio"]
    assert [f.status for f in trio.findings] == ["agree", "differs"]
    assert "PN-8" in trio.findings[1].broken
    others = {label for label, c in sketch.items() if c.status != "equivalent"}
    assert others == {"decline", "take_discard", "trio"}


def test_a_scenario_between_two_games_plays_out(
    games: dict[str, Game], sketch: dict[str, Comparison]
) -> None:
    witness = sketch["trio"].findings[1].scenario
    assert witness is not None and witness.confirmed and not witness.going_out
    _assert_replays(
        games, witness, parse_side("sketch", games), parse_side("pontinho", games), "trio"
    )


def test_taradinho_takes_the_discard_out_of_turn_where_pontinho_does_not() -> None:
    games = shipped_games()  # the module's `games` fixture is pontinho and a sketch
    results = _by_label(list(compare(_pair(games, "pontinho", "taradinho", max_cards=2))))
    take = results["take_discard"].findings[1]  # TD-1: Taradinho accepts, Pontinho rejects
    assert take.status == "differs" and "PN-19" in take.broken
    assert take.situation["in_turn"] is False
    assert all(c.status != "unknown" for c in results.values())


# --- unknown is never equivalent ----------------------------------------------------------


def test_an_exhausted_budget_is_unknown_never_equivalent(games: dict[str, Game]) -> None:
    for comparison in compare(_pair(games, "pontinho", NEXT_RANK, rlimit=1)):
        for finding in comparison.findings:
            assert finding.status != "differs"
            if finding.status == "unknown":
                assert "gave up" in finding.reason
        if comparison.check is not None and comparison.check.role == "meld":
            assert comparison.status == "unknown"


# --- the command --------------------------------------------------------------------------


def test_command_proves_a_spec_equivalent_to_itself(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "pontinho", "pontinho", "--max-cards", "2"]) == 0
    out = capsys.readouterr().out
    assert (
        "0 differ, 0 unknown" in out and "proved equivalent for every `cards` of 0..2 cards" in out
    )


def test_command_writes_runnable_scenarios(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], games: dict[str, Game]
) -> None:
    code = main(
        [
            "diff",
            "pontinho",
            NEXT_RANK,
            "--only",
            "sequence",
            "--max-cards",
            "3",
            "--out",
            str(tmp_path),
        ]
    )
    out = capsys.readouterr().out
    assert code == 1, out
    assert "1 checkpoints: 0 equivalent, 1 differ" in out and out.count("\n---\n") == 2
    files = sorted(tmp_path.glob("*.yaml"))
    assert len(files) == 4  # each direction: the scenario, and the other side's rejection
    for path in files:
        report = run_scenario(load_file(path), InProcessTarget(games))
        assert report.passed, [str(f) for f in report.failures]


def test_command_says_unknown_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "pontinho", "pontinho", "--only", "trio", "--rlimit", "1"]) == 2
    assert "unknown: the solver gave up" in capsys.readouterr().out


@pytest.mark.parametrize(
    "side, message",
    [
        (
            "pontinho:joker_rule",
            "referee diff: side `pontinho:joker_rule`: `joker_rule` is not `option=value`",
        ),
        ("pontinho:jokers=all", "referee diff: unknown option `jokers`"),
        (
            "pontinho:ace_one_at_98=maybe",
            "referee diff: option `ace_one_at_98`: `maybe` is not allowed",
        ),
        ("pontinha", "referee diff: unknown game `pontinha`"),
    ],
)
def test_command_rejects_a_side_it_cannot_read(
    capsys: pytest.CaptureFixture[str], side: str, message: str
) -> None:
    assert main(["diff", "pontinho", side]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_options_no_rule_reads_are_listed_as_not_compared(games: dict[str, Game]) -> None:
    pair = _pair(games, "pontinho", "pontinho:claims=window,deal_packets=threes", max_cards=2)
    results = list(compare(pair))
    assert all(c.status == "equivalent" for c in results)  # no rule reads either option ...
    notes = unexamined(pair, results)  # ... so the report names them rather than hiding them
    assert sorted(notes) == [
        "option `claims`: `first_valid` / `window`",
        "option `deal_packets`: `singles` / `threes`",
    ]
    assert unexamined(_pair(games, "pontinho", NEXT_RANK, max_cards=2), results) == []


def test_a_side_reads_typed_options(games: dict[str, Game]) -> None:
    side = parse_side("pontinho:ace_one_at_98=false,go_out_discard=required", games)
    assert dict(side.given) == {"ace_one_at_98": False, "go_out_discard": "required"}
    assert side.options["joker_rule"] == "same_rank_other_colour"


# --- a rummy without the optional parts (the test-only gin) ----------------------------------

GIN = examples.GIN


def test_a_rummy_without_match_claims_or_turned_card_is_compared(tmp_path: Path) -> None:
    text = GIN.read_text(encoding="utf-8").replace("game: gin", "game: strict", 1)
    stricter = tmp_path / "strict.yaml"
    stricter.write_text(text.replace("size(cards) >= 3", "size(cards) >= 4", 1), encoding="utf-8")
    games = {"gin": load_game(GIN), "strict": load_game(stricter)}
    results = _by_label(list(compare(_pair(games, "gin", "strict"))))
    assert {label for label, c in results.items() if c.status == "differs"} == {"set", "run"}
    finding = results["set"].findings[0]
    assert finding.broken == ["GN-3-size"] and len(finding.situation["cards"]) == 3
    assert not {"turned", "blows", "window_open"} & set(finding.situation)
    # the scenario builder deals a turned card: without one, the situation is the answer
    assert finding.scenario is None and "turns none" in finding.no_scenario

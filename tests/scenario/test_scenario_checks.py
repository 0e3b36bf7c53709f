"""`check` keys against a view: mismatches say what was expected and what was there."""

from __future__ import annotations

from referee.scenario.checks import canonical_card, compare, show

VIEW = {
    "to_act": 2,
    "hand_over": False,
    "discard_top": "TH",
    "stock_size": 40,
    "hands": {"0": ["4C", "5C", "TH"], "1": ["AS"]},
    "hand_sizes": {"0": 3, "1": 1},
    "melds": [{"id": 1, "cards": ["4C", "5C", "6C"], "kind": "sequence", "owner": 1}],
    "scores": {"0": 10, "1": 0},
    "blown": [2, 1],
}


def test_a_matching_check_has_no_mismatch() -> None:
    assert (
        compare(
            {
                "to_act": 2,
                "hand": {0: ["th", "5C", "4C"]},
                "hand_size": {1: 1},
                "discard_top": "10h",
                "melds": [["4C", "5C", "6C"]],
                "scores": {0: 10},
                "blown": [1, 2, 2],
                "hand_over": False,
                "stock_size": 40,
            },
            VIEW,
        )
        == []
    )


def test_mismatches_show_expected_and_actual() -> None:
    problems = compare(
        {
            "to_act": 1,
            "hand_size": {0: 4, 1: 1},
            "melds": [["4C", "5C"]],
            "blown": [],
            "scores": {1: 3},
        },
        VIEW,
    )
    assert problems == [
        "`to_act` expected 1, got 2",
        "`hand_size` of seat 0: expected 4, got 3",
        "`melds` expected [[4C, 5C]], got [[4C, 5C, 6C]]",
        "`blown` expected [], got [1, 2]",
        "`scores` of seat 1: expected 3, got 0",
    ]


def test_a_hand_mismatch_names_missing_and_extra_cards() -> None:
    [problem] = compare({"hand": {0: ["4C", "5C", "KD"]}}, VIEW)
    assert problem == (
        "`hand` of seat 0: expected [4C, 5C, KD], got [4C, 5C, TH] (missing [KD]; extra [TH])"
    )


def test_a_field_the_view_lacks_is_reported() -> None:
    assert compare({"pot": 10}, VIEW) == ["`pot` the view does not have it"]
    assert compare({"balances": {0: 1}}, VIEW) == ["`balances` the view has no `balances`"]
    assert compare({"hand_size": {2: 9}}, VIEW) == [
        "`hand_size` of seat 2: the view does not have it"
    ]


def test_values_show_as_a_scenario_writes_them() -> None:
    assert show({0: [True, None]}) == "{0: [true, null]}"
    assert canonical_card(" 10s ") == "TS" and canonical_card(7) == 7


def banking_hand(*cards: str) -> dict[str, object]:
    return {"cards": list(cards), "stake": 10, "paid": [], "done": False}


BANKING_VIEW = {  # a banking view has no `hand_sizes`: a seat holds a list of hands
    "to_act": 1,
    "banker": 0,
    "hands": {
        "0": [banking_hand("??", "9C")],
        "1": [banking_hand("8H", "3S"), banking_hand("8D", "4D", "7S")],
    },
}


def test_a_banking_seat_counts_its_cards_across_its_hands() -> None:
    assert (
        compare(
            {"hand_size": {0: 2, 1: 5}, "hand": {1: ["8D", "8H", "3S", "4D", "7S"]}}, BANKING_VIEW
        )
        == []
    )
    assert compare({"hand_size": {1: 2, 3: 1}}, BANKING_VIEW) == [
        "`hand_size` of seat 1: expected 2, got 5",
        "`hand_size` of seat 3: the view does not have it",
    ]


def test_a_card_not_seen_stands_for_any_one_listed_card() -> None:
    assert compare({"hand": {0: ["5S", "9C"]}}, BANKING_VIEW) == []
    assert compare({"hand": {0: ["5S", "9D"]}}, BANKING_VIEW) == [
        "`hand` of seat 0: expected [5S, 9D], got [9C, ??] (extra [9C]; 1 not seen)"
    ]
    assert compare({"hand": {0: ["5S", "6S", "9C"]}}, BANKING_VIEW) == [
        "`hand` of seat 0: expected [5S, 6S, 9C], got [9C, ??] (1 not seen)"
    ]

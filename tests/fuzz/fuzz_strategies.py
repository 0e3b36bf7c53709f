"""Hypothesis strategies for hostile requests to every RPC of the referee.

Each request is mostly well formed, so that it reaches the rules and not only the first check:
the games, options, move types and move fields come from the shipped specs (`DescribeGame`), the
cards from the packs. Mixed in everywhere: junk names, NaN and infinities, numbers past 2^53, at
the 64-bit edges and past them by hundreds of digits (in YAML and JSON; a Struct's double carries
them as infinities), nested structs and lists in place of a scalar, wrong types, control
characters, digit keys, and stacked deals naming a seat twice (`01` and `1`).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import yaml
from hypothesis import strategies as st

from referee.api.v1 import referee_pb2 as pb
from referee.cards import FRENCH_RANKS, FRENCH_SUITS, MATTO, TAROT_RANKS, TAROT_SUITS
from referee.server.convert import data_to_struct

INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)
BIG = 2**53
INT64_EDGES = [2**63 - 1, 2**63, -(2**63), -(2**63) - 1]

CARDS = sorted(
    {r + s for r in FRENCH_RANKS for s in FRENCH_SUITS}
    | {r + s for r in TAROT_RANKS for s in TAROT_SUITS}
    | {f"T{n}" for n in range(1, 22)}
    | {MATTO}
)
JUNK_CARDS = ["", "10H", "qh", "ZZ", "T0", "T22", "AH ", "??", "A", "🂡", "\x00H", "AHAH"]

# text any protobuf string can carry (no lone surrogates), control characters included
text = st.text(st.characters(exclude_categories=["Cs"]), max_size=24)
names = st.one_of(
    st.sampled_from(
        ["type", "1", "0", "-1", "", "seat", "card", "cards", "__class__", "hands", "x" * 200]
    ),
    text,
)

card = st.one_of(st.sampled_from(CARDS), st.sampled_from(JUNK_CARDS), text)
cards = st.lists(card, max_size=12)


def huge_integers() -> st.SearchStrategy[int]:
    """The edges of the 64-bit range, and integers of hundreds of digits."""
    hundreds = st.integers(10**100, 10**600)
    return st.one_of(st.sampled_from(INT64_EDGES), hundreds, hundreds.map(lambda n: -n))


def numbers() -> st.SearchStrategy[float]:
    """Small amounts, edges of the 53- and 64-bit ranges, beyond, NaN, ±Inf: what a Struct
    number can be, and the integers of any size YAML and JSON carry (`struct_of`)."""
    return st.one_of(
        huge_integers(),
        st.integers(-3, 120),
        st.sampled_from(
            [
                BIG - 1,
                BIG,
                BIG + 2,
                -BIG,
                10**9,
                10**9 + 1,
                2**63,
                2**64,
                1.7e308,
                -1.7e308,
                5e-324,
                0.5,
                -0.0,
                2.5,
                math.nan,
                math.inf,
                -math.inf,
            ]
        ),
        st.floats(allow_nan=True, allow_infinity=True),
    )


scalars = st.one_of(st.none(), st.booleans(), numbers(), text, card)


def struct_of(data: Mapping[str, Any]) -> Any:
    """`data` as a Struct carries it: an integer beyond a double's range becomes infinite."""
    return data_to_struct(_as_doubles(data))


def _as_doubles(data: Any) -> Any:
    if isinstance(data, int) and not isinstance(data, bool) and abs(data) > sys.float_info.max:
        return math.inf if data > 0 else -math.inf
    if isinstance(data, Mapping):
        return {key: _as_doubles(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_as_doubles(item) for item in data]
    return data


def mostly(
    usual: st.SearchStrategy[Any],
    rare: st.SearchStrategy[Any],
) -> st.SearchStrategy[Any]:
    """`usual` nine times in ten, `rare` otherwise: requests well formed enough to reach the
    rules, hostile enough to find what they miss. (Hypothesis favours zero and the bounds, so
    zero is usual and the rare pick lies inside.)"""
    return st.integers(0, 9).flatmap(lambda pick: rare if pick == 7 else usual)


def json_values(max_leaves: int) -> st.SearchStrategy[Any]:
    """Nested lists and string-keyed objects of scalars."""
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(names, inner, max_size=4)
        ),
        max_leaves=max_leaves,
    )


json_data, small_json = json_values(12), json_values(4)


def deep(levels: int) -> Any:
    """A value nested `levels` deep (lists and objects in turn)."""
    value: Any = "AH"
    for level in range(levels):
        value = [value] if level % 2 else {"k": value}
    return value


def field_values() -> st.SearchStrategy[Any]:
    """A move field's value: the shapes moves use (a card, cards, a meld, an amount, a seat),
    mostly; the wrong ones, extreme numbers and deep nesting otherwise."""
    good_card, good_cards = st.sampled_from(CARDS), st.lists(st.sampled_from(CARDS), max_size=6)
    meld_ref = st.integers(-1, 6)
    usual = st.one_of(
        good_card,
        good_cards,
        st.integers(0, 120),
        meld_ref,
        st.booleans(),
        st.fixed_dictionaries(
            {},
            optional={
                "cards": good_cards,
                "meld": meld_ref,
                "at": st.integers(0, 3),
                "card": good_card,
                "new_meld": good_cards,
            },
        ),
        st.lists(
            st.fixed_dictionaries({"cards": good_cards}, optional={"meld": meld_ref}), max_size=3
        ),
    )
    rare = st.one_of(
        card,
        cards,
        numbers(),
        huge_integers(),
        text,
        json_data,
        st.builds(deep, st.sampled_from([8, 20, 32])),
    )
    return mostly(usual, rare)


field_value = field_values()


def move_fields(field_names: Sequence[str]) -> st.SearchStrategy[dict[str, Any]]:
    """The spec's fields of a move, each maybe present, plus junk fields."""
    known = {name: field_value for name in field_names}
    return st.tuples(
        st.fixed_dictionaries({}, optional=known),
        mostly(st.just({}), st.dictionaries(names, small_json, max_size=2)),
    ).map(lambda both: {**both[1], **both[0]})


def moves(move_specs: Sequence[Mapping[str, Any]]) -> st.SearchStrategy[pb.Move]:
    """A move of one of the game's types with its fields, or of an unknown type."""
    typed = [
        st.tuples(st.just(str(m["type"])), move_fields(list(m.get("fields") or ())))
        for m in move_specs
    ]
    junk = st.tuples(st.one_of(st.just(""), text), move_fields(["card", "cards", "amount"]))
    return mostly(st.one_of(*typed), junk).map(
        lambda pair: pb.Move(type=pair[0], fields=struct_of(pair[1]))
    )


def option_value(option: Mapping[str, Any]) -> st.SearchStrategy[Any]:
    values: list[Any] = list(option.get("values") or [])
    low, high = option.get("minimum"), option.get("maximum")
    edges = [x for x in (low, high) if x is not None]
    edges += [x + d for x in edges for d in (-1, 1)]
    sensible = st.sampled_from(values + edges + [True, False, option.get("default")])
    return mostly(sensible, st.one_of(scalars, small_json))


def options(option_specs: Sequence[Mapping[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    known = {str(o["name"]): option_value(o) for o in option_specs}
    return st.tuples(
        st.fixed_dictionaries({}, optional=known),
        mostly(st.just({}), st.dictionaries(names, scalars, max_size=2)),
    ).map(lambda both: {**both[1], **both[0]})


def seat_numbers(most: int = 9) -> st.SearchStrategy[int]:
    return mostly(
        st.integers(0, most), st.one_of(st.integers(-2, most + 2), st.sampled_from(INT32))
    )


# a Pontinho deal for three seats that fits the pack: a key naming a seat twice gets past every
# other check (`seat_named_twice`)
PONTINHO_DEAL: dict[str, Any] = {
    "hands": {
        "0": ["2S", "3S", "5H", "6H", "JD", "JS", "KC", "AD", "7S"],
        "1": ["5C", "6C", "7C", "8C", "KH", "KS", "2D", "3D", "JH"],
        "2": ["4S", "4H", "6D", "TS", "TC", "QD", "QC", "AH", "8H"],
    },
    "turned": "9D",
    "stock": ["4C", "TH", "5S"],
}
SEAT_SPELLINGS = ["0{}", "00{}", "-{}", "+{}", " {}", "{} ", "{}.0"]  # `-0`, `01`, ...


def seat_named_twice(deal: Mapping[str, Any] = PONTINHO_DEAL) -> st.SearchStrategy[Any]:
    """`deal` with one seat's hand also under another spelling of its number (`01` for `1`)."""

    def twice(seat: str, spelling: str) -> dict[str, Any]:
        hands = dict(deal["hands"])
        hands[spelling.format(seat)] = list(hands[seat])
        return {**deal, "hands": hands}

    return st.builds(twice, st.sampled_from(sorted(deal["hands"])), st.sampled_from(SEAT_SPELLINGS))


def deals(seats: int = 5) -> st.SearchStrategy[dict[str, Any]]:
    """A stacked deal, as SCENARIOS.md has it or not quite."""
    seat_keys = st.one_of(
        st.integers(-1, seats).map(str),
        names,
        st.tuples(st.integers(0, seats), st.sampled_from(SEAT_SPELLINGS)).map(
            lambda pair: pair[1].format(pair[0])
        ),
    )
    hands = st.dictionaries(seat_keys, cards, max_size=6)
    return st.fixed_dictionaries(
        {},
        optional={
            "hands": st.one_of(hands, small_json),
            "turned": st.one_of(card, cards),
            "stock": st.one_of(cards, small_json),
            "kitty": numbers(),
            "seed": st.one_of(st.integers(0, 2**32), huge_integers()),
        },
    ).flatmap(
        lambda deal: st.dictionaries(names, scalars, max_size=1).map(lambda junk: {**junk, **deal})
    )


def per_game(
    descriptions: Mapping[str, Mapping[str, Any]],
    build: Callable[[str, Mapping[str, Any]], st.SearchStrategy[Any]],
) -> st.SearchStrategy[Any]:
    """`build(game, description)` for each known game, and for a made-up game name (built once
    each: strategies built inside `flatmap` cost more than the requests they make)."""
    known = [build(game, described) for game, described in sorted(descriptions.items())]
    unknown = text.flatmap(lambda game: build(game, {}))
    return st.one_of(*known, unknown)


def display_names() -> st.SearchStrategy[dict[int, str]]:
    """CreateTable's `names`: none mostly; else any text by any seat (up to 60 characters,
    controls, formatting characters and separators among them)."""
    hostile = st.sampled_from(["", " ", "x" * 40, "x" * 41, "a\nb", "r\u202el", "\u2028", "\x00"])
    name = st.one_of(hostile, st.text(st.characters(exclude_categories=["Cs"]), max_size=60))
    return mostly(st.just({}), st.dictionaries(seat_numbers(), name, max_size=4))


def int_map(values: tuple[int, int]) -> st.SearchStrategy[dict[int, int]]:
    return mostly(
        st.just({}),
        st.dictionaries(
            seat_numbers(),
            st.one_of(
                st.integers(-5, 500), st.integers(*values), st.sampled_from([BIG - 1, BIG, -BIG])
            ),
            max_size=4,
        ),
    )


def create_table_data(
    descriptions: Mapping[str, Mapping[str, Any]],
) -> st.SearchStrategy[dict[str, Any]]:
    """CreateTable's fields as JSON data (an HTTP body): the seed may be past 64 bits."""

    def request(game: str, described: Mapping[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
        seats = described.get("seats") or {"min": 1, "max": 9}
        asked = st.fixed_dictionaries(
            {
                "game": st.just(game),
                "options": options(described.get("options") or ()),
                "seats": mostly(st.integers(seats["min"], seats["max"]), seat_numbers()),
                "dealer": mostly(st.integers(0, seats["min"] - 1), seat_numbers()),
                "seed": st.one_of(st.none(), st.integers(*INT64), huge_integers()),
                "deal": mostly(st.none(), deals()),
                "scores": int_map(INT64),
                "balances": int_map(INT64),
                "names": display_names(),
            }
        )
        if game != "pontinho":
            return asked
        # half the time a deal that fits three seats but for a seat named twice (`01`, `1`)
        twice = st.builds(
            lambda data, deal: {**data, "seats": 3, "deal": deal}, asked, seat_named_twice()
        )
        return st.one_of(asked, twice)

    return per_game(descriptions, request)


def create_table_requests(
    descriptions: Mapping[str, Mapping[str, Any]],
) -> st.SearchStrategy[pb.CreateTableRequest]:
    """`create_table_data` as the message (a seed past 64 bits left out: int64 cannot hold it)."""
    return create_table_data(descriptions).map(_create_table_request)


def _create_table_request(data: Mapping[str, Any]) -> pb.CreateTableRequest:
    seed, deal = data["seed"], data["deal"]
    return pb.CreateTableRequest(
        game=data["game"],
        options=struct_of(data["options"]),
        seats=data["seats"],
        dealer=data["dealer"],
        seed=seed if seed is not None and INT64[0] <= seed <= INT64[1] else None,
        deal=None if deal is None else struct_of(deal),
        scores=data["scores"],
        balances=data["balances"],
        names=data["names"],
    )


def as_json(data: Any) -> Any:
    """`data` with its keys as JSON has them (`{0: 5}` -> `{"0": 5}`), `None`s left out."""
    if isinstance(data, Mapping):
        return {str(key): as_json(value) for key, value in data.items() if value is not None}
    if isinstance(data, list):
        return [as_json(item) for item in data]
    return data


# -- records (Adjudicate) ----------------------------------------------------------------------


def records(descriptions: Mapping[str, Mapping[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """A game record (SCENARIOS.md): a known game, a seat count, a seed (a deal rarely), steps;
    mostly well formed, with junk in every part otherwise."""

    def record(game: str, described: Mapping[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
        seats = described.get("seats") or {"min": 1, "max": 9}
        step = st.fixed_dictionaries(
            {
                "seat": mostly(st.integers(0, seats["max"] - 1), seat_numbers()),
                "move": moves_as_data(described.get("moves") or ()),
            }
        )
        usual = st.fixed_dictionaries(
            {
                "format": st.just(1),
                "game": st.just(game),
                "seats": st.integers(seats["min"], seats["max"]),
                "seed": mostly(st.integers(0, 2**32), huge_integers()),
                "steps": st.lists(step, max_size=8),
            },
            optional={
                "dealer": st.integers(0, seats["min"] - 1),
                "options": options(described.get("options") or ()),
            },
        )
        rare = st.fixed_dictionaries(
            {"game": st.just(game), "steps": st.lists(st.one_of(step, small_json), max_size=6)},
            optional={
                "format": st.sampled_from([1, 2, 0, "1", None, 1.5]),
                "seats": seat_numbers(8),
                "dealer": seat_numbers(8),
                "seed": st.one_of(st.integers(*INT64), numbers()),
                "deal": deals(),
                "options": options(described.get("options") or ()),
                "junk": small_json,
            },
        )
        if game == "pontinho":  # a deal that fits but for a seat named twice
            twice = st.fixed_dictionaries(
                {
                    "format": st.just(1),
                    "game": st.just(game),
                    "seats": st.just(3),
                    "deal": seat_named_twice(),
                    "steps": st.lists(step, max_size=2),
                }
            )
            rare = st.one_of(rare, twice)
        return mostly(usual, rare)

    return per_game(descriptions, record)


def _of_type(kind: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A move's fields made a move of type `kind`."""
    return lambda fields: {**fields, "type": kind}


def moves_as_data(move_specs: Sequence[Mapping[str, Any]]) -> st.SearchStrategy[Any]:
    typed = [
        move_fields(list(m.get("fields") or ())).map(_of_type(str(m["type"]))) for m in move_specs
    ]
    return mostly(st.one_of(*typed), small_json) if typed else small_json


YAML_BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
    for i in range(9)
)
YAML_SPECIAL = [
    "",
    "steps: [",
    "just a string",
    "- 1\n- 2",
    YAML_BOMB,
    "game: !!python/object:os.system x",
    "n: " + "9" * 5000,
    "game: \x07\x1b[31m",
    "[" * 200 + "]" * 200,
    "{1: a, b: c}",
    "steps: " + "[" * 40 + "]" * 40,
    "? [a, b]\n: c",
    "%YAML 9.9\n---\na: 1",
    "a: .nan\nb: -.inf",
    "game: pontinho\nseats: 3\nsteps: []\n" + "x: y\n" * 10,
    "\ufeffgame: pontinho",
]


def yaml_texts(descriptions: Mapping[str, Mapping[str, Any]]) -> st.SearchStrategy[str]:
    """YAML records: dumped from `records`, special cases (bombs, tags, depth), and plain text."""
    dumped = records(descriptions).map(_dump)
    return mostly(
        dumped,
        st.one_of(
            st.sampled_from(YAML_SPECIAL),
            text,
            st.tuples(dumped, text).map(lambda pair: pair[0] + pair[1]),
        ),
    )


def _dump(record: Mapping[str, Any]) -> str:
    try:
        return yaml.safe_dump(dict(record), allow_unicode=True)
    except yaml.YAMLError:  # a key PyYAML cannot write: send the text as it stands
        return repr(record)


def adjudicate_requests(
    descriptions: Mapping[str, Mapping[str, Any]],
) -> st.SearchStrategy[pb.AdjudicateRequest]:
    as_data = records(descriptions).map(
        lambda record: pb.AdjudicateRequest(record_data=struct_of(record))
    )
    as_yaml = yaml_texts(descriptions).map(lambda txt: pb.AdjudicateRequest(record_yaml=txt))
    return st.one_of(as_data, as_yaml, st.just(pb.AdjudicateRequest()))


# -- raw bytes ---------------------------------------------------------------------------------


def mutated(valid: bytes) -> st.SearchStrategy[bytes]:
    """`valid` with a few bytes changed, cut short or extended."""

    def apply(edits: list[tuple[int, int]], cut: int, tail: bytes) -> bytes:
        data = bytearray(valid)
        for position, value in edits:
            if data:
                data[position % len(data)] = value
        return bytes(data[: max(cut, 0) or len(data)]) + tail

    return st.builds(
        apply,
        st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=4),
        st.integers(-1, max(len(valid), 1)),
        st.binary(max_size=8),
    )


def raw_requests(valid_samples: Sequence[bytes]) -> st.SearchStrategy[bytes]:
    """Random bytes, unknown groups nested around the parser's depth limit (100), and
    well-formed requests with bytes flipped."""
    nested = st.integers(90, 300).map(lambda depth: b"\x7b" * depth + b"\x7c" * depth)
    return st.one_of(
        st.binary(max_size=256), nested, st.sampled_from(list(valid_samples)).flatmap(mutated)
    )

"""The state codec gives back what it was given, types and all, and refuses what does not fit.

Values typed `Any` keep their kinds through JSON (a tuple stays a tuple, a card a card, an int
key an int); typed values are checked strictly (no `"5"` for an int, no `true` for an int); a
state type the codec cannot hold is refused when its codec is made, not when a table is saved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import Card, french_pack
from referee.engine.state_codec import Invalid, StateCodec


@dataclass(frozen=True)
class Play:
    seat: int
    card: Card


@dataclass
class Toy:
    seats: int
    anything: Any
    claims: dict[int, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    plays: list[Play] = field(default_factory=list)
    jokers: frozenset[Card] = frozenset()
    offer: tuple[int, int] | None = None
    hidden: Any = None


CODEC = StateCodec(Toy)
CARDS = st.sampled_from(french_pack())
UNTYPED = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
    | CARDS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.lists(inner, max_size=3).map(tuple)
        | st.frozensets(st.integers() | st.text() | CARDS, max_size=3)
        | st.dictionaries(st.text() | st.integers() | CARDS, inner, max_size=3)
        | st.builds(Play, st.integers(0, 9), CARDS)
    ),
    max_leaves=10,
)


def kinds(value: Any) -> Any:
    """`value` with the type of every part spelled out: `==` alone takes 1 for True, (1,) for
    [1] no, but 1 == 1.0 and True == 1 yes."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [kinds(v) for v in value])
    if isinstance(value, frozenset):
        return ("frozenset", sorted(repr(kinds(v)) for v in value))
    if isinstance(value, dict):
        return ("dict", [(kinds(k), kinds(v)) for k, v in value.items()])
    return (type(value).__name__, repr(value))


def round_trip(value: Any) -> Any:
    return CODEC.decode(msgspec.json.decode(msgspec.json.encode(CODEC.encode(value))))


@settings(max_examples=300, deadline=None, database=None)
@given(
    anything=UNTYPED,
    claim=UNTYPED,
    plays=st.lists(st.builds(Play, st.integers(0, 9), CARDS), max_size=3),
    offer=st.none() | st.tuples(st.integers(), st.integers()),
)
def test_what_is_encoded_comes_back_with_its_types(
    anything: Any, claim: Any, plays: list[Play], offer: tuple[int, int] | None
) -> None:
    toy = Toy(3, anything, {2: ("take", {"meld": claim})}, plays, frozenset(french_pack()[:3]))
    toy.offer = offer
    again = round_trip(toy)
    assert again == toy
    assert kinds(again.anything) == kinds(toy.anything)
    assert kinds(again.claims) == kinds(toy.claims)


@pytest.mark.parametrize(
    ("field", "wrong"),
    [
        ("seats", "5"),
        ("seats", True),
        ("seats", 5.5),
        ("plays", "AS"),
        ("plays", {"seat": 1}),
        ("plays", [{"seat": 1, "card": {"rank": "A"}}]),
        ("claims", {"x": ["take", {"dict": {}}]}),
        ("claims", {"1": ["take"]}),
        ("claims", {"1": ["take", {"dict": {}}, 3]}),
        ("claims", {"1": ["take", {"meld": {}}]}),
        ("anything", {"tuple": [1], "list": [2]}),
        ("anything", {"Toy": {}}),
        ("anything", {"object": []}),
        ("anything", {"pairs": [[[1], 2]]}),
        ("anything", {"frozenset": [{"dict": {}}]}),
        ("offer", [1, 2, 3]),
        ("jokers", [{"rank": "A", "suit": "S"}, 4]),
    ],
)
def test_a_value_that_does_not_fit_its_type_is_invalid(field: str, wrong: Any) -> None:
    data = msgspec.json.decode(msgspec.json.encode(CODEC.encode(Toy(3, None))))
    with pytest.raises(Invalid):
        CODEC.decode({**data, field: wrong})


def test_a_missing_or_unknown_field_is_invalid() -> None:
    data = msgspec.json.decode(msgspec.json.encode(CODEC.encode(Toy(3, None))))
    del data["seats"]
    with pytest.raises(Invalid, match="no `seats`"):
        CODEC.decode(data)
    with pytest.raises(Invalid, match="unknown `extra`"):
        CODEC.decode({**data, "seats": 1, "extra": 1})


def test_a_value_of_no_known_kind_is_not_encoded() -> None:
    with pytest.raises(TypeError, match="a value typed `Any` is a `set`"):
        CODEC.encode(Toy(3, {1, 2}))
    for number in (float("inf"), float("nan")):
        with pytest.raises(TypeError, match="JSON has no such number"):
            CODEC.encode(Toy(3, [number]))
    with pytest.raises(TypeError, match="a `int`, not a `Toy`"):
        CODEC.encode(3)


@dataclass
class Loop:
    next: Loop | None


@dataclass
class Either:
    value: Play | Toy


@dataclass
class CardKeys:
    by_card: dict[Card, Any]


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        (Loop, "recursive"),
        (Either, "cannot hold a"),
        (CardKeys, "keys of"),
        (int, "not a dataclass"),
    ],
)
def test_a_state_type_the_codec_cannot_hold_is_refused_up_front(kind: type, says: str) -> None:
    with pytest.raises(TypeError, match=says):
        StateCodec(kind)


def test_the_layout_names_every_class_field_and_type() -> None:
    assert CODEC.layout == StateCodec(Toy).layout
    assert CODEC.layout != StateCodec(Play).layout

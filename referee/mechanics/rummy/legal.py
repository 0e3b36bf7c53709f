"""The concrete moves a rummy seat may make now (its view's `legal`), each judged as proposed.

Listed where the rules accept them:
- a move without fields (`draw`, `pass`, `reenter`, `decline`): `{}`;
- `discard`: the held cards each may be discarded, `{cards}` (a last card goes out);
- `layoff`: for each table meld, the held cards that lay off alone on it, their end told by the
  card: `{onto: [{meld, cards}]}`;
- `meld`: the new melds of three held cards, as they would lie on the table: `{melds}`;
- `take_discard`: the top discard and the ways to use it at once that the take search finds,
  `{card, uses}`, each use the fields of a legal `take_discard`;
- `go_out`, where going out lays the hand in new melds only (the spec's `go_out` declares no
  `take`, `layoffs` or `steals`): the ways the search finds to lay the whole hand out, perhaps but
  a last discard, `{moves}`, each the fields of a legal `go_out`.
Left out, as there are too many ways to say them for a view: going out with takes, lay-offs or
steals, longer melds, lay-offs of several cards, `swap_joker`; the view's `legal_moves` still
names the move types that may be legal.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

from referee.cards import Card, codes
from referee.mechanics.legal import Candidates, refused
from referee.mechanics.rummy.reading import can_give
from referee.mechanics.rummy.search import (
    MOVE_NAMES,
    Budget,
    SearchExhausted,
    TakeSearch,
    arrangements,
)
from referee.mechanics.rummy.state import RummyState
from referee.mechanics.rummy.table import RummyTable
from referee.mechanics.rummy.turn import Turn
from referee.model import JSON, Move

MELD_SIZE = 3  # the new melds listed: the smallest
TAKE = "take"  # the checkpoint of every move taking the top discard
LISTED = 12  # at most so many melds, and so many uses of the discard
VIEW_BUDGET = 2_000  # meld readings the take search may spend for a view
# what differs from one candidate to another (a move's going out too: its last card)
NAMES_OF_THE_MOVE = MOVE_NAMES | {"going_out"}
Lister = Callable[[RummyTable, RummyState, int, Candidates], JSON]


def moves(mechanic: RummyTable, state: RummyState, seat: int) -> dict[str, JSON]:
    """The seat's legal moves by type: those the move types' listers find, and each move
    without fields the rules accept; a type a rule refuses whatever its fields is skipped."""
    judge = Candidates(
        mechanic.spec,
        lambda move_type, move: mechanic.judge(state, seat, move_type, move).violations,
        lambda move_type, move: mechanic.accepts(state, seat, move_type, move),
    )
    found: dict[str, JSON] = {}
    for move_type, spec in mechanic.spec.moves.items():
        lister = _lister(mechanic, move_type)
        if (lister is None and spec.fields) or refused_outright(mechanic, state, seat, move_type):
            continue
        entry: JSON
        if lister is None:  # a move without fields
            entry = {} if judge.accepts(Move(move_type)) else None
        else:
            entry = lister(mechanic, state, seat, judge)
        if entry is not None:
            found[move_type] = entry
    return found


def refused_outright(mechanic: RummyTable, state: RummyState, seat: int, checkpoint: str) -> bool:
    """A rule reading nothing of the move refuses every move at `checkpoint` (not in turn, not
    this phase); at `take`, every move taking the top discard (none there, held too few cards)."""
    if checkpoint == TAKE:
        return _take_refused(mechanic, state, seat)
    env = mechanic.context(state, seat, checkpoint)
    return refused(mechanic.rules, checkpoint, env, NAMES_OF_THE_MOVE)


def _take_refused(mechanic: RummyTable, state: RummyState, seat: int) -> bool:
    if not state.discard:
        return True
    turn = Turn(mechanic, state.clone(), seat, "take_discard", {"present": []})
    hand_before = list(turn.hand)
    turn.take()
    return refused(mechanic.rules, TAKE, turn.take_env(hand_before, used=[]), NAMES_OF_THE_MOVE)


def _discards(mechanic: RummyTable, state: RummyState, seat: int, judge: Candidates) -> JSON:
    cards = judge.cards("discard", "card", sorted(state.hands[seat]))
    return {"cards": cards} if cards else None


def _layoffs(mechanic: RummyTable, state: RummyState, seat: int, judge: Candidates) -> JSON:
    """Each held card that lays off alone on a meld: the reading first, then the whole move."""
    env = mechanic.context(state, seat, "layoff")
    hand = state.hands[seat]
    onto = []
    for meld in state.melds:
        cards = [
            code
            for code in codes(mechanic.reader.fitting(env, meld, hand))
            if judge.accepts(Move("layoff", {"meld": meld.id, "cards": [code]}))
        ]
        if cards:
            onto.append({"meld": meld.id, "cards": cards})
    return {"onto": onto} if onto else None


def _melds(mechanic: RummyTable, state: RummyState, seat: int, judge: Candidates) -> JSON:
    found = list(
        itertools.islice(
            (
                codes(cards)
                for cards in _new_melds(mechanic, state, seat)
                if judge.accepts(Move("meld", {"cards": codes(cards)}))
            ),
            LISTED,
        )
    )
    return {"melds": found} if found else None


def _new_melds(mechanic: RummyTable, state: RummyState, seat: int) -> Iterator[list[Card]]:
    """Every distinct set of `MELD_SIZE` held cards that some kind reads as a new meld, in the
    order it would lie on the table (the take search's orders: naturals low to high, jokers at
    every place)."""
    env = mechanic.context(state, seat, "meld")
    reader = mechanic.reader
    for group in dict.fromkeys(itertools.combinations(sorted(state.hands[seat]), MELD_SIZE)):
        cards = list(group)
        if not any(
            kind.shape(reader.meld_env(env, kind.name, cards, new=True))
            for kind in reader.kinds.values()
        ):
            continue  # no order of these cards is a meld: a kind's shape ignores the order
        yield from (
            arranged
            for arranged in arrangements(cards, state.jokers)
            if not isinstance(reader.read_new(env, arranged), list)
        )


def _takes(mechanic: RummyTable, state: RummyState, seat: int, judge: Candidates) -> JSON:
    """The ways to use the top discard at once that the take search finds within its budget."""
    uses: list[dict[str, Any]] = []
    search = TakeSearch(mechanic, state, seat, budget=Budget(VIEW_BUDGET))
    try:
        for move in search.takes():
            if judge.accepts(move):
                uses.append(dict(move.fields))
                if len(uses) >= LISTED:
                    break
    except SearchExhausted:
        pass  # what it found is legal; the rest is left unsaid
    return {"card": str(state.discard[-1]), "uses": uses} if uses else None


def _go_outs(mechanic: RummyTable, state: RummyState, seat: int, judge: Candidates) -> JSON:
    """The ways to go out with the hand alone that the search finds within its budget."""
    found: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    search = TakeSearch(mechanic, state, seat, budget=Budget(VIEW_BUDGET))
    try:
        for move in search.hand_go_outs():
            # the same melds, their cards in another order: listed once (the first accepted)
            same = (
                move.fields.get("discard"),
                *sorted(tuple(sorted(m)) for m in move.fields["melds"]),
            )
            if same not in seen and judge.accepts(move):
                seen.add(same)
                found.append(dict(move.fields))
                if len(found) >= LISTED:
                    break
    except SearchExhausted:
        pass  # what it found is legal; the rest is left unsaid
    return {"moves": found} if found else None


def _lister(mechanic: RummyTable, move_type: str) -> Lister | None:
    """How `move_type`'s moves are listed; going out only where it lays the hand alone: one
    that may take, lay off or steal has too many ways to list."""
    if move_type == "go_out" and any(
        can_give(mechanic.spec, "go_out", part) for part in ("take", "layoffs", "steals")
    ):
        return None
    return LISTERS.get(move_type)


LISTERS: dict[str, Lister] = {
    "discard": _discards,
    "layoff": _layoffs,
    "meld": _melds,
    "take_discard": _takes,
    "go_out": _go_outs,
}

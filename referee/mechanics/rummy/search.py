"""Can the seat in turn use the top discard at all? The search a void hand needs.

When the stock is empty and cannot be rebuilt, the seat in turn can only take the top discard,
in a move that uses it at once where the rules say so: a new meld, a lay-off, or a going-out
(a spec letting the discard go to the hand has the plain take, found first). The hand ends void
when no such move is legal. The search lists the moves the move language can say, and the
mechanic judges each one as if proposed: the search proposes, the spec's rules decide.

What is searched, with the top discard and the seat's cards:
- first, the rules that read nothing of the move itself (not `move`, nor what it lays): one of
  them broken (the turned card covered, one card held) refuses every such move;
- new melds and lay-offs onto every table meld: every multiset of the seat's cards with the
  discard, its natural cards low to high (an ace low, or high), its jokers at every place (a meld
  is listed as it lies on the table, SCENARIOS.md; the order of a trio's cards is free). Groups
  grow a card at a time, and one no meld kind's `shape` admits is neither arranged nor grown:
  a kind's shape does not depend on where its jokers lie, and once a group holds a natural card
  a card added never mends it (tests/mechanics/rummy/test_take_search.py checks both for every shipped
  kind);
- going out: the whole hand and the discard laid out in such melds and lay-offs, at most one card
  left as the final discard, after stealing any table joker a held card can replace.
The search stops at a budget of meld readings; past it, it reports that it could not tell.
After each accepted move `void_if_stuck` asks it about the seat next in turn.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card, PackKind, codes, remove_cards
from referee.engine.mechanic import Judgement
from referee.engine.moves import parse_move
from referee.mechanics.rummy import match
from referee.mechanics.rummy.reading import can_give
from referee.mechanics.rummy.state import Meld, RummyState
from referee.mechanics.rummy.table import RummyTable
from referee.mechanics.rummy.turn import Turn
from referee.model import Move

BUDGET = 50_000  # meld readings, a few seconds at most: more than a real table's hands need
# what differs from one candidate move to another: a rule reading none of these judges them alike
MOVE_NAMES = frozenset({"move", "used", "laid", "laid_wild", "stolen"})
Env = dict[str, Any]
LaidOut = tuple[list[list[Card]], list[tuple[int, list[Card], str]], Card | None]


class SearchExhausted(Exception):
    """The budget ran out before the search could tell."""


@dataclass
class Budget:
    """The meld readings a search may still make (a view's search is given fewer)."""

    left: int = field(default_factory=lambda: BUDGET)

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise SearchExhausted


def arrangements(cards: list[Card], jokers: frozenset[Card]) -> Iterator[list[Card]]:
    """`cards` in every order the search tries: naturals low to high (ace low, then ace high when
    there is an ace), each distinct placement of the jokers among them."""
    naturals = [c for c in cards if c not in jokers]
    wild = [c for c in cards if c in jokers]
    orders = [sorted(naturals, key=lambda c: (c.value, c.suit))]
    if any(c.value == 1 for c in naturals):
        orders.append(sorted(naturals, key=lambda c: (14 if c.value == 1 else c.value, c.suit)))
    seen: set[tuple[Card, ...]] = set()
    for order in orders:
        for placed in _with_jokers(order, wild):
            if tuple(placed) not in seen:
                seen.add(tuple(placed))
                yield placed


def _with_jokers(order: list[Card], wild: list[Card]) -> Iterator[list[Card]]:
    size = len(order) + len(wild)
    for places in itertools.combinations(range(size), len(wild)):
        for jokers in sorted(set(itertools.permutations(wild))):
            naturals, placed = iter(order), iter(jokers)
            yield [next(placed) if i in places else next(naturals) for i in range(size)]


@dataclass
class TakeSearch:
    """The moves with which `seat` takes the top discard and uses it at once."""

    mechanic: RummyTable
    state: RummyState
    seat: int
    budget: Budget = field(default_factory=Budget)
    dead_ends: set[tuple[tuple[Card, ...], bool]] = field(default_factory=set)

    def legal_take(self) -> Move | None:
        """A legal move taking the top discard, or None; SearchExhausted if it cannot tell."""
        for move in self.candidates():
            if self.accepts(move):
                return move
        return None

    def accepts(self, move: Move) -> bool:
        spec = self.mechanic.spec
        parsed = parse_move(spec.moves, move, PackKind(spec.pack_kind))
        return self.mechanic.apply(self.state.clone(), self.seat, move.type, parsed).accepted

    def candidates(self) -> Iterator[Move]:
        yield from self.takes()
        if self.state.discard and self.declares("go_out", "take") and not self.refused("go_out"):
            yield from self._go_outs()

    def declares(self, move_type: str, field: str) -> bool:
        """Does the spec's `move_type` have `field`? A part of a move the spec leaves out is
        never searched."""
        return can_give(self.mechanic.spec, move_type, field)

    def takes(self) -> Iterator[Move]:
        """The `take_discard` moves: the top discard into the hand (where the rules allow it),
        in one new meld, or in one lay-off (where the spec's move has these fields)."""
        if self.state.discard and not self.refused("take_discard"):
            yield Move("take_discard")
            yield from self._take_discards()

    def refused(self, move_type: str) -> bool:
        """Does a rule that reads nothing of the move refuse every `move_type` taking the discard?"""
        rules = self.mechanic.rules
        turn = self._turn(move_type)
        hand_before = list(turn.hand)
        env = turn.env()
        if any(r.broken(env) for r in rules.rules_at(move_type) if not r.reads & MOVE_NAMES):
            return True
        turn.take()
        env = turn.take_env(hand_before, used=[])
        return any(r.broken(env) for r in rules.rules_at("take") if not r.reads & MOVE_NAMES)

    # --- take_discard: one new meld, or one lay-off ---
    def _take_discards(self) -> Iterator[Move]:
        turn = self._taken("take_discard")
        env, top = turn.env(), self.state.discard[-1]
        if self.declares("take_discard", "meld"):
            for cards in self._new_melds(env, [top], self.state.hands[self.seat]):
                yield Move("take_discard", {"meld": codes(cards)})
        if self.declares("take_discard", "layoff"):
            for meld_id, cards, at in self._layoffs(
                env, [top], self.state.hands[self.seat], self.state.melds
            ):
                yield Move("take_discard", {"layoff": _layoff_fields(meld_id, cards, at)})

    def _new_melds(self, env: Env, base: list[Card], pool: list[Card]) -> Iterator[list[Card]]:
        """New melds of `base` and some of `pool`, as they would lie on the table."""
        reader = self.mechanic.reader
        for group in self._admitted_groups(env, base, pool, list(reader.kinds), []):
            for arranged in arrangements(group, self.state.jokers):
                self.budget.spend()
                if not isinstance(reader.read_new(env, arranged), list):
                    yield arranged

    def _layoffs(
        self, env: Env, base: list[Card], pool: list[Card], melds: list[Meld]
    ) -> Iterator[tuple[int, list[Card], str]]:
        """Lay-offs of `base` and some of `pool` onto `melds`: (meld, cards, `at`)."""
        reader = self.mechanic.reader
        for meld in melds:
            ends = ("low", "high") if reader.kinds[meld.kind].extend == "ends" else ("",)
            for group in self._admitted_groups(env, base, pool, [meld.kind], meld.cards):
                for arranged in arrangements(group, self.state.jokers):
                    for at in ends:
                        self.budget.spend()
                        if not isinstance(reader.read_layoff(env, meld, arranged, at), list):
                            yield meld.id, arranged, at

    def _admitted_groups(
        self, env: Env, base: list[Card], pool: list[Card], kinds: list[str], onto: list[Card]
    ) -> Iterator[list[Card]]:
        """`base` with every distinct sub-multiset of `pool` that some kind's shape admits
        (with `onto`, a meld's cards). A group no shape admits is not grown further: a card
        added never mends a shape (checked for every shipped kind)."""
        ordered = sorted(pool)

        def grow(start: int, group: list[Card]) -> Iterator[list[Card]]:
            yield group
            tried: set[Card] = set()
            for index in range(start, len(ordered)):
                card = ordered[index]
                if card in tried:
                    continue
                tried.add(card)
                if self._admitted(env, [*group, card], kinds, onto):
                    yield from grow(index + 1, [*group, card])

        if self._admitted(env, base, kinds, onto):
            yield from grow(0, list(base))

    def _admitted(self, env: Env, cards: list[Card], kinds: list[str], onto: list[Card]) -> bool:
        """Does some kind's shape admit these cards (with `onto`, a meld's), in one order? Jokers
        alone tell nothing of a shape yet: they are admitted."""
        if all(c in self.state.jokers for c in cards):
            return True
        reader = self.mechanic.reader
        first = next(arrangements(cards, self.state.jokers))
        self.budget.spend()
        return any(
            reader.kinds[k].shape(reader.meld_env(env, k, onto + first, new=not onto))
            for k in kinds
        )

    # --- go_out: the whole hand laid out, after steals ---
    def _go_outs(self) -> Iterator[Move]:
        onto = self.declares("go_out", "layoffs")  # the table melds laid off onto, if any
        for steals in self._steal_sets():
            self.dead_ends = set()
            turn = self._taken("go_out")
            for meld_id, card in steals:
                turn.steal(meld_id, card)
            if turn.violations:
                continue
            for melds, layoffs, discard in self._lay_out(
                turn.env(), list(turn.hand), turn.s.melds if onto else [], list(turn.stolen), None
            ):
                fields: dict[str, Any] = {"take": "discard", "melds": [codes(m) for m in melds]}
                if onto:
                    fields["layoffs"] = [_layoff_fields(*layoff) for layoff in layoffs]
                if steals:
                    fields["steals"] = [{"meld": i, "card": str(c)} for i, c in steals]
                if discard is not None:
                    fields["discard"] = str(discard)
                yield Move("go_out", fields)

    def _steal_sets(self) -> Iterator[list[tuple[int, Card]]]:
        """No steal first, then every set of steals a held card (or the discard) can make (where
        the spec's going out steals)."""
        if not self.declares("go_out", "steals"):
            yield []
            return
        turn = self._taken("go_out")
        env, reader = turn.env(), self.mechanic.reader
        options = []
        for meld in self.state.melds:
            for place in (p for p, wild in enumerate(meld.wild) if wild):
                for card in sorted(set(turn.hand)):
                    cards = meld.cards[:place] + [card] + meld.cards[place + 1 :]
                    self.budget.spend()
                    flags = reader.wild_places(env, meld.kind, cards)
                    if flags is not None and not flags[place]:
                        options.append((meld.id, place, card))
        for size in range(len(options) + 1):
            for chosen in itertools.combinations(options, size):
                places = [(m, p) for m, p, _ in chosen]
                if len(set(places)) == len(places):  # a joker is stolen once
                    yield [(m, c) for m, _, c in chosen]

    def _lay_out(
        self,
        env: Env,
        cards: list[Card],
        melds: list[Meld],
        stolen: list[Card],
        discard: Card | None,
    ) -> Iterator[LaidOut]:
        """Every way to lay all `cards` out as new melds and lay-offs, one of them perhaps the
        final discard (never a stolen joker: a steal is made to lay the joker). Cards found not to lay out are remembered
        (`dead_ends`, for one set of steals): the same rest comes back by many ways."""
        key = (tuple(sorted(cards)), discard is None)
        if key in self.dead_ends:
            return
        found = False
        for laid_out in self._lay_out_all(env, cards, melds, stolen, discard):
            found = True
            yield laid_out
        if not found:
            self.dead_ends.add(key)

    def _lay_out_all(
        self,
        env: Env,
        cards: list[Card],
        melds: list[Meld],
        stolen: list[Card],
        discard: Card | None,
    ) -> Iterator[LaidOut]:
        if not cards:
            yield [], [], discard
            return
        first, *rest = sorted(cards)
        if discard is None and first not in stolen:
            yield from self._lay_out(env, rest, melds, stolen, first)
        for meld in self._new_melds(env, [first], rest):
            for new, layoffs, last in self._lay_out(
                env, _less(cards, meld), melds, stolen, discard
            ):
                yield [meld, *new], layoffs, last
        for layoff in self._layoffs(env, [first], rest, melds):
            for new, layoffs, last in self._lay_out(
                env, _less(cards, layoff[1]), melds, stolen, discard
            ):
                yield new, [layoff, *layoffs], last

    # --- go_out from the hand alone: what a view lists where going out lays new melds only ---
    def hand_go_outs(self) -> Iterator[Move]:
        """The seat's whole hand laid out in new melds, perhaps but a last discard (where the
        spec's `go_out` has a `discard` field): no take, no lay-off, no steal."""
        self.dead_ends = set()
        turn = self._turn("go_out")
        with_discard = self.declares("go_out", "discard")
        for melds, _, discard in self._lay_out(turn.env(), list(turn.hand), [], [], None):
            if discard is not None and not with_discard:
                continue
            fields: dict[str, Any] = {"melds": [codes(m) for m in melds]}
            if discard is not None:
                fields["discard"] = str(discard)
            yield Move("go_out", fields)

    def _taken(self, move_type: str) -> Turn:
        """A working turn of `move_type` that has taken the discard: melds read as in the move."""
        turn = self._turn(move_type)
        turn.take()
        return turn

    def _turn(self, move_type: str) -> Turn:
        return Turn(self.mechanic, self.state.clone(), self.seat, move_type, {"present": []})


def void_if_stuck(mechanic: RummyTable, outcome: Judgement[RummyState]) -> Judgement[RummyState]:
    """After an accepted move, a seat in turn that must take a card where there is none to
    draw, and cannot use the top discard either, ends the hand void: a hand never waits
    forever."""
    state: RummyState | None = outcome.state
    if (
        state is None
        or state.hand_over
        or state.window is not None
        or state.phase != "take"
        or state.to_act is None
        or state.stock
        or len(state.discard) >= 2
    ):
        return outcome
    try:
        if TakeSearch(mechanic, state, state.to_act).legal_take() is not None:
            return outcome
    except SearchExhausted:  # it could not tell: the hand goes on, the seat may still move
        return outcome
    state.hand_ended = True
    outcome.events += match.void_hand(state, mechanic.config, mechanic.pack)
    return outcome


def _less(cards: list[Card], laid: list[Card]) -> list[Card]:
    remaining = list(cards)
    remove_cards(remaining, laid)
    return remaining


def _layoff_fields(meld_id: int, cards: list[Card], at: str) -> dict[str, Any]:
    fields: dict[str, Any] = {"meld": meld_id, "cards": codes(cards)}
    if at:
        fields["at"] = at
    return fields

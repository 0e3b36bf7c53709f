"""A runnable scenario for a difference at a meld kind (`trio`, `sequence`), checked on both sides.

The scenario is the simplest real way to reach a meld: a stacked deal in which the mão (seat 1,
dealer 0) holds the meld's cards, with the difference's turned card; the mão draws, then lays the
cards in a `meld` move or, when the difference needs going out, as the first meld of a `go_out`
(the rest of the hand a natural sequence). z3 is asked again, in exactly that context
(`rummy_context.first_turn_context`), for cards the accepting side takes as this kind and the
other side rejects whole: under this kind and every other kind it knows, so the engine, which
tries every kind, rejects the move too. The scenario is then run through the engine
(`referee.scenario.runner`, in-process): the accepting side must accept every step, and the same
steps with the other side's game and options must reject the meld. Only a confirmed scenario is
offered as a reproduction. (Going out, the hand's other cards are chosen after z3 answers: a rule
that reads them is checked by the replay alone.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import z3

from referee.cards import Card, codes, french_pack
from referee.proofs import rummy_context as rummy
from referee.proofs.diff_context import copies_within, situation
from referee.proofs.diff_sides import Finding, Judge, Pair, Side, judge, shape_for
from referee.proofs.prover import _as_bool
from referee.proofs.rummy_context import Check
from referee.scenario.format import load_text
from referee.scenario.runner import run_scenario
from referee.scenario.target import InProcessTarget
from referee.spec.expr.symbolic import SymCard, SymList, s_not

SUITS = "SHDC"
RANKS = "A23456789TJQK"


@dataclass
class Witness:
    """A scenario that reproduces a difference, and what replaying it on both sides showed."""

    name: str  # a file name: `trio-pontinho-accepts.yaml`
    text: str  # the scenario, with the accepting side's game and options
    other_text: str  # the same steps on the other side, the meld expected rejected
    cards: list[str]
    turned: str
    going_out: bool
    broken: list[str]  # what the other side breaks, by z3
    problems: list[str] = field(default_factory=list)  # replay failures: empty = confirmed

    @property
    def confirmed(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class _Found:
    cards: list[Card]
    rest: list[Card]  # the rest of the hand held when the meld is read, the drawn card last
    turned: Card
    broken: list[str]
    going_out: bool


def attach_scenario(pair: Pair, check: Check, finding: Finding) -> None:
    """Give a meld-kind difference a confirmed scenario, or say why it has none."""
    yes, no = pair.sides[finding.accepts], pair.sides[1 - finding.accepts]
    unturned = [s.text for s in pair.sides if not rummy.mechanic(s.game).config.turned_card]
    if unturned:  # the scenario's deal, its first turn's context, and its proof need the card
        finding.no_scenario = (
            f"the scenario is built on a deal that turns a card, and `{unturned[0]}` turns none"
        )
        return
    judges = [judge(yes, check)] + _kinds(no, check)
    tried: Witness | None = None
    for going_out in (False, True):
        found = _smallest(pair, check, judges, going_out)
        if isinstance(found, str):
            finding.no_scenario = found
            return
        for witness in _witnesses(pair, check, finding.accepts, found) if found else ():
            if witness.confirmed:
                finding.scenario = witness
                return
            tried = tried or witness
    if tried is not None:
        finding.no_scenario = "the scenario built was not confirmed by the engine: " + "; ".join(
            tried.problems
        )
        return
    finding.no_scenario = (
        f"neither a `meld` nor going out with it, by the mão after drawing, "
        f"shows it with up to {pair.max_cards} cards: `{no.text}` takes such "
        f"cards as another kind of meld, or the difference needs a context "
        f"that only earlier moves make"
    )


def _hand_size(side: Side) -> int:
    return rummy.mechanic(side.game).config.hand_size


def _kinds(side: Side, check: Check) -> list[Judge]:
    """The side's judges for this kind first, then for every other meld kind it knows."""
    kinds = [k for k in rummy.checkpoints(side.game) if rummy.role_of(side.game, k) == "meld"]
    ordered = [check.checkpoint] + [k for k in kinds if k != check.checkpoint]
    return [
        judge(side, Check(k, "meld", "before", check.seats, check.moves, check.laying))
        for k in ordered
    ]


def _smallest(
    pair: Pair, check: Check, judges: list[Judge], going_out: bool
) -> _Found | str | None:
    """The fewest cards that show the difference in that context; a text if the solver gave up."""
    hand_size = _hand_size(judges[0].side)
    largest = hand_size - 3 if going_out else hand_size  # going out keeps a 3-card sequence
    for size in range(1, min(pair.max_cards, largest) + 1):
        found = _solve(pair, check, judges, size, going_out)
        if found is not None:
            return found
    return None


def _solve(
    pair: Pair, check: Check, judges: list[Judge], size: int, going_out: bool
) -> _Found | str | None:
    yes, no_kinds = judges[0], judges[1:]
    hand_size = _hand_size(yes.side)
    shape = shape_for(judges, check)
    rest = [SymCard.fresh(f"hand{k}") for k in range(hand_size + 1 - size)]  # + the card drawn
    seats = max(s.game.spec.seats_min for s in pair.sides)

    def context(env: dict[str, Any]) -> dict[str, Any]:
        hand = SymList.of([*env["cards"].items, *(c for c, _ in rest)])
        return rummy.first_turn_context(seats, env["turned"], hand, going_out)

    sit = situation(shape, size, pair.max_cards, pair.copies, context)
    placed = [*sit.env["cards"].items, *(c for c, _ in rest), sit.env["turned"]]
    solver = z3.Solver()
    solver.set("rlimit", pair.rlimit)
    solver.add(*(_as_bool(d) for d in sit.domain), *(d for _, ds in rest for d in ds))
    solver.add(*(_as_bool(c) for c in copies_within(placed, [True] * len(placed), pair.copies)))
    solver.add(_as_bool(yes.accepts(sit.env)))
    for no in no_kinds:  # rejected whole: under every kind the other side knows
        solver.add(_as_bool(s_not(no.accepts({**sit.env, "kind": no.checkpoint}))))
    answer = solver.check()
    if answer != z3.sat:
        return "the solver gave up looking for a scenario" if answer == z3.unknown else None
    model = solver.model()
    return _Found(
        [c.decode(model) for c in sit.env["cards"].items],
        [c.decode(model) for c, _ in rest],
        sit.env["turned"].decode(model),
        no_kinds[0].broken(sit.env, model),
        going_out,
    )


# --- the scenario text, and replaying it ------------------------------------------------------


def _witnesses(pair: Pair, check: Check, accepts: int, found: _Found) -> Iterator[Witness]:
    """Scenarios for what z3 found: a `meld` with the hand z3 chose; or going out, the rest of
    the hand a natural sequence that the drawn card ends, or that leaves the drawn card to
    discard (a table may forbid or require the final discard)."""
    if not found.going_out:
        yield _witness(pair, check, accepts, found, found.rest, None, None)
        return
    size = len(found.rest)
    for run_size, discarding in ((size, False), (size - 1, True)):
        run = _natural_run(pair.sides[accepts], found, run_size)
        if run is None:
            continue
        discard = _left(pair, [*found.cards, found.turned, *run])[0] if discarding else None
        rest = run + ([discard] if discard else [])
        yield _witness(pair, check, accepts, found, rest, run, discard)


def _natural_run(side: Side, found: _Found, length: int) -> list[Card] | None:
    """`length` consecutive cards of one suit, none a joker at this side's table, that the pack
    still holds besides the meld and the turned card."""
    left = Counter(french_pack(side.game.spec.pack_copies)) - Counter([*found.cards, found.turned])
    is_joker = rummy.mechanic(side.game).config.is_joker
    for suit in SUITS:
        for low in range(len(RANKS) - length + 1):
            run = [Card(RANKS[low + k], suit) for k in range(length)]
            if all(left[c] and not is_joker(side.options, found.turned, c) for c in run):
                return run
    return None


def _left(pair: Pair, placed: list[Card]) -> list[Card]:
    return sorted((Counter(french_pack(pair.copies)) - Counter(placed)).elements())


def _witness(
    pair: Pair,
    check: Check,
    accepts: int,
    found: _Found,
    rest: list[Card],
    run: list[Card] | None,
    discard: Card | None,
) -> Witness:
    """`rest`: the other cards of the hand, the drawn card last; going out, `run` is laid with
    the meld and `discard` ends the move."""
    yes, no = pair.sides[accepts], pair.sides[1 - accepts]
    seats = max(s.game.spec.seats_min for s in pair.sides)
    hand_size = _hand_size(yes)
    others = _left(pair, [*found.cards, *rest, found.turned])
    hands = _hands(seats, found.cards + rest[:-1], others, hand_size)
    name = f"{check.checkpoint}-{_slug(yes.text)}-accepts"
    deal = (hands, found.turned, rest[-1])
    header = [
        f"referee diff {pair.sides[0].text} {pair.sides[1].text}",
        f"at `{check.label}`: `{yes.text}` accepts this meld; `{no.text}` rejects it"
        + (f" ({', '.join(found.broken)})" if found.broken else ""),
    ]
    move = _move(found.cards, run, discard)
    text = _text(header, f"diff/{name}", yes, seats, deal, move, "accept")
    other = _text(
        [header[0], f"the same steps on `{no.text}`: the meld is rejected"],
        f"diff/{name}-other-side",
        no,
        seats,
        deal,
        move,
        "reject",
    )
    witness = Witness(
        f"{name}.yaml",
        text,
        other,
        codes(found.cards),
        str(found.turned),
        run is not None,
        found.broken,
    )
    witness.problems = replay(witness, pair)
    return witness


def _move(cards: list[Card], run: list[Card] | None, discard: Card | None) -> str:
    if run is None:
        return f"meld, cards: {_flow(codes(cards))}"
    move = f"go_out, melds: [{_flow(codes(cards))}, {_flow(codes(run))}]"
    return move + (f", discard: {discard}" if discard else "")


def _hands(
    seats: int, mao_hand: list[Card], left: list[Card], hand_size: int
) -> dict[int, list[Card]]:
    """The mão's hand; every other seat gets the next cards of the pack that are left."""
    hands = {rummy.MAO: mao_hand}
    for seat in (s for s in range(seats) if s != rummy.MAO):
        hands[seat], left = left[:hand_size], left[hand_size:]
    return dict(sorted(hands.items()))


def _text(
    header: list[str],
    name: str,
    side: Side,
    seats: int,
    deal: tuple[dict[int, list[Card]], Card, Card],
    move: str,
    expect: str,
) -> str:
    hands, turned, drawn = deal
    lines = [f"# {line}" for line in header] + [
        "format: 1",
        f"scenario: {name}",
        f"game: {side.game.name}",
    ]
    if side.given:
        lines.append(
            "options: {" + ", ".join(f"{k}: {_scalar(v)}" for k, v in side.given.items()) + "}"
        )
    lines += [f"seats: {seats}", f"dealer: {rummy.DEALER}", "deal:", "  hands:"]
    lines += [f"    {seat}: {_flow(codes(cards))}" for seat, cards in hands.items()]
    lines += [
        f"  turned: {turned}",
        f"  stock: [{drawn}]",
        "steps:",
        f"  - {{seat: {rummy.MAO}, move: {{type: draw}}, expect: accept}}",
        f"  - {{seat: {rummy.MAO}, move: {{type: {move}}}, expect: {expect}}}",
    ]
    return "\n".join(lines) + "\n"


def _flow(items: list[str]) -> str:
    return "[" + ", ".join(items) + "]"


def _scalar(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "_" else "-" for ch in text)


def replay(witness: Witness, pair: Pair) -> list[str]:
    """Run both texts through the engine in-process; every step that went otherwise."""
    target = InProcessTarget({s.game.name: s.game for s in pair.sides})
    problems = []
    for text, source in (
        (witness.text, witness.name),
        (witness.other_text, witness.name.replace(".yaml", "-other-side.yaml")),
    ):
        report = run_scenario(load_text(text, source), target)
        problems += [str(f) for f in report.failures]
    return problems

"""What a mechanic is: the generic, reusable part of a family of games that a spec selects.

A mechanic owns its state type, the checkpoints its rules can judge (with their scopes), the
effects of moves, and the views. Everything game-specific comes from the spec. What the prover
asks of it (its rule book, the spec expressions it computes with, what a checkpoint accepts, its
own replay of a counterexample) is declared here too, so `referee.proofs` needs no mechanic's
class.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, Self

from typing_extensions import TypeVar

from referee.cards import Card, codes, missing_from
from referee.errors import SpecError
from referee.i18n.verdicts import unreadable
from referee.model import JSON, Event, Sentence, Violation
from referee.spec.keys import Key
from referee.spec.rules import RuleBook, SpecExpression
from referee.spec.schema import GameSpec
from referee.spec.sections import Shape, unknown_key


class State(Protocol):
    """What the engine asks of every mechanic's state: the seed chain's current link, which its
    shuffles are keyed by, and a copy to judge a move on."""

    seed: str

    def clone(self) -> Self: ...


# a mechanic's state (`RummyState`, ...): where the state's type is not known (a service holds
# tables of every game), `Table`, `Game` and `Judgement` alone mean any state
StateT = TypeVar("StateT", bound=State, default=Any)
Condition = tuple[Any, Any]  # (when, require), typed: a checkpoint accepts when all hold


@dataclass
class Judgement(Generic[StateT]):
    """The result of judging one move: violations (then `state` is None) or the new state."""

    violations: list[Violation] = field(default_factory=list)
    state: StateT | None = None
    events: list[Event] = field(default_factory=list)
    pending: bool = False  # accepted into the log, its effect awaiting others (a claim)

    @property
    def accepted(self) -> bool:
        return not self.violations

    @property
    def after(self) -> StateT:
        """The state an accepted move leads to (a rejected one leads to none)."""
        if self.state is None:
            raise ValueError("a rejected move leads to no state")
        return self.state


@dataclass(frozen=True)
class Move:
    """A move a mechanic serves, as its move table declares it: the handler that makes its
    effect, the fields the handler always reads (a spec declares them; it may declare more,
    optional ones the handler reads when present), and the checkpoints whose rules judge it (its
    own, the move's name, first). The handler's signature is its mechanic's own."""

    handler: Any
    fields: frozenset[str] = frozenset()
    judged: tuple[str, ...] = ()


@dataclass(frozen=True)
class Deadline:
    """A state that expires (a claim window, say): `after_ms` from when the table is seen in it,
    the mechanic's `expire` is due. `number` tells one deadline of a table from the next: the
    same number is the same deadline, armed once however often the table is reloaded."""

    number: int
    after_ms: int


@dataclass(frozen=True)
class Deal:
    """How a table starts: seats, dealer, options, and either a seed or a stacked deal."""

    seats: int
    dealer: int
    options: Mapping[str, Any]
    # the seed chain's first link (hex, secret): `chance.shuffle` keys every shuffle by it
    seed: str
    stacked: Mapping[str, Any] | None
    scores: Mapping[int, int] | None = None
    balances: Mapping[int, int] | None = None
    salt: str = ""  # the table's secret salt for the deck commitments (GEN-5)


def not_held(hand: list[Card], cards: list[Card]) -> Violation | None:
    """GEN-8: every card a move names must be in the proposer's hand. The engine's own check,
    whatever a spec's rules say: a card not held is never moved."""
    if len(cards) == 1:  # the common cases, without counting the hand
        if cards[0] in hand:
            return None
    elif len(set(cards)) == len(cards) and all(card in hand for card in cards):
        return None
    missing = missing_from(hand, cards)
    if not missing:
        return None
    shown = ", ".join(f"`{c}`" for c in missing)
    return unreadable(
        Sentence("hand.not_held", {"cards": shown}), code="card_not_held", cards=codes(missing)
    )


def _declared_fields(data: Any, move_type: str) -> set[str]:
    """The field names a spec's move declares, as written (one of a type it cannot read is still
    declared: that error is reported on its own)."""
    body = (data.get("moves") or {}).get(move_type) if isinstance(data, Mapping) else None
    fields = body.get("fields") if isinstance(body, Mapping) else None
    return set(map(str, fields)) if isinstance(fields, Mapping) else set()


class Mechanic(ABC, Generic[StateT]):
    name: ClassVar[str]
    # every key a spec may write in the sections the mechanic owns (`referee.spec.sections`)
    section_shapes: ClassVar[Mapping[str, Shape]] = {}
    # what each key of those sections means, by its path (`banking.kitty.shoot_settle`; `*`
    # for a key the spec names): every path of `section_shapes`, each told for a game's designer
    # as a sentence or a `Key` (type, default, context, meaning: `referee.spec.keys`;
    # docs/rules/mechanics.md is made of them)
    keys: ClassVar[Mapping[str, str | Key]] = {}

    # the moves the mechanic serves, its move table: move type -> its handler, fields, checkpoints
    moves: ClassVar[Mapping[str, Move]] = {}

    @classmethod
    def sections(cls) -> frozenset[str]:
        """The spec sections the mechanic owns."""
        return frozenset(cls.section_shapes)

    @classmethod
    def move_errors(cls, spec: GameSpec) -> list[SpecError]:
        """A spec move no handler serves (a misspelt `pick` for `draw`, or a `does:` naming no
        handler), or one leaving out a field its handler reads: errors at the spec's move, not
        rejections at the table."""
        located, errors = spec.located, []
        for move in spec.moves.values():
            path = ("moves", move.type)
            if move.handler not in cls.moves:
                where, at_key = (path + ("does",), False) if move.does else (path, True)
                errors.append(
                    located.error(
                        where,
                        unknown_key(move.handler, list(cls.moves), ("moves",))
                        + f" (the moves the `{cls.name}` mechanic serves)",
                        at_key=at_key,
                    )
                )
                continue
            declared = _declared_fields(located.data, move.type)
            for name in sorted(cls.moves[move.handler].fields - declared):
                errors.append(
                    located.error(
                        path,
                        f"the `{cls.name}` mechanic's move `{move.handler}` "
                        f"reads the field `{name}`: declare it under `fields`",
                    )
                )
        return errors

    def served(self, move_type: str) -> Move | None:
        """The handler that makes the spec's move `move_type` (its `does:`, else the handler of
        its name); None for a move the spec does not declare or no handler serves."""
        return self._handlers.get(move_type)

    rules: RuleBook  # the spec's rules, compiled checkpoint by checkpoint (set by `__init__`)

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        # the spec's move -> the handler that makes it, looked up once a proposal
        self._handlers = {
            name: self.moves[move.handler]
            for name, move in spec.moves.items()
            if move.handler in self.moves
        }

    @abstractmethod
    def new_state(self, deal: Deal) -> StateT:
        """The state after the deal; raises SetupError for a stacked deal that does not fit."""

    @abstractmethod
    def judge(
        self, state: StateT, seat: int, move_type: str, move: Mapping[str, Any]
    ) -> Judgement[StateT]:
        """Judge a parsed move on a copy of `state`; never changes `state` itself."""

    @abstractmethod
    def view(self, state: StateT, seat: int | None) -> dict[str, JSON]:
        """What `seat` may see (None: a spectator, ADJUDICATOR: everything)."""

    @abstractmethod
    def knowable(self, state: StateT, seat: int | None) -> frozenset[str]:
        """The canonical codes of the cards `seat` may know now (None: a spectator, ADJUDICATOR:
        every card): those its `view` shows, a finished hand's record aside (its cards may be back
        in play). What the referee sends a seat is cut to them (`referee.redaction`)."""

    def legal(self, state: StateT, seat: int) -> dict[str, JSON]:
        """The concrete moves `seat` may make now, where they are few: move type -> its choices
        (`{}`: the move without fields). Each is judged as if proposed; nothing is applied."""
        return {}

    @abstractmethod
    def is_over(self, state: StateT) -> bool:
        """True when no move can be accepted any more."""

    @abstractmethod
    def commitment(self, state: StateT) -> str:
        """The commitment (hash) of the deck being played, revealed when its hand ends."""

    def link(self, state: StateT) -> str:
        """The seed chain's current link, which the state's shuffles are keyed by."""
        return state.seed

    def reseed(self, state: StateT, link: str) -> StateT:
        """A copy of `state` whose later shuffles are keyed by `link` (entropy was mixed in)."""
        copy = state.clone()
        copy.seed = link
        return copy

    # -- deadlines: a state may expire by the clock; the table logs the expiry as its own move

    def deadline(self, state: StateT) -> Deadline | None:
        """When `state` expires, if it does (none by default)."""
        return None

    def expire(self, state: StateT) -> Judgement[StateT] | None:
        """What expiring does, now that the deadline of `state` has passed; None when `state`
        has no deadline (then nothing is logged)."""
        return None

    def has_deadlines(self, options: Mapping[str, Any]) -> bool:
        """Can a table with these options ever have a deadline? (A restarted referee loads only
        those tables to arm theirs again.)"""
        return False

    # -- the play clock (`referee.engine.play_clock`): whom the table waits for, the choices an
    # auto move may take, a seat leaving the hand or the match when its time runs out

    # the moves whose choices `candidates` lists (a spec's `clock.auto` may leave their fields out)
    listed: ClassVar[frozenset[str]] = frozenset()

    def awaited(self, state: StateT) -> tuple[int, ...]:
        """The seats the table waits for a move from now, whose clock runs: none while a claim
        window (which has a deadline of its own) is open, or once the game is over."""
        return ()

    def house(self, state: StateT) -> int | None:
        """The house seat the table plays for now, if any: a seat no player holds (a casino's
        dealer), whose every move the table makes itself, the spec's `house.auto` moves (`None`
        by default: every seat is a player's)."""
        return None

    def env_before(self, state: StateT, seat: int, move_type: str) -> dict[str, Any]:
        """What the rules of `move_type` read of the table and `seat` before any move is made
        (where the spec's clock expressions are evaluated)."""
        raise NotImplementedError(f"the `{self.name}` mechanic gives no context")

    def candidates(self, state: StateT, seat: int, move_type: str) -> list[dict[str, JSON]]:
        """The choices of a `listed` move for `seat` now, as a proposal's fields, in order."""
        return []

    def forfeit(self, state: StateT, seat: int) -> Judgement[StateT]:
        """`seat` is out of the hand being played (`on_timeout: forfeit`), scored as the
        mechanic's games are; the new state and what happened."""
        raise NotImplementedError(f"the `{self.name}` mechanic has no forfeit")

    def retire(self, state: StateT, seat: int) -> Judgement[StateT]:
        """`seat` is out of the match (its time ran out too often)."""
        raise NotImplementedError(f"the `{self.name}` mechanic has no retirement")

    # -- the director's adjustments: a ruling on a dispute (`referee.engine.rulings`)

    # what a ruling may adjust of a seat (`score`, `chips`): none by default
    tallies: ClassVar[tuple[str, ...]] = ()

    def adjust(self, state: StateT, seat: int, tally: str, amount: int) -> tuple[StateT, int]:
        """A copy of `state` in which `seat`'s `tally` (one of `tallies`) changed by `amount`,
        and the tally's value after."""
        raise NotImplementedError(f"the `{self.name}` mechanic keeps no `{tally}`")

    def describe(self) -> dict[str, JSON]:
        return {}

    # -- proofs: what `referee prove` and `referee diff` ask of a mechanic

    @property
    def expressions(self) -> Mapping[str, SpecExpression]:
        """The spec expressions the mechanic computes with, by dotted path (`banking.rank`):
        what a property may evaluate (none by default)."""
        return {}

    def acceptance(self, checkpoint: str) -> list[Condition]:
        """(when, require) pairs, typed, that hold exactly when `checkpoint` accepts. By default
        its rules' alone: a mechanic whose handlers add a condition of their own says so."""
        return [(r.typed_when, r.typed_require) for r in self.rules.rules_at(checkpoint)]

    def replay_accepts(
        self, checkpoint: str, given: Mapping[str, Any], cards: list[Card], turned: Card | None
    ) -> bool | None:
        """The mechanic's own verdict on a counterexample's `cards` at `checkpoint` (rummy: its
        meld checker), with the context names `given`; None: it has none, the rule book's
        verdict stands."""
        return None

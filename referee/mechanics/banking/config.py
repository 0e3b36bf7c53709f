"""The `banking` section of a spec, read and compiled: sizes, the expressions the mechanic
computes with, the optional parts the spec selects, and the ids and sentences of the
mechanic's own verdicts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import SpecError, SpecErrors
from referee.mechanics.banking.kitty import Kitty, KittyPart, NoKitty
from referee.mechanics.banking.visibility import DEFAULT, Visibility, read_visibility
from referee.model import Violation
from referee.spec.clock_options import CLOCK
from referee.spec.expr import BOOL, INT, Type
from referee.spec.rules import RULEBOOK_ID, RuleBook, SpecExpression
from referee.spec.schema import GameSpec, expression_at
from referee.spec.sections import ANY, VERDICT, Shape
from referee.spec.yamlsource import Located, PathKey

# the banking procedure as the spec may state it: two cards each, in two rounds; the spec says
# so, or leaves it out, and is refused if it asks for another
SIZES = {"hand_size": 2}
# after which round of the deal the players bet: the first (Pontoon), or before any card (0)
BET_AFTER_ROUND, BET_ROUNDS = "bet_after_round", (0, 1)
# what every banking game states: when a hand is over by itself, when it is bust, what the
# banker pays a hand still standing (negative: the hand pays the banker), and which finished
# hand has the pack shuffled for the next (no default fits every game: `true`, each hand)
EXPRESSIONS: dict[str, Type] = {"done": BOOL, "bust": BOOL, "settle": INT, "reshuffle": BOOL}
# what a game may state; left out, it never happens: the banker never wins at once, the bank
# never passes to a player (`rank` is what proofs compare hands by), a player leaving the hand
# before its bet pays nothing (a game with a play clock must state it: `_clock_needs`)
OPTIONAL_EXPRESSIONS: dict[str, Type] = {
    "rank": INT,
    "banker_wins_at_once": BOOL,
    "takes_bank": BOOL,
    "forfeit_before_bet": INT,
    "packs": INT,
    "buy_in": INT,
    "leaves": BOOL,
}
# GEN-10: the first card is dealt before the bets, so a player whose time runs out before it
# bets has seen a card of the hand; a game whose tables have a play clock says what that costs
CLOCK_NEEDS = ("forfeit_before_bet",)
AT_ONCE_EXPRESSIONS: dict[str, Type] = {"instant": INT}  # with `banker_wins_at_once`: each pays
KITTY_EXPRESSIONS: dict[str, Type] = {"shoot_settle": INT}  # the kitty part (`banking.kitty`)
# the mechanic's own verdicts, whose ids and sentences the spec gives (`banking.violations`),
# needed by a spec that declares the move giving them
VIOLATIONS_OF_MOVES = {"split": ("split_pack_short",)}
KITTY_MOVE = "kitty"  # the banker's move that puts up the kitty: with the kitty part only

SECTION_SHAPE: Mapping[str, Shape] = {
    key: None
    for key in (
        *SIZES,
        BET_AFTER_ROUND,
        *EXPRESSIONS,
        *OPTIONAL_EXPRESSIONS,
        *AT_ONCE_EXPRESSIONS,
        "visibility",
    )
} | {"kitty": {key: None for key in KITTY_EXPRESSIONS}, "violations": {ANY: VERDICT}}

# what each key of the section means, for a game designer (docs/rules/mechanics.md is made of it). The
# expressions are read over the `hand` context: the names of `contexts.py` (the hand judged:
# `cards`, `stake`, `paid`, `twisted`, `split_hand`; the banker's `banker_cards`; the table's
# `options`, `seat`, `banker`, `phase` ...), without `move`
KEYS: dict[str, str] = {
    "banking": (
        "The banking mechanic's section (a mapping): required. The banker plays against each "
        "player's hands; the Python deals, moves the chips and runs the hand, the keys below say "
        "what a hand is worth and what it is paid."
    ),
    "banking.hand_size": (
        "How many cards each hand is dealt: an integer, optional. The mechanic always deals two, "
        "one in each of two rounds, so it may only be 2 (anything else is refused)."
    ),
    "banking.bet_after_round": (
        "After which round of the deal the players bet: an integer, 1 (after the first card, "
        "Pontoon) or 0 (before any card is dealt: both rounds follow the last bet), optional, "
        "default 1."
    ),
    "banking.visibility": (
        "Who sees the cards dealt, a mapping, optional: `players` (every card of a player's "
        "hands) and `banker` (a list of two: its first and its second dealt card), each "
        "`public` (face up: every seat and a spectator), `owner` (face down: its holder sees "
        "it, the others `??`) or `hidden` (face down, seen by nobody, its holder neither, until "
        "the banker's turn, when the banker's cards turn face up). A twisted card is face up "
        "whatever it says; a hand shown (done by itself) and every hand at the end are public. "
        "Default `{players: owner, banker: [hidden, owner]}` (Pontoon's). The views and "
        "`knowable` follow it alike."
    ),
    "banking.packs": (
        "How many packs the shoe holds: an expression of type int over the `hand` context "
        "(`options.decks`), read once when the table is set up; optional, default 1. Every "
        "shuffle is of the whole shoe; the rules read `shoe_size` (its cards), `dealt` (the "
        "cards dealt since it was last shuffled) and `pack_left`."
    ),
    "banking.buy_in": (
        "The chips each seat starts with where the table's creation gives it no balance: an "
        "expression of type int over the `hand` context (`options.chips`), optional; left out, "
        "0. The rules read a seat's balance as `chips`."
    ),
    "banking.leaves": (
        "Whether a player leaves the table for good when a hand ends (out of chips: "
        "`chips < options.min_bet`): an expression of type bool over the `hand` context, asked "
        "of every player seat still at the table (never the banker's) once the hand is "
        "settled. Optional; left out, nobody leaves. Fewer than two seats left end the table."
    ),
    "banking.done": (
        "When a hand is over by itself (a pontoon, five cards, bust): an expression of type bool "
        "over the `hand` context, required. Asked after each card a player's hand gets, and of "
        "the banker's hand in its turn: a player's hand it holds for is shown and takes no more "
        "moves; the banker's ends its turn."
    ),
    "banking.bust": (
        "Whether a player's hand over by itself (`banking.done`) is bust: an expression of type "
        "bool over the `hand` context, required. A bust hand loses its stake to the banker (its "
        "shoot bets to the kitty) at once, and its cards go under the pack."
    ),
    "banking.settle": (
        "What the banker pays a player's hand still standing when the banker's hand is done: an "
        "expression of type int over the `hand` context (`banker_cards` the banker's final "
        "cards), required. The hand's stake comes back to its player with that amount; a "
        "negative amount is paid by the player to the banker (minus the stake: the stake is lost)."
    ),
    "banking.reshuffle": (
        "Whether a finished hand has the whole pack shuffled for the next: an expression of type "
        "bool over the `hand` context, required (`true`: after every hand). Asked of every hand "
        "at the table, the banker's too; when none holds, the cards used go under the pack "
        "unshuffled."
    ),
    "banking.rank": (
        "How good a hand is, higher is better: an expression of type int over the `hand` "
        "context, optional. The mechanic does not use it (`banking.settle` pays the hands): "
        "it is what proofs (`referee prove`) compare hands by."
    ),
    "banking.banker_wins_at_once": (
        "Whether the banker's two cards win the hand at once (Pontoon: a banker's pontoon): an "
        "expression of type bool over the `hand` context, asked of the banker's hand after the "
        "deal. Optional; left out, the banker never wins at once. When it holds the banker's "
        "cards are shown, each player is paid `banking.instant` and the hand ends unplayed: "
        "nobody takes the bank."
    ),
    "banking.instant": (
        "What each player's hand is paid when the banker wins at once, as `banking.settle` pays "
        "(negative: the player pays the banker; Pontoon: `-2 * stake`): an expression of type int "
        "over the `hand` context. Required with `banking.banker_wins_at_once`, refused without it."
    ),
    "banking.takes_bank": (
        "Whether a player's hand takes the bank for the next hand (Pontoon: a pontoon not on a "
        "split hand): an expression of type bool over the `hand` context, asked of every player "
        "hand when a played hand ends; the first such player after the banker banks next. "
        "Optional; left out, the bank changes hands only when sold (`offer_bank`, `accept_bank`) "
        "or when its banker's time runs out between hands (the play clock)."
    ),
    "banking.forfeit_before_bet": (
        "What a player out of the hand (its time ran out) after its first card and before its bet "
        "pays the banker: an expression of type int over the `hand` context; less than 0 counts "
        "as 0. Optional (left out: nothing), but a game with a play clock (`clock:`) must state "
        "it (GEN-10)."
    ),
    "banking.kitty": (
        "Selects the kitty part (Shoot Pontoon), a mapping; left out, there is no kitty. With it "
        "the banker puts up a kitty with the move `kitty` (which the spec must then declare, "
        "with an `amount` field) before the first bet, and `bet`, `split`, `buy` and `twist` may "
        "each lay a shoot bet against it (an optional `shoot` field). The rules read `kitty`, "
        "`shoot_total` and `shoot`."
    ),
    "banking.kitty.shoot_settle": (
        "What the kitty pays a hand's shoot bets when the hand is settled against the banker: an "
        "expression of type int over the `hand` context (`shoot` the hand's shoot bets), "
        "required with `banking.kitty`. The shoot bets come back with that amount; a negative "
        "amount goes to the kitty. A bust hand's shoot bets, and all of them when the banker "
        "wins at once, go to the kitty."
    ),
    "banking.violations": (
        "The mechanic's own verdicts, worded for the players: a mapping of verdict name to its "
        "verdict. Required when the spec declares a move that can give one: "
        "`split_pack_short` with the move `split`."
    ),
    "banking.violations.*": (
        "One verdict by its name: `split_pack_short`, a split refused because the pack holds "
        "fewer than two cards (its hand may still twist); another name is read and never given. "
        "A mapping of `id`, `source`, `text`, `note`."
    ),
    "banking.violations.*.id": (
        "The verdict's rule id, as a rejection cites it (a string): required."
    ),
    "banking.violations.*.source": (
        "The rulebook ids the verdict rests on (a list), optional; those other than its own id "
        "are cited with it."
    ),
    "banking.violations.*.text": (
        "The sentence a player reads, in each language of the spec (`{en: ..., tl: ...}`): "
        "required."
    ),
    "banking.violations.*.note": (
        "A note for the spec's readers (a decision's reasons), optional: never shown to a player."
    ),
}


def kitty_selected(spec: GameSpec) -> bool:
    """Does the spec select the kitty part (`banking.kitty`)?"""
    raw = spec.sections.get("banking")
    return isinstance(raw, dict) and "kitty" in raw


@dataclass(frozen=True)
class BankingConfig:
    """The `banking` section, compiled: each expression over the `hand` checkpoint (an optional
    one None when left out), the kitty part (`NoKitty` without it) and the mechanic's own
    verdicts by name. The sizes (`SIZES`) are checked, not kept: the procedure fixes them."""

    done: SpecExpression
    bust: SpecExpression
    settle: SpecExpression
    reshuffle: SpecExpression
    rank: SpecExpression | None
    banker_wins_at_once: SpecExpression | None
    takes_bank: SpecExpression | None
    forfeit_before_bet: SpecExpression | None
    instant: SpecExpression | None  # stated with `banker_wins_at_once`, and only with it
    kitty: KittyPart
    violations: Mapping[str, Violation]
    packs: SpecExpression | None = None
    buy_in: SpecExpression | None = None
    leaves: SpecExpression | None = None
    bet_after_round: int = 1
    visibility: Visibility = DEFAULT

    @property
    def split_pack_short(self) -> Violation:
        """A split refused: the pack cannot give each of its two hands a card."""
        return self.violations["split_pack_short"]

    @property
    def expressions(self) -> dict[str, SpecExpression]:
        """Every expression stated, by dotted path (`banking.settle`), the kitty part's too."""
        found = [
            self.done,
            self.bust,
            self.settle,
            self.reshuffle,
            self.rank,
            self.banker_wins_at_once,
            self.takes_bank,
            self.forfeit_before_bet,
            self.instant,
            self.packs,
            self.buy_in,
            self.leaves,
            *self.kitty.expressions(),
        ]
        return {e.path: e for e in found if e is not None}


def read_config(spec: GameSpec, rules: RuleBook) -> BankingConfig:
    """The `banking` section read and compiled; every error at its spot."""
    raw = spec.sections.get("banking")
    located = spec.located
    if not isinstance(raw, dict):
        raise SpecErrors(
            [located.error(("banking",), "the banking mechanic needs a `banking` section")]
        )
    sizes = [_size_error(located, raw, key, fixed) for key, fixed in SIZES.items()]
    if any(sizes):
        raise SpecErrors([error for error in sizes if error is not None])
    try:
        _clock_needs(spec, raw)
        return _compiled(spec, rules, raw)
    except SpecError as exc:
        raise SpecErrors([exc]) from None


def _compiled(spec: GameSpec, rules: RuleBook, raw: dict[str, Any]) -> BankingConfig:
    """The section's expressions, kitty part and verdicts, read in the order of its keys (the
    first error found is the one reported)."""
    read = _Reader(spec.located, rules, raw)
    done, bust, settle, reshuffle = map(read.required, EXPRESSIONS)
    rank, wins, takes_bank, forfeit_before_bet, packs, buy_in, leaves = map(
        read.optional, OPTIONAL_EXPRESSIONS
    )
    instant = read.at_once("instant", wins)
    kitty = _kitty(spec, rules, raw)
    wanted = [
        v for move, names in VIOLATIONS_OF_MOVES.items() if spec.declares(move) for v in names
    ]
    violations = _read_violations(spec.located, raw.get("violations"), wanted)
    return BankingConfig(
        done=done,
        bust=bust,
        settle=settle,
        reshuffle=reshuffle,
        rank=rank,
        banker_wins_at_once=wins,
        takes_bank=takes_bank,
        forfeit_before_bet=forfeit_before_bet,
        instant=instant,
        kitty=kitty,
        violations=violations,
        packs=packs,
        buy_in=buy_in,
        leaves=leaves,
        bet_after_round=_bet_after_round(spec.located, raw),
        visibility=read_visibility(spec.located, raw.get("visibility")),
    )


def _bet_after_round(located: Located, raw: dict[str, Any]) -> int:
    value = raw.get(BET_AFTER_ROUND, 1)
    if isinstance(value, bool) or value not in BET_ROUNDS:
        raise located.error(
            ("banking", BET_AFTER_ROUND),
            f"`banking.{BET_AFTER_ROUND}` is 1 (bets after the first card) or 0 (bets before "
            "any card is dealt)",
        )
    return int(value)


@dataclass(frozen=True)
class _Reader:
    """Reads the section's expressions, each typed as its table above says."""

    located: Located
    rules: RuleBook
    raw: dict[str, Any]

    def required(self, name: str) -> SpecExpression:
        return _expression(self.located, self.rules, self.raw, ("banking", name), EXPRESSIONS[name])

    def optional(self, name: str) -> SpecExpression | None:
        """Left out, None: it never holds, nothing is paid."""
        if name not in self.raw:
            return None
        typ = OPTIONAL_EXPRESSIONS[name]
        return _expression(self.located, self.rules, self.raw, ("banking", name), typ)

    def at_once(self, name: str, wins: SpecExpression | None) -> SpecExpression | None:
        typ = AT_ONCE_EXPRESSIONS[name]
        return _at_once(self.located, self.rules, self.raw, name, typ, wins)


def _at_once(
    located: Located,
    rules: RuleBook,
    raw: dict[str, Any],
    name: str,
    typ: Type,
    wins: SpecExpression | None,
) -> SpecExpression | None:
    """What the players pay when the banker wins at once: stated with that condition only (one
    left without it would be read and never used)."""
    if wins is not None:
        return _expression(located, rules, raw, ("banking", name), typ)
    if name in raw:
        raise located.error(
            ("banking", name),
            f"`banking.{name}` is paid when the banker wins at "
            "once: state when with `banking.banker_wins_at_once`",
        )
    return None


def _kitty(spec: GameSpec, rules: RuleBook, raw: dict[str, Any]) -> KittyPart:
    """The kitty part, when the spec selects it; the banker's `kitty` move goes with it."""
    located = spec.located
    if "kitty" not in raw:
        if spec.declares(KITTY_MOVE):
            raise located.error(
                ("moves", KITTY_MOVE),
                "the move `kitty` puts up the kitty: select the kitty part with `banking.kitty`",
            )
        return NoKitty()
    if not isinstance(raw["kitty"], dict):
        raise located.error(
            ("banking", "kitty"),
            "`banking.kitty` selects the kitty part: give its "
            + ", ".join(f"`{n}`" for n in KITTY_EXPRESSIONS),
        )
    if not spec.declares(KITTY_MOVE):
        raise located.error(
            ("banking", "kitty"), "a game with a kitty needs the banker's move `kitty` to put it up"
        )
    settle = _expression(located, rules, raw["kitty"], ("banking", "kitty", "shoot_settle"), INT)
    return Kitty(settle)


def _clock_needs(spec: GameSpec, raw: dict[str, Any]) -> None:
    """A game with a play clock (`clock:`) states what leaving the hand before the bet costs."""
    if not isinstance(spec.located.data, dict) or CLOCK not in spec.located.data:
        return
    for name in CLOCK_NEEDS:
        if name not in raw:
            raise spec.located.error(
                ("banking",),
                f"a game with a play clock states `banking.{name}`: what a player whose time "
                "runs out after its first card and before its bet pays the banker (GEN-10)",
            )


def _size_error(located: Located, raw: dict[str, Any], key: str, fixed: int) -> SpecError | None:
    if raw.get(key, fixed) == fixed and not isinstance(raw.get(key), bool):
        return None
    return located.error(
        ("banking", key),
        f"the banking mechanic deals two cards each, in two rounds: `banking.{key}` is {fixed}",
    )


def _expression(
    located: Located, rules: RuleBook, raw: dict[str, Any], path: PathKey, typ: Type
) -> SpecExpression:
    name = str(path[-1])
    dotted = ".".join(map(str, path))
    if name not in raw:
        raise located.error(path[:-1], f"`{dotted}` is missing")
    text, where = expression_at(located, path, raw[name])
    typed = rules.check_expression("hand", text, where, typ)
    return SpecExpression(dotted, "hand", typed, typed.compile())


def _read_violations(located: Located, raw: Any, wanted: list[str]) -> dict[str, Violation]:
    path: PathKey = ("banking", "violations")
    if raw is None and not wanted:
        return {}
    if not isinstance(raw, dict):
        raise located.error(
            path if raw is not None else ("banking",),
            "`banking.violations` gives an id, sources and a text for: "
            + ", ".join(f"`{n}`" for n in wanted),
        )
    result = {
        str(name): _violation(located, path + (name,), name, body) for name, body in raw.items()
    }
    missing = [n for n in wanted if n not in result]
    if missing:
        raise located.error(path, f"`banking.violations` is missing `{missing[0]}`")
    return result


def _violation(located: Located, path: PathKey, name: str, body: Any) -> Violation:
    """One named verdict: its id, the rulebook ids it cites, its sentence; `code` is its name."""
    if not isinstance(body, dict) or not isinstance(body.get("id"), str):
        raise located.error(path, "expected `{id: ..., source: [...], text: ...}`")
    text = body.get("text", "")
    message = text.get("en", "") if isinstance(text, dict) else str(text)
    if not message:
        raise located.error(path, f"verdict `{name}` needs a `text` for players")
    sources = body.get("source") or []
    cites = tuple(str(s) for s in sources if RULEBOOK_ID.match(str(s)) and s != body["id"])
    return Violation(body["id"], message, cites, code=str(name))


__all__ = ["KEYS", "SECTION_SHAPE", "BankingConfig", "kitty_selected", "read_config"]

# what a spec cannot change: the Python's, said plainly for a game's designer (docs/rules/
# mechanics.md is made of it); a key that makes one of these the spec's takes its line out
FIXED: tuple[str, ...] = (
    "The deal: two cards a hand, one in each of two rounds from the seat after the banker, the "
    "banker last (`banking.hand_size` may only be 2); the bets come before the deal or after "
    "its first round (`banking.bet_after_round`).",
    "The moves and what each does are the mechanic's (`bet`, `twist`, `stick`, `buy`, "
    "`split`, `burn`, `sit_out`, `next_hand`, ...: the move table); a spec declares those its "
    "game has, under its own names if it likes (`does:`), and no move of its own.",
    "The banker is a seat of the table: it sends its own moves in its turn, or the table plays "
    "them for it (`house:`, the first move its rules accept). The bank passes only by "
    "`banking.takes_bank`, a sale (`offer_bank`, `accept_bank`) or the play clock.",
    "What a seat sees: the players' cards and the banker's two first cards as "
    "`banking.visibility` says; a twisted card, a hand shown (done, bust, the banker's in its "
    "turn) and every hand at the end are public; table options are in no seat's view.",
    "Chips: every chip that moves is a transfer, and balances plus the stakes on the table "
    "never change in sum; what moves is the spec's (`banking.settle`, `banking.kitty`), how it "
    "moves the mechanic's.",
)

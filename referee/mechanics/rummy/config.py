"""The rummy mechanic's spec sections (`rummy`, `meld_kinds`, `scoring`): every key they may
hold (`SECTION_SHAPES`), what each one means (`KEYS`, for docs/mechanics.md), and what they
select and set, compiled (`RummyConfig`, read by `read_config`; the reader's parts are in
`reading.py`).

The optional parts a spec may select are each `None` (or off) when absent, and then change
nothing: the elimination match (`match`), the turned card (`turned_card`), claim windows and
their priority (`claims`), the chips each hand settles (`settlement`), the hands a game without
a match deals (`hands`, one). So are the moves: one the spec does not declare is not offered,
and the verdicts only it could give are not asked for (`reading.VERDICTS`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.cards import Card, codes
from referee.mechanics.rummy.melds import MeldKind
from referee.mechanics.rummy.parts import ClaimRules, MatchRules
from referee.mechanics.rummy.reading import (
    VERDICTS,
    Reader,
    checkpoint_expression,
    joker_test,
    read_claims,
    read_kinds,
    read_match,
    read_packets,
    read_settlement,
    read_violations,
)
from referee.model import Violation
from referee.spec.rules import RuleBook, SpecExpression
from referee.spec.schema import GameSpec, Where
from referee.spec.sections import ANY, VERDICT, Shape

SECTION_SHAPES: Mapping[str, Shape] = {
    "rummy": {
        "hand_size": None,
        "packets": None,
        "steal_bonus": None,
        # the optional parts, each selected by its key
        "turned_card": None,
        "settlement": {"pays": None, "source": None, "note": None},
        "hands": None,
        "claims": {"option": None, "window": None, "deadline": None, "priority": None},
        "match": {
            "blow_at": None,
            "stake": None,
            "drop_percent": None,
            "reentry_doubling": None,
            "reentry_score": None,
        },
        "violations": {name: VERDICT for name in VERDICTS},
    },
    "meld_kinds": {
        ANY: {"source": None, "shape": None, "misfit": VERDICT, "wild": None, "extend": None}
    },
    "scoring": {"hand_points": None, "source": None},
}


def _verdict_keys(path: str, given: str) -> dict[str, str]:
    """The keys of one of the mechanic's own verdicts (`VERDICT`), given when `given`."""
    return {
        path: f"A verdict of the mechanic's own, given when {given}: a mapping of `id`, "
        "`text` and optionally `source` and `note`, shown and cited as a rule is.",
        f"{path}.id": "Required text: the id the verdict is shown and cited under, as a rule's.",
        f"{path}.source": "Optional list: where the verdict comes from (rulebook ids, seeds); "
        "the rulebook ids other than its own `id` are cited with it.",
        f"{path}.text": "The sentence a player reads, one per language of the spec (`{en: ..., "
        "pt: ...}`), or one text. Left out, the verdict has no sentence and the rulebook does "
        "not list it.",
        f"{path}.note": "Optional text for the rulebook: a decision where the rules are silent "
        "starts `decision:`.",
    }


# the mechanic's own verdicts, each: when it is given
VERDICT_GIVEN = {
    "no_meld": "cards laid as a new meld fit the `shape` of no meld kind (in `meld`, "
    "`take_discard` with a `meld` field, `go_out` with `melds`, `swap_joker`, whichever of "
    "these the spec has)",
    "ambiguous_layoff": "cards laid off without `at` on a meld of an `extend: ends` kind fit at "
    "both of its ends, read differently (in `layoff`, `take_discard` with a `layoff` field, "
    "`go_out` with `layoffs`)",
    "steal": "the natural card a steal names can take the place of none of the meld's jokers "
    "(in `go_out` with `steals`, `swap_joker`)",
    "empty_stock": "a `draw` finds the stock empty and fewer than two cards in the discard pile "
    "to rebuild it from (all but the top card, shuffled from the table seed)",
    "no_discard": "a move takes the top discard (`take_discard`, `go_out` with `take`) and the "
    "discard pile is empty",
}

# every key of `SECTION_SHAPES`, dotted (`*`: a name the spec chooses), for a game designer
KEYS: dict[str, str] = {
    "rummy": "Required mapping: the parameters of the rummy mechanic (hands, deals, scoring "
    "bonuses, and the optional parts a game selects: `turned_card`, `claims`, `match`, "
    "`settlement`, `hands`). The moves are the spec's to choose among the mechanic's: a game "
    "whose melds are laid only when going out, the whole hand at once, declares neither `meld` "
    "nor `layoff` (nor `swap_joker`), and a `go_out` with `melds` and perhaps `discard` only; "
    "its rules say when it may be made (after a draw) and that it leaves no card in hand. A "
    "seat's `legal` then lists its ways to go out.",
    "rummy.hand_size": "Required positive integer: how many cards each seat is dealt at the "
    "start of a hand.",
    "rummy.packets": "Optional mapping `{option: NAME, VALUE: SIZE, ...}`: how many cards a "
    "seat is dealt at a time, by the value of the table option NAME (every value needs a "
    "size). Left out: one card at a time. The deal goes round from the seat after the dealer.",
    "rummy.steal_bonus": "Optional expression of type int over the `scoring` context (read "
    "with no hand and score 0: `options`, `turned`): the points added, when a hand is scored, "
    "to a seat for each joker another seat stole from its melds. Left out: 0. Taking back a "
    "joker from one's own meld costs nothing.",
    "rummy.turned_card": "Optional `true` or `false` (default `false`): the deal turns the card "
    "after the hands face up. It is the first discard, nobody's, and the rules read it as "
    "`turned` (`is_joker` usually does), the moves' rules also `top_is_turned` and "
    "`turned_covered`. Without it no context has these names.",
    "rummy.settlement": "Optional mapping: chips settled at the end of each hand someone went "
    "out of (a void hand settles nothing), between the seats' balances (GEN-6: every chip "
    "moves by a `transfer` event, none is made or lost; the balances are in every view). Left "
    "out: a hand moves no chips (a `match` may still move its stakes).",
    "rummy.settlement.pays": "Required expression of type int over the `scoring` context "
    "(`options`, `turned`, `hand`: the paying seat's cards left, `score`: its total before this "
    "hand, in a match), read once for each seat dealt in that did not go out: the chips it pays "
    "the seat that went out (`transfer` with the reason `settlement`). An amount of 0 or less "
    "moves nothing.",
    "rummy.settlement.source": "Optional list: where the settlement comes from (rulebook ids, "
    "seeds), for a reader; the mechanic does not read it.",
    "rummy.settlement.note": "Optional text for a reader: a decision where the rules are silent "
    "starts `decision:`.",
    "rummy.hands": "Optional expression of type int over the `scoring` context (read with no "
    "hand and score 0: `options`, `turned`), for a game without `match`: how many hands are "
    "dealt, the deal passing to the next seat each hand. Left out: 1, one hand is the whole "
    "game. The game's winner is whoever went out of the last hand (none if it ended void).",
    "rummy.claims": "Optional mapping, all four keys required: claim windows. At a table whose "
    "option `option` has the value `window`, each discard opens a window in which every seat "
    "playing but the discarder may claim it (`take_discard`, or `go_out` taking it) or `pass`; "
    "it closes when all have answered or at its deadline, and one claim wins. The moves' rules "
    "read `window_open`, `responded` and `claims_closed`. Left out: a discard opens no window, "
    "and no context has these names.",
    "rummy.claims.option": "Required option name: the table option choosing how claims on a "
    "discard are settled.",
    "rummy.claims.window": "Required text: the value of `rummy.claims.option` at which a "
    "discard opens a claim window (any other value: no window).",
    "rummy.claims.deadline": "Required option name: the table option holding a window's length "
    "in milliseconds; a seat that has not answered by then has passed.",
    "rummy.claims.priority": "Required non-empty list of orders, first decides: which of "
    "several claims wins. `goes_out`: a claim that goes out before one that does not; "
    "`nearest_after_discarder`: the claimant nearest after the discarder in play order, "
    "which also breaks any tie left.",
    "rummy.match": "Optional mapping: the elimination match. Hands are dealt until one seat is "
    "left under `blow_at`; a blown seat may re-enter where the spec's `reenter` rules accept "
    "it. The moves' rules read `score`, `deciding`, `reentries`, `blows`, `under` and "
    "`playing`. Left out: one hand is the whole game, whoever goes out wins it, no context has "
    "these names, and the spec may have no `reenter` or `decline` move.",
    "rummy.match.blow_at": "Required integer: a seat whose match total is at or over it after "
    "a hand is blown: out of the match, unless it re-enters.",
    "rummy.match.stake": "Optional option name: the table option holding the entry stake in "
    "chips, paid into the pot by every seat when the match starts; the last seat in takes "
    "the pot; the drops and the re-entry price are counted from it. Left out (or 0): no chips "
    "move.",
    "rummy.match.drop_percent": "Optional integer (default 0): the percent of the stake every "
    "other seat still in pays whoever went out, after each hand the match goes on from.",
    "rummy.match.reentry_doubling": "Optional `true` or `false` (default `false`): a re-entry "
    "costs the stake doubled for each earlier blow of the seat (1x, 2x, 4x ...); otherwise "
    "the stake once.",
    "rummy.match.reentry_score": "Expression of type int over `options` and `still_in` (the "
    "scores of the seats still in, in seat order; definitions reach it with `on: reentry`): "
    "the total a blown seat re-enters at. Required where the spec has a `reenter` move.",
    "rummy.violations": "Required mapping: the mechanic's own verdicts, each worded by the "
    "spec. A verdict is required where the spec has a move (or a move's field) that can give "
    "it; a move the spec does not declare is not offered, and its verdicts are not needed.",
    **{
        key: text
        for name, given in VERDICT_GIVEN.items()
        for key, text in _verdict_keys(f"rummy.violations.{name}", given).items()
    },
    "meld_kinds": "Required mapping: the kinds of meld (a trio, a sequence), tried in the order "
    "written. Cards are a meld of the first kind whose `shape` holds and whose rules (`on:` "
    "the kind's name, a checkpoint of its own) all hold.",
    "meld_kinds.*": "A meld kind, named by the spec: its name is a checkpoint whose context is "
    "every move's and the cards read as one meld (`cards`, `place`, `new`, `kind`).",
    "meld_kinds.*.source": "Optional list: where the kind comes from (rulebook ids, seeds), "
    "for a reader; the mechanic does not read it.",
    "meld_kinds.*.shape": "Required expression of type bool over the kind's checkpoint: do the "
    "cards have this kind's form at all (one rank, one suit)? Cards of no kind's shape get "
    "the verdict `rummy.violations.no_meld`.",
    **_verdict_keys(
        "meld_kinds.*.misfit",
        "cards laid off on a meld of the kind break its `shape` (needed where a move lays off: "
        "`layoff`, `take_discard` with `layoff`, `go_out` with `layoffs`)",
    ),
    "meld_kinds.*.wild": "Required expression of type bool over the kind's checkpoint, asked at "
    "each `place` of the cards: is the card there a joker standing for another card? A steal "
    "takes back such a card.",
    "meld_kinds.*.extend": "Required, `append` or `ends`: where a lay-off adds cards. `append`: "
    "after the meld's cards (a trio); `ends`: before or after them, as the move's `at` says "
    "(`low`, `high`), or else the cards tell (fitting at both ends, read differently: "
    "`rummy.violations.ambiguous_layoff`).",
    "scoring": "Required mapping: what a seat adds to its total when a hand ends.",
    "scoring.hand_points": "Required expression of type int over the `scoring` context "
    "(`options`, `turned`, `hand`: the cards left, `score`: the seat's total before this "
    "hand, in a match): what each seat that did not go out adds. The seat that went out adds "
    "nothing; a void hand scores nothing.",
    "scoring.source": "Optional list: where the scoring comes from (rulebook ids, seeds), for a "
    "reader; the mechanic does not read it.",
}


@dataclass(frozen=True)
class RummyConfig:
    hand_size: int
    packet_option: str | None
    packets: Mapping[str, int]
    bonus: Callable[[Mapping[str, Any]], int]  # per joker stolen from a seat's meld
    match: MatchRules | None  # None: one hand is the whole game
    turned_card: bool  # the deal turns a card: the first discard, read by `turned`
    claims: ClaimRules
    kinds: list[MeldKind]
    violations: Mapping[str, Violation]
    joker_test: Callable[[Mapping[str, Any]], bool]
    points: Callable[[Mapping[str, Any]], int]
    settle: Callable[[Mapping[str, Any]], int] | None  # chips a seat pays who went out
    hand_count: Callable[[Mapping[str, Any]], int]  # hands a game without a match deals
    shapes: Mapping[str, tuple[str, Where]]  # kind -> its shape expression (for proofs)
    # the spec expressions the mechanic computes with, by dotted path (for proofs)
    expressions: Mapping[str, SpecExpression]

    @property
    def no_meld(self) -> Violation:
        return self.verdict("no_meld")

    @property
    def ambiguous(self) -> Violation:
        return self.verdict("ambiguous_layoff")

    def verdict(self, name: str) -> Violation:
        """The spec's wording of one of the mechanic's verdicts. A spec gives each verdict a move
        of its can give (`reading.VERDICTS`); one it need not give reads as its name alone."""
        return self.violations.get(name) or Violation(name, name.replace("_", " "))

    def packet(self, options: Mapping[str, Any]) -> int:
        if self.packet_option is None:
            return 1
        return int(self.packets[options[self.packet_option]])

    def is_joker(self, options: Mapping[str, Any], turned: Card | None, card: Card) -> bool:
        return bool(self.joker_test({**_table(options, turned), "c": card}))

    def hand_points(
        self, options: Mapping[str, Any], turned: Card | None, hand: list[Card], score: int
    ) -> int:
        return int(self.points({**_table(options, turned), "hand": hand, "score": score}))

    def pays(
        self, options: Mapping[str, Any], turned: Card | None, hand: list[Card], score: int
    ) -> int:
        """What a seat left with `hand` pays whoever went out (`rummy.settlement`; 0: nothing)."""
        if self.settle is None:
            return 0
        return max(0, int(self.settle({**_table(options, turned), "hand": hand, "score": score})))

    def hands(self, options: Mapping[str, Any], turned: Card | None) -> int:
        """How many hands a game without a match deals (`rummy.hands`)."""
        return int(self.hand_count({**_table(options, turned), "hand": [], "score": 0}))

    def windows(self, options: Mapping[str, Any]) -> bool:
        """Does a discard open a claim window at this table (the option `rummy.claims` names)?"""
        rules = self.claims
        return rules.option is not None and options.get(rules.option) == rules.window_value

    def window_ms(self, options: Mapping[str, Any]) -> int:
        return int(options.get(self.claims.deadline_option or "", 0))

    def steal_bonus(self, options: Mapping[str, Any], turned: Card | None) -> int:
        return int(self.bonus({**_table(options, turned), "hand": [], "score": 0}))

    def violation(self, name: str, cards: list[Card] | None = None) -> Violation:
        v = self.verdict(name)
        return Violation(v.rule, v.message, v.cites, tuple(codes(cards or [])), name)


def read_config(spec: GameSpec, rules: RuleBook) -> RummyConfig:
    """The three sections read and compiled; a `SpecError` at the key of the first one wrong."""
    reader = Reader(spec)
    rummy = reader.section("rummy")
    hand_size = rummy.get("hand_size")
    if not isinstance(hand_size, int) or hand_size < 1:
        raise reader.error(("rummy", "hand_size"), "`hand_size` must be a positive integer")
    packet_option, packets = read_packets(reader, rummy.get("packets"))
    scoring = reader.section("scoring")
    bonus = checkpoint_expression(
        reader, rules, "scoring", ("rummy", "steal_bonus"), rummy.get("steal_bonus", 0)
    )
    points = checkpoint_expression(
        reader, rules, "scoring", ("scoring", "hand_points"), scoring.get("hand_points")
    )
    match, reentry = read_match(reader, rummy.get("match"))
    settle = read_settlement(reader, rules, rummy.get("settlement"))
    if match is not None and "hands" in rummy:
        raise reader.error(("rummy", "hands"), "a `match` deals hands until it is won: no `hands`")
    hand_count = checkpoint_expression(
        reader, rules, "scoring", ("rummy", "hands"), rummy.get("hands", 1)
    )
    turned_card = rummy.get("turned_card", False)
    if not isinstance(turned_card, bool):
        raise reader.error(("rummy", "turned_card"), "`turned_card` is `true` or `false`")
    return RummyConfig(
        hand_size=hand_size,
        packet_option=packet_option,
        packets=packets,
        bonus=bonus,
        match=match,
        turned_card=turned_card,
        claims=read_claims(reader, rummy.get("claims")),
        kinds=read_kinds(reader, rules),
        violations=read_violations(reader, rummy.get("violations")),
        joker_test=joker_test(reader, rules),
        points=points,
        settle=settle,
        hand_count=hand_count,
        shapes={
            str(name): reader.expression(("meld_kinds", name, "shape"), body["shape"])
            for name, body in reader.section("meld_kinds").items()
        },
        expressions={
            e.path: e for e in (bonus, points, reentry, settle, hand_count) if e is not None
        },
    )


def _table(options: Mapping[str, Any], turned: Card | None) -> dict[str, Any]:
    """What the expressions outside a move read of the table: the turned card only where the
    spec turns one (otherwise `turned` is no name of theirs)."""
    return {"options": options} if turned is None else {"options": options, "turned": turned}


# what a spec cannot change: the Python's, said plainly for a game's designer (docs/rules/
# mechanics.md is made of it); a key that makes one of these the spec's takes its line out
FIXED: tuple[str, ...] = (
    "The turn: take a card (`draw` from the stock, or `take_discard`), then lay melds, lay off "
    "and steal jokers as the rules allow, then `discard`; going out ends the hand. A stock "
    "drawn empty is rebuilt from the discard pile but its top card.",
    "The moves and what each does are the mechanic's (`draw`, `take_discard`, `meld`, "
    "`layoff`, `discard`, `go_out`, `swap_joker`, `pass`, `reenter`, `decline`: the move "
    "table); a spec declares those its game has (and, for `go_out`, the fields it has), under "
    "its own names if it likes (`does:`), and no move of its own.",
    "What a seat sees: its own hand, how many cards the others hold, the melds, the top discard "
    "and the stock's size; every hand is shown when the hand is over. A spec declares no other "
    "visibility.",
    "Scoring: `scoring.hand_points` is added to each seat's total when a hand ends; chips move "
    "in the elimination match (`rummy.match`) or, without one, in a settlement each hand "
    "(`rummy.settlement`: what each other seat pays whoever went out), and in no other way.",
)

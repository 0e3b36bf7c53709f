"""The `tricks` section of a spec, read and compiled: the teams, the sizes of a deal, the card
turned at the deal, and the expressions the mechanic computes with (how it deals, who wins a
trick, who owns each card at the count and what it is worth, what the dealer's discard
announces, the game points a deal gives, how many deals a game is or when it is over).
`KEYS` says what each key means, for docs/rules/mechanics.md."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import SpecError, SpecErrors
from referee.spec.expr import BOOL, INT, Type
from referee.spec.rules import RuleBook, SpecExpression
from referee.spec.schema import GameSpec, expression_at
from referee.spec.sections import Shape

# expression -> (the context it reads, its type)
EXPRESSIONS: dict[str, tuple[str, Type]] = {
    "packet": ("setup", INT),
    "winner": ("trick_end", INT),
    "owner": ("count", INT),
    "points": ("count", INT),
}
OPTIONAL_EXPRESSIONS: dict[str, tuple[str, Type]] = {
    "announce": ("discard", INT),  # published with the dealer's discard
    "deals": ("setup", INT),  # deals in a game (default 1)
    "game_points": ("deal_end", INT),  # a team's game points for the deal just counted
    "game_over": ("match_end", BOOL),  # after each deal: is the game over?
}

# `tricks.turned`: which card is turned at the deal, and how long it stays face up
TURNED_CARDS = ("dealer_last",)
TURNED_VISIBILITY = ("public",)
TURNED_UNTIL = ("played", "deal_end")

SECTION_SHAPES: Mapping[str, Shape] = {
    "tricks": {
        key: None
        for key in (
            *EXPRESSIONS,
            *OPTIONAL_EXPRESSIONS,
            "teams",
            "hand_size",
            "dealer_extra",
            "turned",
        )
    }
}


@dataclass(frozen=True)
class Turned:
    """`tricks.turned`: the card turned face up at the deal, read as `turned` by every context
    of the deal, shown to every seat and a spectator while it is face up."""

    card: str  # which card: `dealer_last`, the last card dealt to the dealer
    until: str  # face up until its holder plays it (`played`), or the whole deal (`deal_end`)


@dataclass(frozen=True)
class TricksConfig:
    """Every `tricks.*` value: sizes as they are, expressions compiled over the context each
    reads (None: an optional one left out)."""

    teams: tuple[tuple[int, ...], ...]  # the seats of each team, by team number
    hand_size: int  # the cards dealt to each seat
    dealer_extra: int  # the dealer's cards over `hand_size`, discarded before the first trick
    packet: SpecExpression  # cards a seat gets at a time (`setup`)
    winner: SpecExpression  # the index in the trick of the card that wins it (`trick_end`)
    owner: SpecExpression  # the team that owns a card at the count (`count`)
    points: SpecExpression  # what a card is worth at the count (`count`)
    announce: SpecExpression | None  # what the dealer's discard announces (`discard`)
    deals: SpecExpression | None  # the deals a game is (`setup`; None: one)
    game_points: SpecExpression | None = None  # a team's game points a deal (`deal_end`)
    game_over: SpecExpression | None = None  # is the game over (`match_end`; None: `deals`)
    turned: Turned | None = None  # the card turned at the deal (None: none)

    @property
    def expressions(self) -> dict[str, SpecExpression]:
        """The `tricks.*` expressions stated, by dotted path: what `referee prove` evaluates."""
        stated = (
            self.packet,
            self.winner,
            self.owner,
            self.points,
            self.announce,
            self.deals,
            self.game_points,
            self.game_over,
        )
        return {e.path: e for e in stated if e is not None}

    def deals_in(self, options: Mapping[str, Any], seats: int) -> int:
        """How many deals a game is at this table."""
        if self.deals is None:
            return 1
        return int(self.deals({"options": options, "seats": seats}))


def read_config(spec: GameSpec, rules: RuleBook) -> TricksConfig:
    """The spec's `tricks` section, checked and compiled (every expression's error reported at
    once, with the check that the pack holds the cards dealt)."""
    raw = spec.sections.get("tricks")
    if not isinstance(raw, dict):
        raise SpecErrors(
            [spec.located.error(("tricks",), "the tricks mechanic needs a `tricks` section")]
        )
    teams = _teams(spec, raw.get("teams"))
    hand_size = _count(spec, raw, "hand_size", least=1)
    dealer_extra = _count(spec, raw, "dealer_extra", least=0, default=0)
    errors: list[SpecError] = []
    compiled = _expressions(spec, rules, raw, errors)
    dealt_error = _dealt_error(spec, hand_size, dealer_extra)
    if dealt_error is not None:
        errors.append(dealt_error)
    if "deals" in raw and "game_over" in raw:
        message = "say when a game is over once: `tricks.deals` or `tricks.game_over`"
        errors.append(spec.located.error(("tricks", "game_over"), message))
    turned = _turned(spec, raw.get("turned"), errors)
    if errors:
        raise SpecErrors(errors)
    return TricksConfig(
        teams,
        hand_size,
        dealer_extra,
        packet=compiled["packet"],
        winner=compiled["winner"],
        owner=compiled["owner"],
        points=compiled["points"],
        announce=compiled.get("announce"),
        deals=compiled.get("deals"),
        game_points=compiled.get("game_points"),
        game_over=compiled.get("game_over"),
        turned=turned,
    )


def _turned(spec: GameSpec, raw: Any, errors: list[SpecError]) -> Turned | None:
    """`tricks.turned`: `{card: dealer_last, visibility: public, until: played}`."""
    if raw is None:
        return None
    allowed = {"card": TURNED_CARDS, "visibility": TURNED_VISIBILITY, "until": TURNED_UNTIL}
    if not isinstance(raw, dict) or "card" not in raw or set(raw) - set(allowed):
        errors.append(
            spec.located.error(
                ("tricks", "turned"),
                "`tricks.turned` must be a mapping of `card` and optionally `visibility` and "
                "`until`: `{card: dealer_last, visibility: public, until: played}`",
            )
        )
        return None
    chosen = {"visibility": "public", "until": "played", **raw}
    for key, values in allowed.items():
        if chosen[key] not in values:
            names = ", ".join(f"`{v}`" for v in values)
            errors.append(
                spec.located.error(
                    ("tricks", "turned", key), f"`tricks.turned.{key}` must be one of {names}"
                )
            )
    return Turned(str(chosen["card"]), str(chosen["until"]))


def _expressions(
    spec: GameSpec, rules: RuleBook, raw: Mapping[str, Any], errors: list[SpecError]
) -> dict[str, SpecExpression]:
    """Each expression the section must state, and each optional one it does, compiled over
    its context; what is missing or wrong goes to `errors`."""
    located = spec.located
    wanted = {**EXPRESSIONS, **{k: v for k, v in OPTIONAL_EXPRESSIONS.items() if k in raw}}
    compiled: dict[str, SpecExpression] = {}
    for name, (context, typ) in wanted.items():
        if name not in raw:
            errors.append(located.error(("tricks",), f"`tricks.{name}` is missing"))
            continue
        text, where = expression_at(located, ("tricks", name), raw[name])
        try:
            typed = rules.check_expression(context, text, where, typ)
            compiled[name] = SpecExpression(f"tricks.{name}", context, typed, typed.compile())
        except (SpecError, SpecErrors) as exc:
            errors.extend(exc.errors if isinstance(exc, SpecErrors) else [exc])
    return compiled


def _dealt_error(spec: GameSpec, hand_size: int, dealer_extra: int) -> SpecError | None:
    """The largest table's hands and the dealer's extra cards must fit in the pack."""
    dealt, pack = spec.seats_max * hand_size + dealer_extra, len(spec.pack())
    if dealt <= pack:
        return None
    return spec.located.error(
        ("tricks", "hand_size"),
        f"{spec.seats_max} hands of {hand_size} and {dealer_extra} more "
        f"need {dealt} cards; the pack holds {pack}",
    )


def _teams(spec: GameSpec, raw: Any) -> tuple[tuple[int, ...], ...]:
    """`tricks.teams`: a partition of the seats (every seat of the largest table in one team)."""
    seats = set(range(spec.seats_max))
    if (
        not isinstance(raw, list)
        or not all(isinstance(t, list) and t for t in raw)
        or sorted(s for t in raw for s in t) != sorted(seats)
        or spec.seats_min != spec.seats_max
    ):
        raise SpecErrors(
            [
                spec.located.error(
                    ("tricks", "teams"),
                    "`tricks.teams` must list every "
                    "seat once, in teams, for a fixed number of seats",
                )
            ]
        )
    return tuple(tuple(int(s) for s in team) for team in raw)


def _count(
    spec: GameSpec, raw: Mapping[str, Any], key: str, least: int, default: int | None = None
) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise SpecErrors(
            [
                spec.located.error(
                    ("tricks", key), f"`tricks.{key}` must be an integer of at least {least}"
                )
            ]
        )
    return value


# every key of `SECTION_SHAPES`, for a game designer (docs/rules/mechanics.md is generated from it)
KEYS: dict[str, str] = {
    "tricks": (
        "The trick-taking mechanic's section (a mapping): required. The Python deals, moves the "
        "cards to the trick and the trick to its winner, and counts each deal; the keys below "
        "say how the deal is dealt, which card wins a trick, who owns each card at the count "
        "and what it is worth. Which card a seat may play is the spec's rules."
    ),
    "tricks.packet": (
        "Required: an expression of type int over the `setup` context (`options`, `seats`): "
        "how many cards each seat gets at a time, dealt round the table from the seat after "
        "the dealer until every hand holds `tricks.hand_size`; the dealer's extra cards come "
        "last, in one go. A table whose options make it less than 1 is refused when it opens."
    ),
    "tricks.winner": (
        "Required: an expression of type int over the `trick_end` context (`options`, "
        "`trick`: the cards in the order played, `leader`: the seat that led): the index in "
        "`trick` of the card that wins it. The winner's seat leads the next trick; an index "
        "outside the trick is a fault of the spec (`referee prove` can show there is none)."
    ),
    "tricks.owner": (
        "Required: an expression of type int over the `count` context: the team (its number "
        "in `tricks.teams`) that owns `card` at the deal's count, asked for each card of each "
        "trick (`taker`: the team that won it, `player_team`: the team that played it) and "
        "each card of the dealer's discard (`in_discard` true, `taker` -1, `player_team` the "
        "dealer's team). A number that is no team is a fault of the spec."
    ),
    "tricks.points": (
        "Required: an expression of type int over the `count` context: what `card` is worth "
        "at the count (asked with `taker` and `player_team` -1 and `in_discard` false: it "
        "reads the card, `options`, `dealer_team`, `tricks`). A team's points for a deal are "
        "those of the cards `tricks.owner` gives it; a seat leaving a deal early gives every "
        "card of the pack to the next seat's team."
    ),
    "tricks.announce": (
        "Optional: an expression of type int over the `discard` checkpoint (what the dealer's "
        "`discard` move reads): a number made public with the discard, as `trumps` in its "
        "event and `announced_trumps` in the views (the discarded cards stay hidden). Left "
        "out, nothing is announced."
    ),
    "tricks.deals": (
        "Optional: an expression of type int over the `setup` context (`options`, `seats`): "
        "how many deals a game is; the deal passes to the next seat each time and the teams' "
        "points are added up, the best total winning (a tie at the top: no winner). Left "
        "out, a game is one deal (unless `tricks.game_over` says when it is over: state "
        "one of the two)."
    ),
    "tricks.turned": (
        "Optional: a mapping `{card: dealer_last, visibility: public, until: played}`: a card "
        "turned face up at each deal. `card` says which: `dealer_last`, the last card dealt to "
        "the dealer (in a stacked deal, the last listed in the dealer's hand), which stays in "
        "the dealer's hand. `visibility`: `public` (the only value): every seat and a spectator "
        "see it, as `turned` (`{seat, card}`) in the views. `until` (default `played`): it is "
        "face up until its holder plays it (the view's `turned` is then null), or `deal_end`: "
        "for the whole deal. Every context of the deal (each move's, `trick_end`, `count`, "
        "`deal_end`) reads it as `turned`, a card, whether face up or not: `is_trump(c)` may be "
        "`suit(c) == suit(turned)`, a definition whose `on:` names the checkpoints of the deal "
        "that read it (`setup` and `match_end` have no `turned`). Left out, no card is turned "
        "and no context has `turned`."
    ),
    "tricks.game_points": (
        "Optional: an expression of type int over the `deal_end` context (`options`, `team`, "
        "`points`: each team's card points for the deal, by team number, `tricks`: the tricks "
        "each team won, `dealer_team`, `hand_number`, and `turned` with `tricks.turned`): the "
        "game points `team` scores for the deal just counted, asked once for each team. The "
        "game points are added up deal after deal (`game_points` in the views, per team; each "
        "deal's in `last_hand` and the `deal_over` event as `game_points_won`), and the team "
        "with most game points wins the game (a tie at the top: no winner). Left out, no game "
        "points are kept and the game is won on the card points added up (`totals`)."
    ),
    "tricks.game_over": (
        "Optional: an expression of type bool over the `match_end` context (`options`, "
        "`seats`, `totals`: each team's card points, deals added, `deals`: the deals played, "
        "and `game_points`, each team's game points, with `tricks.game_points`), asked after "
        "each deal's count: true ends the game, false deals the next deal (the deal passing "
        "to the next seat). A match to 4 game points: `any(p in game_points: p >= 4)`. Left "
        "out, the game is over after `tricks.deals` deals; a spec states one of the two."
    ),
    "tricks.teams": (
        "Required: a list of teams, each a list of seat numbers, every seat exactly once: "
        "`[[0, 2], [1, 3]]`. A team's number is its place in the list (what `tricks.owner`, "
        "`taker` and `dealer_team` speak of). The spec's `seats` must be a fixed number "
        "(`min` equal to `max`); a game of one seat a team is `[[0], [1], ...]`."
    ),
    "tricks.hand_size": (
        "Required: an integer of at least 1, the cards dealt to each seat. Every card a deal "
        "deals is played: the deal ends when the hands are empty, one card a seat to each "
        "trick, the seat after the dealer leading the first. The largest table's hands and "
        "`tricks.dealer_extra` must fit in the pack."
    ),
    "tricks.dealer_extra": (
        "Optional: an integer of at least 0, default 0: the dealer's cards over "
        "`tricks.hand_size`, dealt last. When more than 0, a deal begins with the dealer's "
        "`discard` move, face down (the spec declares it, and its rules say how many cards; "
        "the play clock and the legal moves offer sets of this many); the discard is counted "
        "with the deal (`in_discard`)."
    ),
}

# what a spec cannot change: the Python's, said plainly for a game's designer (docs/rules/
# mechanics.md is made of it); a key that makes one of these the spec's takes its line out
FIXED: tuple[str, ...] = (
    "The seats are a fixed number (`seats.min` equal to `seats.max`) in fixed teams "
    "(`tricks.teams`).",
    "Every card dealt goes face down into the hands (`tricks.packet` at a time, the dealer's "
    "extra cards last), and no stock is left. Only the dealer's last card may be turned face "
    "up (`tricks.turned`): no other card of the deal is read by a context but the seat's own "
    "hand, the trick and the tricks taken.",
    "The play: the seat after the dealer leads the first trick; each seat plays one card in "
    "seat order; the trick's winner (`tricks.winner`) leads the next; the deal ends when the "
    "hands are empty. The moves are `play` and the dealer's `discard` (a spec may name them its "
    "own way, `does:`): no bidding, no declaration, no passing of cards, no move of the game's "
    "own.",
    "The count: a team scores the `tricks.points` of the cards `tricks.owner` gives it; a deal "
    "may turn those into game points (`tricks.game_points`); the game is `tricks.deals` deals, "
    "or ends at `tricks.game_over`, and the best total wins (a tie: no winner). No trump chosen "
    "by a seat, no contract.",
    "What a seat sees: its own hand (not its partner's), the trick, the last trick, the tricks "
    "per team, how many cards each seat holds and the turned card while it is face up; the "
    "discard is shown at the deal's end. Only the turned card's visibility is the spec's.",
    "The deal passes to the next seat after each deal.",
)

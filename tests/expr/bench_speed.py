"""Generated code vs the reference interpreter on Pontinho-like rules (not a test).

Run: `.venv/bin/python tests/expr/bench_speed.py`. Prints microseconds per evaluation and the ratio.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable
from functools import partial

from referee.cards import Card
from referee.spec.expr import BOOL, CARD, STR, Definition, ListType, Program, Scope

SCOPE = Scope(
    {
        "cards": ListType(CARD),
        "turned": CARD,
        "options": {"joker_rule": STR},
        "move": {"going_out": BOOL},
    }
)
DEFINITIONS = [
    Definition.parse(
        "is_joker(c: card)",
        """
        if options.joker_rule == "same_rank_other_colour"
        then rank(c) == rank(turned) and is_red(c) != is_red(turned)
        else suit(c) == suit(turned) and rank(c) == (rank(turned) % 13) + 1""",
    ),
    Definition.parse("anchor", "first_index(c in cards: not is_joker(c))"),
    Definition.parse("base", "rank(cards[anchor]) - anchor"),
    Definition.parse("seq_suit", "suit(cards[anchor])"),
    Definition.parse("fits(i: int)", "suit(cards[i]) == seq_suit and rank(cards[i]) == base + i"),
]
RULES = {
    "sequence of 7": """size(cards) >= 3 and anchor >= 0
        and all(i in indices(cards): is_joker(cards[i]) or fits(i))
        and (move.going_out or (not is_joker(cards[0]) and not is_joker(cards[size(cards) - 1])))""",
    "trio": """size(cards) == 3 and all(c in cards: rank(c) == rank(cards[0]))
        and size(distinct(map(c in cards: suit(c)))) == 3""",
    "option test": 'options.joker_rule == "same_rank_other_colour" and not move.going_out',
}
ENV = {
    "cards": [Card.parse(c) for c in ("5H", "6H", "2D", "8H", "9H", "TH", "JH")],
    "turned": Card.parse("2S"),
    "options": {"joker_rule": "same_rank_other_colour"},
    "move": {"going_out": False},
}


def _per_call(run: Callable[[], object], number: int) -> float:
    return min(timeit.repeat(run, number=number, repeat=3)) / number


def main() -> None:
    program = Program(SCOPE, DEFINITIONS)
    for name, text in RULES.items():
        typed = program.check(text, expected=BOOL)
        fn = program.compile(typed, name)
        assert fn(ENV) == program.evaluate(typed, ENV)
        slow = _per_call(partial(program.evaluate, typed, ENV), 500)
        fast = _per_call(partial(fn, ENV), 5000)
        print(
            f"{name:>14}: interpreter {slow * 1e6:8.1f} us   compiled {fast * 1e6:6.2f} us   "
            f"{slow / fast:5.1f}x"
        )


if __name__ == "__main__":
    main()

"""The shuffle (docs/fair-deal.md): uniform, keyed, and with no `random` module in its path."""

from __future__ import annotations

import ast
import hashlib
import inspect
import types

from referee.engine import chance

CARDS = [f"{rank}C" for rank in "A23456789T"]  # ten cards: a 10 x 10 table of positions
SHUFFLES = 100_000
# chi-square with (10 - 1)^2 = 81 degrees of freedom: outside [0.1%, 99.9%] fails (scipy's
# chi2.ppf(0.001, 81) and chi2.ppf(0.999, 81)); too small a value would mean too even a spread
CHI2_LOW, CHI2_HIGH = 47.28, 126.08


def test_card_positions_over_100000_shuffles_pass_a_chi_square_test() -> None:
    """Each card lies at each position a tenth of the time: Pearson's statistic over the
    card x position counts, shuffles keyed from a fixed link (deterministic)."""
    link = chance.chain_start(chance.root(seed=2026))
    counts = [[0] * len(CARDS) for _ in CARDS]
    index = {card: i for i, card in enumerate(CARDS)}
    for n in range(SHUFFLES):
        for position, card in enumerate(chance.shuffled(CARDS, link, "chi", n)):
            counts[index[card]][position] += 1
    expected = SHUFFLES / len(CARDS)
    statistic = sum((c - expected) ** 2 / expected for row in counts for c in row)
    assert CHI2_LOW < statistic < CHI2_HIGH, statistic


def test_the_first_two_positions_are_independent() -> None:
    """Every ordered pair of cards at the top equally often: 90 cells, 89 degrees of freedom
    (chi2.ppf(0.001, 89) = 53.39, chi2.ppf(0.999, 89) = 135.98), 45,000 shuffles."""
    link = chance.chain_start(chance.root(seed=7))
    pairs: dict[tuple[str, str], int] = {}
    shuffles = 45_000
    for n in range(shuffles):
        top = chance.shuffled(CARDS, link, "pairs", n)[:2]
        pairs[(top[0], top[1])] = pairs.get((top[0], top[1]), 0) + 1
    expected = shuffles / 90
    statistic = sum(
        (pairs.get((a, b), 0) - expected) ** 2 / expected for a in CARDS for b in CARDS if a != b
    )
    assert len(pairs) == 90 and 53.39 < statistic < 135.98, statistic


def test_the_shuffle_path_imports_no_random() -> None:
    tree = ast.parse(inspect.getsource(chance))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    } | {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert "random" not in imported, imported
    modules = {
        value.__name__ for value in vars(chance).values() if isinstance(value, types.ModuleType)
    }
    assert modules == {"hashlib", "hmac", "secrets"}, modules
    assert not any(
        getattr(value, "__module__", None) == "random" for value in vars(chance).values()
    )


def test_only_which_cards_matter_not_their_order() -> None:
    link = chance.chain_start(chance.root(seed=1))
    assert chance.shuffled(CARDS, link, "deal", 1) == chance.shuffled(CARDS[::-1], link, "deal", 1)
    assert chance.shuffled(CARDS, link, "deal", 1) != chance.shuffled(CARDS, link, "deal", 2)
    assert sorted(chance.shuffled(CARDS, link, "deal", 1)) == sorted(CARDS)


def test_each_link_and_purpose_gives_its_own_key() -> None:
    link = chance.chain_start(chance.root(seed=1))
    mixed = chance.mix(link, "0", "hello")
    keys = {chance.shuffle_key(at, "deal", n) for at in (link, mixed) for n in (1, 2)}
    assert len(keys) == 4
    assert chance.mix(link, "0", "hello") != chance.mix(link, "1", "hello")
    secret = chance.new_secret()
    assert len(bytes.fromhex(secret)) == 32 and secret != chance.new_secret()
    digest = hashlib.sha256(bytes.fromhex(secret)).hexdigest()
    assert chance.root_commitment(chance.root(secret=secret)) == digest

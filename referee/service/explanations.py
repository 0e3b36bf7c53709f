"""Explain: what judging a past proposal of a table looked at (issue 16), as one caller may see it.

The proposal is judged again on the table as it was then (its log folded to the version it was
judged at: judging is deterministic), its judgements recorded (`Table.explain`); its verdict is
the one the store kept. The table then is rebuilt from its nearest snapshot (`past_tables`): an
Explain of a late version of a long table reads and judges again no more moves than one of an
early version. What a caller is shown (`Shown`):
- the director (the operator's token): everything;
- the seat that proposed: every judgement, with its values cut to what that seat saw then (a
  card it did not see is `??`). A banker's judgements with its hidden first card put as each
  card of the pack (GEN-3) are merged into one, where a value that depends on the hidden card
  is `??`, and the judgement made with the real card is left out;
- anyone else: an accepted move's type, rules and outcomes, without its fields (a card may go
  face down) or values (they are read from the proposer's context: its hand); another seat's
  rejection is not theirs to see.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass, replace
from enum import Enum

from referee.cards import PackKind
from referee.errors import NotFound, PermissionDenied
from referee.i18n.verdicts import verdict_worded
from referee.model import Move, Verdict
from referee.redaction import HIDDEN, cards_seen, cut_cards, verdict_for
from referee.service.explanation_lines import explanation_lines
from referee.service.past_tables import PastTable
from referee.service.spoken import spoken_verdict
from referee.spec.explaining import BLIND, BROKEN, HELD, NOT_APPLICABLE, Judged, RuleOutcome
from referee.store.base import Proposal, Store


class Shown(Enum):
    ALL = "all"  # the director
    OWN = "own"  # the proposer: values cut to what it saw
    OUTCOMES = "outcomes"  # anyone else: an accepted move's outcomes only


@dataclass(frozen=True)
class Explained:
    seat: int  # who proposed
    move: Move
    verdict: Verdict  # as the store kept it, worded for the caller
    judged_at: int  # the table's version it was judged on
    judgements: tuple[Judged, ...]
    shown: Shown
    text: list[str]  # all of it in the caller's language
    folded: int = 0  # the log's moves judged again to rebuild the table then: the cost


def proposal_of(
    store: Store, table_id: str, length: int, move_id: str, version: int | None
) -> tuple[Proposal, int]:
    """The proposal asked about, and the version it was judged at: the accepted move that made
    `version` of the table (of `length` moves), or the proposal of `move_id`."""
    if version is not None:
        if not 1 <= version <= length:
            raise NotFound(f"table `{table_id}` has no move {version}: its moves are 1 to {length}")
        return store.moves_between(table_id, version - 1, version)[0], version - 1
    found = store.find_verdict(table_id, move_id)
    if found is None:
        raise NotFound(f"table `{table_id}` has no proposal of that move id")
    if found.seq is not None:
        return found, found.seq - 1
    return found, int(Verdict.from_data(found.verdict).version)


def explained(
    past: PastTable,
    proposal: Proposal,
    caller: int | None,
    operator: bool,
    language: str,
) -> Explained:
    """`proposal` judged again on the table then (`past`), shown to `caller` (a seat, or None:
    a spectator) or to the director (`operator`), its verdict worded in `language`."""
    table = past.table
    game = table.game
    verdict = verdict_worded(
        Verdict.from_data(proposal.verdict), game.texts, language, game.spec.words
    )
    shown = Shown.ALL if operator else Shown.OWN if caller == proposal.seat else Shown.OUTCOMES
    if shown is Shown.OUTCOMES and not proposal.accepted:
        raise PermissionDenied("a rejected proposal is seen by the seat that made it alone")
    move = Move.from_data(proposal.move)
    judgements = table.explain(proposal.seat, move)
    if shown is Shown.OWN:
        kind = PackKind(game.spec.pack_kind)
        seen = cards_seen(table, proposal.seat, kind, move)
        judgements = [_cut(j, seen, kind) for j in _unblinded(judgements)]
        verdict = verdict_for(table, proposal.seat, move, verdict)
    elif shown is Shown.OUTCOMES:
        judgements = [_outcomes_only(j) for j in judgements]
        move = Move(move.type)  # its fields may be face down (a discard to the kitty)
    judged_at = table.version
    pack = game.spec.pack_kind
    lines = explanation_lines(
        proposal.seat, move.type, judged_at, verdict, judgements, language, game.texts, pack
    )
    verdict = spoken_verdict(verdict, pack, language)
    return Explained(
        proposal.seat, move, verdict, judged_at, tuple(judgements), shown, lines, past.folded
    )


def _unblinded(judgements: list[Judged]) -> list[Judged]:
    """The judgements with the blind ones of each checkpoint merged in place of the one made with
    the real hidden card (the proposer must not learn it)."""
    blind = {(j.checkpoint, j.at) for j in judgements if j.role == BLIND}
    found: list[Judged] = []
    for key in dict.fromkeys((j.checkpoint, j.at) for j in judgements):
        group = [j for j in judgements if (j.checkpoint, j.at) == key]
        if key in blind:
            found.append(_merged([j for j in group if j.role == BLIND]))
        else:
            found.extend(group)
    return found


def _merged(group: list[Judged]) -> Judged:
    """One judgement for the cards a hidden one could be: a rule is broken if it is for some
    card, held if it is for every one; a value read is shown where it is the same for all."""
    rules = []
    for place, first in enumerate(group[0].rules):
        alike = [j.rules[place] for j in group]
        outcomes = {r.outcome for r in alike}
        outcome = BROKEN if BROKEN in outcomes else HELD if outcomes == {HELD} else NOT_APPLICABLE
        reads = {
            name: value if all(r.reads.get(name) == value for r in alike) else HIDDEN
            for name, value in first.reads.items()
        }
        rules.append(RuleOutcome(first.rule, outcome, reads))
    return Judged(group[0].checkpoint, group[0].at, tuple(rules), BLIND)


def _cut(judged: Judged, seen: Set[str], kind: PackKind) -> Judged:
    rules = tuple(
        replace(r, reads={n: cut_cards(v, seen, kind) for n, v in r.reads.items()})
        for r in judged.rules
    )
    return replace(judged, rules=rules)


def _outcomes_only(judged: Judged) -> Judged:
    return replace(judged, rules=tuple(replace(r, reads={}) for r in judged.rules))

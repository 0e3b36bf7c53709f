"""`referee verify`: what a signed game record proves, check by check (docs/records.md).

1. **form**: the text is the record's signed form (canonical JSON and a newline);
2. **signature**: the referee's Ed25519 signature of the rest holds, by the trusted key if given;
3. **chain**: each step's `prev` is the hash of the one before it;
4. **commitments**: the revealed secret (or the chosen seed) is the one committed to at
   creation, and each revealed deck is the one its hand committed to;
5. **replay**: the record derived again from its setup and moves, under the rules version it names
   (every shuffle re-derived, every move judged again), is the record: the same steps, versions,
   decks and result.

A seat's record of a table in play holds only what the seat may see: its signature is all there
is to check. A fair table's record before the game is over holds no secret: its moves cannot be
replayed yet (the check says so rather than failing).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from referee.engine import chance
from referee.engine.game import Game
from referee.engine.table import EXPIRE, SYSTEM
from referee.engine.versions import rules_version, short
from referee.errors import InvalidArgument, RefereeError
from referee.model import JSON, Move
from referee.records.canonical import canonical, read_signed_form
from referee.records.chain import first_break
from referee.records.derive import Logged, full_record
from referee.records.seal import SIGNATURE, unsealed
from referee.records.signing import ALGORITHM, KEY_BYTES, key_id, signature_holds
from referee.scenario.fields import integral
from referee.scenario.format import CloseWindowStep, MoveStep, load_data
from referee.scenario.target import table_setup

SEEN_BY = "seen_by"  # a seat's record: what that seat may see of a table in play


@dataclass(frozen=True)
class Check:
    name: str
    holds: bool | None  # None: it cannot be checked yet (`said` says why)
    said: str


@dataclass(frozen=True)
class Verification:
    checks: tuple[Check, ...]

    @property
    def holds(self) -> bool:
        """No check failed (some may not be checkable yet)."""
        return all(check.holds is not False for check in self.checks)

    def to_data(self) -> dict[str, JSON]:
        return {
            "holds": self.holds,
            "checks": [{"check": c.name, "holds": c.holds, "said": c.said} for c in self.checks],
        }


def verify(text: str, games: Iterable[Game], trusted: bytes | None = None) -> Verification:
    """Every check of a record's text, under any of `games` (by name and rules version), the
    signature by `trusted` when given. A check after a failed form or signature still runs."""
    data, problem = read_signed_form(text)
    if not isinstance(data, dict):
        return Verification((Check("form", False, problem or "a record is a JSON object"),))
    checks = [Check("form", problem is None, problem or "canonical JSON (RFC 8785)")]
    checks.append(_signature(data, trusted))
    if SEEN_BY in data:
        checks.append(
            Check("record", None, "a seat's record of a table in play: nothing more to check")
        )
        return Verification(tuple(checks))
    checks.append(_chain(data))
    checks.append(_commitments(data))
    checks.append(_replay(data, {(g.name, rules_version(g)): g for g in games}))
    return Verification(tuple(checks))


def _signature(data: Mapping[str, Any], trusted: bytes | None) -> Check:
    signature = data.get(SIGNATURE)
    if not isinstance(signature, Mapping):
        return Check("signature", False, "the record is not signed")
    public = _hex_bytes(signature.get("key"))
    if signature.get("algorithm") != ALGORITHM or public is None or len(public) != KEY_BYTES:
        return Check("signature", False, f"not an {ALGORITHM} signature with its public key")
    value = _hex_bytes(signature.get("value"))
    if value is None or not signature_holds(public, canonical(unsealed(data)), value):
        return Check(
            "signature",
            False,
            f"the signature by key {key_id(public)} does not hold: the record was changed "
            "after it was signed",
        )
    if trusted is not None and public != trusted:
        return Check(
            "signature",
            False,
            f"signed by key {key_id(public)}, not by the trusted key {key_id(trusted)}",
        )
    said = f"signed by key {key_id(public)}"
    return Check(
        "signature", True, said if trusted else f"{said} (not compared with a trusted key: --key)"
    )


def _chain(data: Mapping[str, Any]) -> Check:
    broken = first_break(data)
    if broken is not None:
        return Check(
            "chain", False, f"step {broken + 1}'s `prev` is not the hash of the step before it"
        )
    return Check("chain", True, f"{len(data.get('steps') or [])} steps chained from the creation")


def _commitments(data: Mapping[str, Any]) -> Check:
    decks = data.get("decks") or []
    if not isinstance(decks, list):
        return Check("commitments", False, "`decks` is not a list")
    for number, deck in enumerate(decks, start=1):
        if not _deck_holds(deck):
            return Check(
                "commitments", False, f"revealed deck {number} is not the one its hand committed to"
            )
    said = f"{len(decks)} revealed decks are the ones committed to"
    committed, secret = data.get("deal_commitment"), data.get("secret")
    if committed is None:  # dealt from a chosen seed or deck: nothing secret to commit to
        return Check("commitments", True, said)
    if not isinstance(secret, str):
        return Check("commitments", None, f"{said}; the deal's secret is shown once it is over")
    root = _hex_bytes(secret)
    if root is None or chance.root_commitment(root) != committed:
        return Check("commitments", False, "the secret is not the one `deal_commitment` names")
    return Check("commitments", True, f"{said}; the secret is the one committed to")


def _deck_holds(deck: Any) -> bool:
    if not isinstance(deck, Mapping):
        return False
    salt, cards = deck.get("salt"), deck.get("deck")
    if not isinstance(salt, str) or not isinstance(cards, list):
        return False
    return chance.commitment(salt, cards) == deck.get("commitment")


def _replay(data: Mapping[str, Any], games: Mapping[tuple[str, str], Game]) -> Check:
    if data.get("deal_commitment") is not None and "secret" not in data:
        return Check("replay", None, "a fair table's moves replay once its secret is revealed")
    version = data.get("rules_version")
    game = games.get((str(data.get("game")), str(version)))
    if game is None:
        return Check(
            "replay",
            False,
            f"no spec of `{data.get('game')}` at rules version {short(str(version))} was given "
            "(--specs DIR: the specs it was played under)",
        )
    salt = data.get("salt")
    if salt is not None and not isinstance(salt, str):
        return Check("replay", False, "the record's `salt` is not text")
    body = unsealed(data)
    try:
        scenario = load_data(integral(body), "<record>")
        setup = replace(table_setup(scenario.setup), salt=salt)
        moves = [
            _logged(step, recorded)
            for step, recorded in zip(scenario.steps, body.get("steps") or (), strict=True)
        ]
        derived = full_record(
            game,
            setup,
            moves,
            table_id=_text_or_none(data.get("table")),
            reveal_secret="secret" in data,
        )
    except RefereeError as error:
        return Check("replay", False, error.message)
    differs = sorted(key for key in {*body, *derived} if body.get(key) != derived.get(key))
    if differs:
        return Check(
            "replay",
            False,
            f"the record's {_listed(differs, body, derived)} differ from its replay",
        )
    return Check("replay", True, f"{len(moves)} moves replay to the recorded result")


def _logged(step: Any, recorded: Mapping[str, Any]) -> Logged:
    at = recorded.get("at")
    if isinstance(step, CloseWindowStep):
        return Logged(SYSTEM, Move(EXPIRE), at)
    if not isinstance(step, MoveStep):  # a scenario's `check` step
        raise InvalidArgument(f"step {step.where.step} is not a move")
    return Logged(step.seat, step.move, at)


def _listed(keys: list[str], body: Mapping[str, Any], derived: Mapping[str, Any]) -> str:
    named = []
    for key in keys:
        if key == "steps":
            ours, theirs = body.get("steps") or [], derived.get("steps") or []
            first = next(
                (i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b),
                min(len(ours), len(theirs)),
            )
            named.append(f"`steps` (from step {first + 1})")
        else:
            named.append(f"`{key}`")
    return ", ".join(named)


def _hex_bytes(value: Any) -> bytes | None:
    """The bytes of lowercase hex (its one spelling: `AB` and `ab` are not both a signature)."""
    if not isinstance(value, str):
        return None
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        return None
    return raw if raw.hex() == value else None


def _text_or_none(value: Any) -> str | None:
    return None if value is None else str(value)

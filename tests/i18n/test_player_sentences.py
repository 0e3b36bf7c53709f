"""Every sentence a player can be given reads as players write, in every language (issue 27): no
backtick, no raw card code (`7H`, `T21`), no name of the move language (`take_discard`, a
snake_case field), no `{placeholder}` left unfilled. Checked three ways: every catalogue entry
and every spec text rendered with sample values as it is sent; and the sentences a real referee
(gRPC, port 0) gives when every conformance scenario is played through it in each language its
game is written in: violations' messages and hints, events' texts, and Explain's lines."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import grpc
import pytest
import yaml

from referee.api.v1 import referee_pb2 as pb
from referee.app import ServerConfig, create_server
from referee.cards import CODE_IN_TEXT, PackKind, spoken
from referee.engine.game import Game
from referee.i18n import CATALOGUE, fill, placeholders
from referee.i18n.events import Narrator
from referee.model import Move, Sentence
from referee.scenario.remote import TOKEN_KEY, GrpcTarget, RemoteTable, _struct, verdict_of
from referee.scenario.runner import run_file
from referee.scenario.target import CannotRun
from referee.service import RefereeService
from referee.store.memory import MemoryStore

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "conformance"
OPERATOR = "sentences-operator"

SNAKE_CASE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
PLACEHOLDER = re.compile(r"\{[a-z_][a-z0-9_]*\}")


def machine_words(text: str) -> list[str]:
    """What in `text` is the machine's, not the players': each backtick, raw card code of
    either pack, snake_case name, unfilled placeholder."""
    found = ["`"] if "`" in text else []
    for pattern in (*CODE_IN_TEXT.values(), SNAKE_CASE, PLACEHOLDER):
        found += [m.group(0) for m in pattern.finditer(text)]
    return found


@pytest.mark.parametrize(
    "machine",
    [
        "move `bet`: field `amount`: expected an integer",  # backticks
        "add one of 7H, TS where it fits",  # French card codes
        "play one of T21, MT or NC",  # tarot card codes
        "make one of these moves instead: draw, take_discard",  # a move type
        "the referee played {move} for seat 1",  # a placeholder left
    ],
)
def test_a_machine_worded_sentence_is_caught(machine: str) -> None:
    """The control: each kind of machine text the check looks for is found."""
    assert machine_words(machine), machine


def test_a_player_worded_sentence_passes() -> None:
    assert machine_words("add one of 7♥, 10♠ where it fits (GEN-8, PN-13-order)") == []
    assert machine_words("jogue uma destas: trunfo 21, o Matto, cavalo de copas") == []


# -- every catalogue entry and spec text, with sample values ---------------------------------------

AT = Sentence(
    "move.at_field", {"at": Sentence("move.at", {"type": "take_discard"}), "field": "new_meld"}
)
SAMPLES: dict[str, Any] = {
    "card": "7H",
    "cards": ["7H", "TS", "AC"],
    "turned": "9D",
    "joker": "9S",
    "jokers": ["9C", "9S"],
    "field": "new_meld",
    "type": "take_discard",
    "move": "go_out",
    "moves": ["draw", "take_discard"],
    "known": "`draw`, `take_discard`",  # as a stored verdict of before keeps it
    "allowed": "`meld`, `new_meld`",
    "tally": "chips",
    "answer": "pass",
    "given": "'ZZ'",
    "at": AT,
    "problem": Sentence("card.malformed_french", {"given": "ZZ", "ranks": "A 2", "suits": "S H"}),
    "from": 1,
    "to": "table",
    "reason": "shoot bet",
    "hand": 0,
}


def sample(name: str) -> Any:
    return SAMPLES.get(name, 3)


def catalogue_sentences() -> Iterator[tuple[str, str, str]]:
    """(key, language, sentence as sent) for every entry of the catalogue: an event's through
    the narrator (a transfer's places, a hand counted from 1), any other rendered with samples."""
    for key, texts in CATALOGUE.entries.items():
        for language in texts:
            names = placeholders(texts["en"])
            if key.startswith("event."):
                kind = key.removesuffix(".hidden").split(".")[-1]
                mechanic = key.split(".")[1] if key.count(".") > 1 + key.endswith(".hidden") else ""
                seen = {"kind": kind, **{name: sample(name) for name in names}}
                said = spoken(Narrator(mechanic, language).tell(seen), PackKind.FRENCH, language)
            else:
                sentence = Sentence(key, {name: sample(name) for name in names})
                said = spoken(CATALOGUE.render(sentence, language), PackKind.FRENCH, language)
            yield key, language, said


def test_every_catalogue_sentence_is_in_players_words() -> None:
    checked = list(catalogue_sentences())
    assert len(checked) == 3 * len(CATALOGUE.entries)  # en, pt, tl: every one
    bad = [(key, language, said) for key, language, said in checked if machine_words(said)]
    assert bad == []


def test_the_walk_has_teeth_without_the_last_step() -> None:
    """The control: rendered without writing its cards as players do, a sentence is caught."""
    raw = CATALOGUE.render(Sentence("event.drew", {"card": "7H"}), "pt")
    assert machine_words(raw) == ["7H"]
    assert machine_words(spoken(raw, PackKind.FRENCH, "pt")) == []


def spec_texts(node: Any) -> Iterator[Mapping[str, str] | str]:
    """Every `text:` of a spec's data (rules, moves, options, a mechanic's own verdicts)."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            if key == "text":
                yield value
            else:
                yield from spec_texts(value)
    elif isinstance(node, list):
        for item in node:
            yield from spec_texts(item)


def test_every_spec_text_is_in_players_words() -> None:
    bad = []
    specs = sorted((ROOT / "specs").glob("*.yaml"))
    for path in specs:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        pack = (data.get("pack") or {}).get("kind", "french")
        for text in spec_texts(data):
            for language, sentence in (text if isinstance(text, Mapping) else {"en": text}).items():
                filled = fill(sentence, {name: "swords" for name in placeholders(sentence)})
                said = spoken(filled, pack, language)
                if machine_words(said):
                    bad.append((path.name, language, said))
    assert len(specs) >= 8 and bad == []


# -- the sentences a real referee gives ---------------------------------------------------------


class Speaking(GrpcTarget):
    """A scenario target asking for `language` (`accept-language`), keeping every sentence it is
    given, and the proposals it may Explain (each sent with its own move id)."""

    def __init__(self, channel: grpc.Channel, language: str) -> None:
        super().__init__(channel, create_token=OPERATOR)
        self.language = language
        self.said: list[tuple[str, str]] = []  # (what, sentence)
        self.proposals: list[tuple[str, str, str]] = []  # (table, move id, token)
        self._ids = itertools.count()

    def _call(self, method: Any, request: Any, token: str | None = None, header: str = "") -> Any:
        metadata = [("accept-language", self.language)]
        if token:
            metadata.append((header or TOKEN_KEY, token))
        answer = method(request, metadata=tuple(metadata), timeout=self.timeout)
        verdict = getattr(answer, "verdict", None)
        if verdict is not None:
            for violation in verdict.violations:
                self.said += [("message", violation.message), ("hint", violation.hint)]
            self.said += [("event", event.text) for event in verdict.events]
        return answer

    def propose(self, handle: RemoteTable, seat: int, move: Move) -> Any:
        if seat not in handle.tokens:
            return super().propose(handle, seat, move)
        move_id = f"m{next(self._ids)}"
        request = pb.ProposeRequest(
            table_id=handle.table_id,
            seat=seat,
            move_id=move_id,
            move=pb.Move(type=move.type, fields=_struct(move.fields)),
        )
        answer = self._call(self.stub.Propose, request, handle.tokens[seat])
        self.proposals.append((handle.table_id, move_id, handle.tokens[seat]))
        return verdict_of(answer.verdict)

    def explain_some(self, most: int) -> None:
        """Explain up to `most` of the proposals made, as the seat that made each."""
        for table_id, move_id, token in self.proposals[:: max(1, len(self.proposals) // most)]:
            request = pb.ExplainRequest(table_id=table_id, move_id=move_id)
            try:
                answer = self._call(self.stub.Explain, request, token)
            except grpc.RpcError:  # a table the scenario left for good (none today)
                continue
            self.said += [("explain", line) for line in answer.text]


@pytest.fixture(scope="module")
def served(games: dict[str, Game]) -> Iterator[str]:
    service = RefereeService(MemoryStore(), games, allow_stacked=True)
    server, port = create_server(service, "127.0.0.1", 0, ServerConfig(create_token=OPERATOR))
    server.start()
    yield f"127.0.0.1:{port}"
    service.close()
    server.stop(None).wait()


GAMES = sorted({p.parent.name for p in SCENARIOS.glob("*/*.yaml")})  # a game's folder has scenarios


@pytest.mark.parametrize("game", GAMES)
def test_a_referee_speaks_to_players_in_their_words(
    game: str, served: str, games: dict[str, Game]
) -> None:
    """Every scenario of `game` played through a referee, each in one of the languages the game
    is written in, in turn (every language is given every kind of sentence; the catalogue and
    spec walks above cover each sentence in each language): every sentence given is the
    players', and so is each line of an Explain of some of the proposals made."""
    channel = grpc.insecure_channel(served)
    languages = games[game].spec.languages
    targets = [Speaking(channel, language) for language in languages]
    for number, path in enumerate(sorted((SCENARIOS / game).glob("*.yaml"))):
        try:
            run_file(path, targets[number % len(targets)])
        except CannotRun:
            continue
    for target in targets:
        target.explain_some(most=15)
        kinds = {what for what, said in target.said if said}
        assert {"message", "hint", "event", "explain"} <= kinds, (target.language, kinds)
    channel.close()
    bad = sorted({(what, said) for t in targets for what, said in t.said if machine_words(said)})
    assert bad == []

"""`referee export`: the record of a table played through the service, from its store, replays
with `referee replay` (and so Adjudicate) to the result it states, for every shipped game; each
move carries the version it made and the server's time; it is signed by the store's key, and
`referee verify` checks it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from referee.adjudication.replay import adjudicate
from referee.bench import recorded_game
from referee.cli import main
from referee.engine.game import Game
from referee.engine.record import RESULT_FIELDS
from referee.engine.versions import rules_version
from referee.i18n import CATALOGUE
from referee.service import RefereeService
from referee.store.sqlite import SqliteStore
from tests.support.games import shipped_games

GAMES = sorted(shipped_games())


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_an_exported_record_replays_to_its_result(
    name: str, tmp_path: Path, games: dict[str, Game], capsys: pytest.CaptureFixture[str]
) -> None:
    setup, proposals = recorded_game(games[name], seed=4, most=150)
    db = tmp_path / "referee.db"
    store = SqliteStore(db)
    service = RefereeService(store, games, allow_stacked=True)
    table = service.create_table(
        name, options=setup.options, seats=setup.seats, dealer=setup.dealer, seed=setup.seed
    )
    for seat, move in proposals:
        service.propose(table.table_id, table.tokens[seat], move)
    final = service.view(table.table_id, None)
    service.close()
    store.close()

    out = tmp_path / "record.yaml"
    assert main(["export", table.table_id, "--db", str(db), "--out", str(out)]) == 0
    record = yaml.safe_load(out.read_text())
    assert record["game"] == name and record["rules_version"] == rules_version(games[name])
    steps = record["steps"]
    assert [step["version"] for step in steps] == list(range(1, final.version + 1))
    assert all(step["at"].endswith("+00:00") for step in steps)
    answer = adjudicate(games, record)
    assert answer["legal"]
    assert {k: answer["result"][k] for k in record["result"]} == record["result"]
    assert set(record["result"]) == {
        k for k in ("version", *RESULT_FIELDS) if k in answer["result"]
    }
    assert main(["replay", str(out)]) == 0  # the command line agrees
    assert "legal:" in capsys.readouterr().out
    assert main(["explain", str(out)]) == 0  # every move legal: the last one is explained
    explained = capsys.readouterr().out.splitlines()
    moved = CATALOGUE.word("move", steps[-1]["move"]["type"], "en")
    assert explained[1].startswith(f"seat {steps[-1]['seat']} proposed to {moved} at version")
    assert main(["key", "--db", str(db)]) == 0  # the store's key signed it
    public = capsys.readouterr().out.strip()
    assert record["signature"]["key"] == public
    assert main(["verify", str(out), "--key", public]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "verified"


def test_an_unknown_table_or_store_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "nope", "--db", str(tmp_path / "none.db")]) == 2
    assert (
        capsys.readouterr().err.strip().endswith(f"no tables' database at `{tmp_path / 'none.db'}`")
    )
    SqliteStore(tmp_path / "t.db").close()
    assert main(["export", "nope", "--db", str(tmp_path / "t.db")]) == 2
    assert "unknown table `nope`" in capsys.readouterr().err

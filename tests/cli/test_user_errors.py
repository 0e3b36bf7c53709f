"""A user error of any command is one line on stderr and exit status 2, never a traceback
(issue 11); every `serve` flag can also come from a `REFEREE_*` variable, the flag winning."""

from __future__ import annotations

import argparse
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import build_parser, main
from referee.commands.arguments import variable
from tests.support.games import shipped_games

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "tests" / "conformance" / "pontinho" / "pn02-dealer-and-mao.yaml"
KNOWN = ", ".join(f"`{name}`" for name in sorted(shipped_games()))  # every shipped spec

# (command line, the one line expected on stderr); `{tmp}` is an empty folder
BAD_COMMAND_LINES = [
    ([], "referee: the following arguments are required: COMMAND (see `referee --help`)"),
    (["poker"], "referee: argument COMMAND: invalid choice: 'poker'"),
    (
        ["serve", "--port", "http"],
        "referee serve: argument --port: `http` is not a whole number (see `referee serve --help`)",
    ),
    (["serve", "--port", "70000"], "referee serve: argument --port: `70000` is not a port"),
    (
        ["serve", "--workers", "0"],
        "referee serve: argument --workers: `0` is not a positive number",
    ),
    (["serve", "--log-level", "loud"], "referee serve: argument --log-level: invalid choice"),
    (
        ["serve", "--db", "x.db", "--memory"],
        "referee serve: argument --memory: not allowed with argument --db",
    ),
    (["serve", "--peer-rate", "fast"], "referee serve: argument --peer-rate:"),
    (
        ["serve", "--store", "mysql://db/tables"],
        "referee serve: argument --store: `mysql://db/tables` is not a `postgresql://` URL",
    ),
    (
        ["serve", "--store", "postgresql://db/tables?colour=blue"],
        'referee serve: argument --store: cannot read the database URL: invalid URI query parameter: "colour"',
    ),
    (
        ["serve", "--db", "x.db", "--store", "postgresql:///tables"],
        "referee serve: argument --store: not allowed with argument --db",
    ),
    (
        ["serve", "--create-token-file", "{tmp}/none"],
        "referee serve: no such file or directory: `{tmp}/none`",
    ),
    (
        ["serve", "--host", "0.0.0.0"],
        "referee serve: listening on 0.0.0.0: give --create-token-file",
    ),
    (["check-spec"], "referee check-spec: the following arguments are required: files"),
    (["check-spec", "{tmp}/no.yaml"], "referee check-spec: no such spec file: `{tmp}/no.yaml`"),
    (["prove", "poker"], f"referee prove: unknown game `poker`: this referee knows {KNOWN}"),
    (["prove", "/no/such.yaml"], "referee prove: no such file or directory: `/no/such.yaml`"),
    (
        ["prove", "pontinho", "--only", "nope"],
        "referee prove: `pontinho` states no property `nope`",
    ),
    (["prove", "pontinho", "--rlimit", "-1"], "referee prove: argument --rlimit: `-1` is not a"),
    (
        ["prove", "pontinho", "--specs", "{tmp}"],
        "referee prove: unknown game `pontinho`: no game specs are loaded",
    ),
    (["replay", "{tmp}/no.yaml"], "referee replay: {tmp}/no.yaml: cannot read the file"),
    (["replay", "{tmp}"], "referee replay: {tmp}: cannot read the file"),
    (["conformance", "{tmp}/no"], "referee conformance: no such file or folder: `{tmp}/no`"),
    (["conformance", "{tmp}"], "referee conformance: no scenario files (`*.yaml`) in `{tmp}`"),
    (
        ["conformance", str(SCENARIO), "--tls-ca", "{tmp}/ca.pem", "--target", "127.0.0.1:1"],
        "referee conformance: no such file or directory: `{tmp}/ca.pem`",
    ),
    (["play", "poker"], f"referee play: unknown game `poker`: this referee knows {KNOWN}"),
    (["play", "pontinho", "--bots", "9"], "referee play: `pontinho` is played by 3 to 5 seats"),
    (["play", "pontinho", "--bots", "none"], "referee play: argument --bots: `none` is not a"),
    (["play", "pontoon", "--hands", "-1"], "referee play: argument --hands: `-1` is not a"),
    (
        ["play", "pontinho", "--option", "stakes"],
        "referee play: `--option` expects NAME=VALUE, got `stakes`",
    ),
    (["play", "pontinho", "--option", "jokers=2"], "referee play: unknown option `jokers`"),
    (["diff", "pontinho"], "referee diff: the following arguments are required: B"),
    (["diff", "pontinho", "poker"], "referee diff: unknown game `poker`"),
    (
        ["diff", "pontinho", "pontinho", "--max-cards", "-1"],
        "referee diff: `--max-cards` is a number of cards, got `-1`",
    ),
    (["mutants", "{tmp}/no"], "referee mutants: {tmp}/no: cannot read the file"),
    (["mutants", "--specs", "{tmp}"], "referee mutants: no specs (`*.yaml`) in `{tmp}`"),
    (["transcript", "poker"], "referee transcript: unknown game `poker`"),
    (["transcript", "pontinho", "--seats", "0"], "referee transcript: argument --seats:"),
    (
        ["transcript", "pontoon", "--hands", "1", "--out", "{tmp}/no/t.txt"],
        "referee transcript: no such file or directory: `{tmp}/no/t.txt`",
    ),
]


@pytest.mark.parametrize(
    "argv, expected",
    BAD_COMMAND_LINES,
    ids=[" ".join(argv) or "(none)" for argv, _ in BAD_COMMAND_LINES],
)
def test_a_bad_command_line_is_one_line_and_exit_2(
    argv: list[str], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert exit_status(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith(expected.replace("{tmp}", str(tmp_path))), err


def exit_status(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as stop:  # argparse's way out
        return int(stop.code or 0)


def referee(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`referee ARGV` in a process of its own (serve configures logging and signals)."""
    return subprocess.run(
        [sys.executable, "-m", "referee", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_serve_on_a_busy_port_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = referee("serve", "--port", str(port), "--memory", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == f"referee serve: cannot listen on 127.0.0.1:{port}: the port is in use\n"


def test_serve_refuses_to_start_with_no_games(tmp_path: Path) -> None:
    done = referee("serve", "--port", "0", "--memory", "--specs", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        f"referee serve: no games to serve: no game specs (`*.yaml`) in `{tmp_path}`\n"
    )


def test_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "referee", "--version"], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (0, "referee 0.1.0\n")


# --- serve's flags from the environment ---------------------------------------------------------


def serve_parser() -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    parser = sub.choices["serve"]
    assert isinstance(parser, argparse.ArgumentParser)
    return parser


def serve_flags() -> list[argparse.Action]:
    return [
        a
        for a in serve_parser()._actions
        if a.option_strings and not isinstance(a, argparse._HelpAction)
    ]


def test_every_serve_flag_names_its_variable_in_the_help() -> None:
    help_text = " ".join(serve_parser().format_help().split())
    for action in serve_flags():
        name = variable(action)
        assert name == "REFEREE_" + action.option_strings[-1][2:].replace("-", "_").upper()
        assert f"[env {name}]" in help_text, name


def commands() -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_command_s_summary_is_a_whole_sentence() -> None:
    """`referee --help` lists each command with the first sentence of its docstring, whole."""
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    summaries = {choice.dest: choice.help or "" for choice in sub._choices_actions}
    assert set(summaries) == set(commands())
    for name, summary in summaries.items():
        assert summary.endswith((".", "?", ")")), (name, summary)
        assert summary.count("`") % 2 == 0 and summary.count("(") == summary.count(")"), summary


def test_no_help_names_a_constant_of_the_code() -> None:
    """A command's help says numbers, not the names the code keeps them under (`STOP_WITHIN_S`);
    the environment's variables (`REFEREE_PORT`) are the user's, and stay."""
    for name, parser in commands().items():
        named = re.findall(r"`([A-Z][A-Z0-9]*_[A-Z0-9_]+)`", parser.format_help())
        constants = [n for n in named if not n.startswith("REFEREE_")]
        assert not constants, (name, constants)


def serve_args(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, **environ: str
) -> argparse.Namespace:
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    return build_parser().parse_args(["serve", *argv])


def test_variables_set_serve_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    args = serve_args(
        [],
        monkeypatch,
        REFEREE_PORT="6000",
        REFEREE_HOST="::1",
        REFEREE_DB="tables.db",
        REFEREE_ALLOW_STACKED="yes",
        REFEREE_WORKERS="3",
        REFEREE_LOG_LEVEL="debug",
        REFEREE_PEER_RATE="5/10",
        REFEREE_TLS_CERT="cert.pem",
        REFEREE_OPEN_CREATE="0",
    )
    assert (args.port, args.host, args.db, args.allow_stacked) == (6000, "::1", "tables.db", True)
    assert (args.workers, args.log_level, args.open_create) == (3, "debug", False)
    assert (args.peer_rate.per_second, args.peer_rate.burst) == (5, 10)
    assert args.tls_cert == Path("cert.pem")


def test_a_flag_beats_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    args = serve_args(
        ["--port", "7000", "--log-level", "error", "--allow-stacked"],
        monkeypatch,
        REFEREE_PORT="6000",
        REFEREE_LOG_LEVEL="debug",
        REFEREE_ALLOW_STACKED="0",
    )
    assert (args.port, args.log_level, args.allow_stacked) == (7000, "error", True)


def test_a_flag_beats_the_variables_of_the_flags_it_excludes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = serve_args(["--db", "x.db"], monkeypatch, REFEREE_MEMORY="1")
    assert (args.memory, args.db) == (False, "x.db")
    args = serve_args(["--memory"], monkeypatch, REFEREE_DB="y.db", REFEREE_MEMORY="0")
    assert (args.memory, args.db) == (True, "var/referee.db")
    args = serve_args([], monkeypatch, REFEREE_DB="y.db", REFEREE_MEMORY="0")
    assert (args.memory, args.db) == (False, "y.db")
    args = serve_args(["--open-create"], monkeypatch, REFEREE_CREATE_TOKEN="secret")
    assert (args.open_create, args.create_token) == (True, None)


def test_the_store_comes_from_its_variable_unless_a_flag_names_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = "postgresql://referee@db.example/tables"
    args = serve_args(["--unsafe-durability"], monkeypatch, REFEREE_STORE=url)
    assert (args.store, args.unsafe_durability) == ([url], True)
    args = serve_args(["--db", "x.db"], monkeypatch)  # REFEREE_STORE still set
    assert (args.store, args.db) == (None, "x.db")


def test_several_stores_come_in_order_from_the_flags_or_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    one, two = (
        "postgresql://referee@db1.example/t",
        "postgresql://referee@h1,h2/t?connect_timeout=3",
    )
    assert serve_args([], monkeypatch, REFEREE_STORE=f" {one}\n {two} ").store == [one, two]
    given = serve_args(["--store", two, "--store", one], monkeypatch, REFEREE_STORE=one)
    assert given.store == [two, one]  # the command line's alone: libpq's commas kept


def test_serve_on_a_database_out_of_reach_is_one_line(tmp_path: Path) -> None:
    done = referee(
        "serve", "--port", "0", "--store", f"postgresql:///t?host={tmp_path}", cwd=tmp_path
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("referee serve: the database `dbname=t host="), done.stderr
    assert "is unavailable:" in done.stderr and done.stderr.endswith(": try again\n")


def test_without_variables_the_defaults_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    for action in serve_flags():
        monkeypatch.delenv(variable(action), raising=False)
    args = serve_args([], monkeypatch)
    assert (args.port, args.host, args.memory, args.allow_stacked) == (
        50051,
        "127.0.0.1",
        False,
        False,
    )


@pytest.mark.parametrize(
    "name, value, expected",
    [
        ("REFEREE_PORT", "http", "argument --port: REFEREE_PORT: `http` is not a whole number"),
        ("REFEREE_PORT", "-1", "argument --port: REFEREE_PORT: `-1` is not a port"),
        ("REFEREE_MEMORY", "maybe", "argument --memory: REFEREE_MEMORY: `maybe` is neither a yes"),
        (
            "REFEREE_LOG_LEVEL",
            "loud",
            "argument --log-level: REFEREE_LOG_LEVEL: `loud`: expected one of `debug`, `info`",
        ),
    ],
)
def test_a_bad_variable_is_one_line_naming_it(
    name: str,
    value: str,
    expected: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(name, value)
    assert exit_status(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"referee serve: {expected}"), err


def test_a_broken_spec_is_one_line_with_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tmp_path.joinpath("broken.yaml").write_text("name: broken\nmechanics: poker\n")
    assert exit_status(["play", "broken", "--specs", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"referee play: {tmp_path / 'broken.yaml'}:2:12: at `mechanics`: unknown "
        "mechanics `poker`: expected one of `rummy`, `banking`, `tricks`\n"
    )

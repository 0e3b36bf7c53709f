"""Golden transcripts (STYLE.md 11): each mechanic keeps its checked-in playthrough beside its
other tests (`tests/mechanics/<name>/golden/`, compared by tests/golden/transcripts.py); what is
left here holds for every mechanic."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from referee.plugins.transcript import NoTranscript, adapter_for


def test_a_mechanic_without_an_adapter_is_refused_clearly() -> None:
    game = SimpleNamespace(name="scopa", spec=SimpleNamespace(mechanics="fishing"))
    with pytest.raises(
        NoTranscript, match="no transcript for `scopa` yet: its mechanics `fishing` has no adapter"
    ):
        adapter_for(game)

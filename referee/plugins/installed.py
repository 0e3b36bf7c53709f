"""The mechanics this referee runs, each a plugin, by the name a spec's `mechanics:` gives.
Adding a mechanic is its package (`referee/mechanics/<name>/`), its plugin here
(`referee/plugins/<name>.py`) and one line below."""

from __future__ import annotations

from referee.plugins import banking, rummy, tricks
from referee.plugins.plugin import Plugin
from referee.scenario import checks

PLUGINS: tuple[Plugin, ...] = (
    rummy.PLUGIN,
    banking.PLUGIN,
    tricks.PLUGIN,
)


for _plugin in PLUGINS:  # each mechanic's `check` keys, for the scenarios of its games
    checks.declare(_plugin.checks, _plugin.finished_view_keys)


def by_name() -> dict[str, Plugin]:
    return {plugin.name: plugin for plugin in PLUGINS}

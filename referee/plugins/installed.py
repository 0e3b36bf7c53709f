"""The mechanics this referee runs, each a plugin, by the name a spec's `mechanics:` gives.
Adding a mechanic is its package (`referee/mechanics/<name>/`, its plugin in `plugin.py`) and one
line here."""

from __future__ import annotations

from referee.mechanics.banking import plugin as banking
from referee.mechanics.rummy import plugin as rummy
from referee.mechanics.tricks import plugin as tricks
from referee.plugins.plugin import Plugin

PLUGINS: tuple[Plugin, ...] = (
    rummy.PLUGIN,
    banking.PLUGIN,
    tricks.PLUGIN,
)


def by_name() -> dict[str, Plugin]:
    return {plugin.name: plugin for plugin in PLUGINS}

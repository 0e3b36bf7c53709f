"""The rules each table is judged by: the version of its game's spec it was created under.

A new table plays the spec loaded now, and is pinned to its version (the store keeps the hash with
the table and the spec's text once per version). A table whose version is not the one loaded now
(the spec was corrected since, and the referee restarted) plays its own: the stored text is
compiled into a game again, once per version. A table with no version (created before rules
versions were kept) plays the spec loaded now, as it always did: nothing else is known of it.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

import structlog

from referee.engine.game import Game, find_game
from referee.engine.versions import rules_version, short, source_text
from referee.errors import RefereeError
from referee.plugins.games import compile_stored
from referee.store.base import Store, StoredSpec

log = structlog.get_logger("referee.service")


class RulesVersions:
    """The games loaded now, by name, and the older versions stored tables play, by hash (a
    handful: one per correction of a spec, so all are kept once compiled)."""

    def __init__(self, store: Store, games: Mapping[str, Game]) -> None:
        self._store = store
        self._games = dict(games)
        self._older: dict[str, Game] = {}
        self._lock = threading.Lock()

    def current(self, name: str) -> Game:
        """The game a new table of `name` plays (NotFound if no spec of it is loaded)."""
        return find_game(self._games, name)

    def pin(self, game: Game) -> StoredSpec:
        """What the store keeps of a new table's version."""
        return StoredSpec(rules_version(game), game.name, source_text(game))

    def of_table(self, table_id: str, name: str, version: str | None) -> Game:
        """The game a stored table plays: its own version, else (none kept) the current one."""
        loaded = self._games.get(name)
        if version is None or (loaded is not None and rules_version(loaded) == version):
            return self.current(name)
        with self._lock:
            older = self._older.get(version)
        if older is None:
            older = self._compiled(table_id, name, version)
            with self._lock:
                older = self._older.setdefault(version, older)
        return older

    def _compiled(self, table_id: str, name: str, version: str) -> Game:
        stored = self._store.stored_spec(version)
        if stored is None:  # the schema's key forbids it; said, and the current rules play it
            log.warning("rules_version_missing", table=table_id, version=short(version))
            return self.current(name)
        try:
            game = compile_stored(stored.text)
        except RefereeError as error:  # SpecErrors among them
            raise RefereeError(
                f"table `{table_id}` plays `{name}` version {short(version)}, "
                f"which does not compile any more: {error}"
            ) from error
        if game.name != name or rules_version(game) != version:
            raise RefereeError(
                f"table `{table_id}`: the stored spec {short(version)} is not `{name}`'s "
                "version it names"
            )
        log.info("rules_version_compiled", game=name, version=short(version))
        return game

"""A game's properties type-checked, not proved: how `serve` and `check-spec` refuse a wrong
proofs file as they refuse a wrong spec.

Loading a game (`referee.plugins.games`) reads its proofs file's YAML and its one key only:
`load_games` runs for every table target, every scenario run and every mutant, and resolving
the properties costs a fifth to a third of a load. A property is checked here as `referee prove`
checks it before asking z3 anything (`setting.resolve`: its keys, bounds, constants, context,
evaluations, and the claim, assumptions and bindings typed in their scopes), with no solving.
"""

from __future__ import annotations

from referee.engine.game import Game
from referee.errors import SpecError, SpecErrors
from referee.proofs.properties import Property, read_properties
from referee.proofs.setting import resolve


def property_errors(game: Game) -> list[SpecError]:
    """Every problem of `game`'s properties: the first that reading them meets, else each
    property's own (one a property: resolving stops at its first)."""
    try:
        properties = read_properties(game)
    except SpecErrors as exc:
        return list(exc.errors)
    except SpecError as exc:
        return [exc]
    errors: list[SpecError] = []
    for prop in properties:
        try:
            resolve(game, prop)
        except SpecErrors as exc:
            errors.extend(exc.errors)
        except SpecError as exc:
            errors.append(exc)
    return errors


def checked_properties(game: Game) -> list[Property]:
    """`game`'s properties, each type-checked; SpecErrors listing every problem found."""
    errors = property_errors(game)
    if errors:
        raise SpecErrors(errors)
    return read_properties(game)


__all__ = ["checked_properties", "property_errors"]

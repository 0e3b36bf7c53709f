"""The rummy mechanic: melds, lay-offs, jokers, going out; a game's own parts selected by its spec."""

from referee.mechanics.rummy.mechanic import RummyMechanic

__all__ = ["RummyMechanic"]

"""The rummy mechanic (Pontinho, Taradinho): melds, lay-offs, jokers, going out."""

from referee.mechanics.rummy.mechanic import RummyMechanic

__all__ = ["RummyMechanic"]

from referee.mechanics.tricks.mechanic import TricksMechanic

__all__ = ["TricksMechanic"]

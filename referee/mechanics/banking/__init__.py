"""The banking mechanic: a banker against each player's hands, stakes on the table (Pontoon)."""

from referee.mechanics.banking.mechanic import BankingMechanic

__all__ = ["BankingMechanic"]

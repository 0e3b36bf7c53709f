"""referee: a rules-validation referee service for card games."""

__version__ = "0.1.0"

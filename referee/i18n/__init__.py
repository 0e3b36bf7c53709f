"""The players' languages: which one a caller asked for, and the referee's own sentences in it.

A spec words its rules, options and moves itself (`text: {en: ..., pt: ...}`, `languages:`); what
the referee says of its own (an unreadable move, an event) is in the catalogue of this package
(`*.yaml`), keyed by a dotted name, in every language any spec is written in.
"""

from referee.i18n.catalogue import CATALOGUE, Catalogue, fill, placeholders
from referee.i18n.language import ENGLISH, negotiate, preferences

__all__ = ["CATALOGUE", "ENGLISH", "Catalogue", "fill", "negotiate", "placeholders", "preferences"]

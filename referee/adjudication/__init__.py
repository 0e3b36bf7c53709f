"""Adjudicating a game after the fact: replaying a game record to its first illegal move
(`replay`), and judging a finished table again under corrected rules (`readjudication`)."""

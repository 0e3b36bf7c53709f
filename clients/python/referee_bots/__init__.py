"""Random, legal-minded bots, one per mechanic (rummy, pontoon, tricks), for examples, tests,
transcripts and benchmarks. Each reads a seat's view as plain data and proposes candidate moves:
they import nothing of the referee (neither its engine nor its client), so any client can use them.
"""

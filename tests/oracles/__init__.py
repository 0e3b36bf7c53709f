"""The rules of the games restated in plain Python (RULES.md), once each, for the tests that
check the referee against an independent statement of them: these modules never go through a
spec or a mechanic, so a test agreeing with them checks the spec and the engine together."""

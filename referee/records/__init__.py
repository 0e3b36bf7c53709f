"""Game records as evidence: their canonical form, the hash chain of their steps, the referee's
signature, and their verification (docs/records.md)."""

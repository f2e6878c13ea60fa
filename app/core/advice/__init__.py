"""What a hand should do: discards, safety and its tables, the lookahead, the expected score and
the MCR fan targets.  Imports the value and shape wings only."""

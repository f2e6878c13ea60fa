"""The hand's shape: tiles, hands, rule profiles, the precomputed tables, shanten, decompositions,
the checker and batches.  The innermost wing: it imports nothing of the other three."""

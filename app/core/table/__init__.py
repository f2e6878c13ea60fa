"""The table: the self-play simulator and the players that choose at it.  The outermost wing:
it may import advice, value and shape; nothing in the core imports it."""

"""The table: the game machine, whole games for self-play, and the players that choose at it.  The outermost wing:
it may import advice, value and shape; nothing in the core imports it."""

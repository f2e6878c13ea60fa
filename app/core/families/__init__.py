"""Rule families: one package per regional rule set, the outermost layer of the core."""

"""What a win is worth: the scoring registry, riichi and sanma, MCR, and the win's situation.
Imports the shape wing only."""

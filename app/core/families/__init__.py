"""Rule families, one folder each: the outermost layer of the core.

A family module may import any wing (``shape``, ``value``, ``advice``, ``table``) and the core's
root (``app.core.errors``, ``app.core._kernel``); no wing imports a family, and no family imports
another.  :mod:`app.core.families.registry` lists them all and answers the family of a rule set.
"""

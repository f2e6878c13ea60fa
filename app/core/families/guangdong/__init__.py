"""Guangdong 推倒胡 (``guangdong``): 136 tiles, pon and kong, a ghost, horses (买马) and 跟庄.

The family's pure parts, each its own module: the cited rule texts (:mod:`.rules_text`), the
options and presets (:mod:`.options`), the tile set, ghost and hand rules (:mod:`.tiles`), the
big hands of the optional fan list (:mod:`.big_hands`), the win's scorer (:mod:`.scoring`), the
horse, 跟庄 and kong payments (:mod:`.payments`), the dealing steps and claims (:mod:`.play`) and
the advisor's value model (:mod:`.value`).
"""

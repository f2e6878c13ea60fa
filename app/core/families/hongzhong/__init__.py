"""Hunan 红中麻将 (hongzhong): 112 tiles, 红中 as the wildcard, pon and kong without chi, self-drawn
wins and robbed kongs, seven pairs, and birds (奖码) after the win.

The family follows one published rule text (:mod:`.rules_text`); its options
(:mod:`.options`) default to what the text says. The modules: :mod:`.shape` (the tile set, the
shape engine's profile, and the win as the text defines it), :mod:`.scoring` (a win's and a
kong's payments, the birds), :mod:`.play` (claims, the wall's end, the next dealer) and
:mod:`.value` (the advisor's expected points).
"""

"""The Guangdong tile set, its ghost (鬼牌) and the hand rules the shape engine reads.

The set is the 136 tiles (flowers as an option, :attr:`GuangdongOptions.tile_total`).  The
ghost is the white dragon, or the tile after a flipped indicator (翻鬼).  The text names no
order for the cycle; the one taken is the set's own (the riichi dora's): a suit's 1-9 and back
to 1, the winds 东 南 西 北 and back to 东, the dragons 白 发 中 and back to 白.

>>> from app.core.shape.tiles import format_tile, parse_tile
>>> [format_tile(ghost_from_indicator(parse_tile(name))) for name in ("9m", "4z", "7z", "5s")]
['1m', '1z', '5z', '6s']
>>> rules = hand_rules(GuangdongOptions(), parse_tile("2p"))
>>> rules.name, [format_tile(t) for t in rules.wildcards], rules.chi_allowed, rules.tile_total
('guangdong', ['2p'], False, 136)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from app.core.errors import TenpaiError
from app.core.families.guangdong.options import GhostMode, GuangdongOptions
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import NUM_TILE_KINDS, WHITE, Tile, dora_from_indicator, format_tile

FAMILY: Final = "guangdong"


class GhostIndicatorRequired(TenpaiError):
    """A flipped-ghost room (翻鬼) asked about a hand without the indicator that names its ghost."""

    code = "ghost_indicator_required"


def ghost_from_indicator(indicator: Tile) -> Tile:
    """The ghost a flipped tile names: the next tile of its cycle (9 -> 1, 北 -> 东, 中 -> 白)."""
    if not 0 <= indicator < NUM_TILE_KINDS:
        raise GhostIndicatorRequired(f"a ghost indicator is a tile 0..33, got {indicator!r}", field="ghost_indicator")
    return dora_from_indicator(indicator)


def hand_ghost(options: GuangdongOptions, indicator: Tile | None = None) -> Tile | None:
    """The hand's ghost under ``options``: None, the white dragon, or the one ``indicator`` names.

    >>> hand_ghost(GuangdongOptions(ghost=GhostMode.NONE)) is None, hand_ghost(GuangdongOptions(ghost=GhostMode.WHITE))
    (True, 31)
    >>> hand_ghost(GuangdongOptions())
    Traceback (most recent call last):
    ...
    app.core.families.guangdong.tiles.GhostIndicatorRequired: ghost is 'flip' (翻鬼): name the flipped tile that names the ghost
    """
    if options.ghost is GhostMode.NONE:
        return None
    if options.ghost is GhostMode.WHITE:
        return WHITE
    if indicator is None:
        raise GhostIndicatorRequired(
            "ghost is 'flip' (翻鬼): name the flipped tile that names the ghost", field="ghost_indicator"
        )
    return ghost_from_indicator(indicator)


#: The hand rules every Guangdong hand shares; each hand's ghost and the room's options go in
#: by ``dataclasses.replace``.  No furiten: the text has no such rule.
_BASE: Final = RuleProfile(FAMILY, thirteen_orphans=True, chi_allowed=False, furiten=False, red_fives=False)


def hand_rules(options: GuangdongOptions, ghost: Tile | None) -> RuleProfile:
    """The shape engine's rules for one Guangdong hand: 136 tiles, chi as the room says, seven
    pairs and thirteen orphans as the options say, and ``ghost`` (if any) the wildcard."""
    if ghost is not None and not 0 <= ghost < NUM_TILE_KINDS:
        raise GhostIndicatorRequired(f"a ghost is a tile 0..33, got {ghost!r}", field="ghost")
    return replace(
        _BASE,
        chi_allowed=options.chi,
        seven_pairs=options.seven_pairs,
        thirteen_orphans=options.thirteen_orphans,
        wildcards=() if ghost is None else (ghost,),
        # 满鬼: four ghosts held win at once, whatever the rest (手上有4张鬼牌,可直接胡牌).
        wildcards_held_win=4 if options.si_gui and ghost is not None else None,
    )


def describe_ghost(ghost: Tile | None) -> str:
    """The ghost in mpsz, or ``"none"``.

    >>> describe_ghost(None), describe_ghost(31)
    ('none', '5z')
    """
    return "none" if ghost is None else format_tile(ghost)

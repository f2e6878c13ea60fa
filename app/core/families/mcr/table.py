"""The MCR table: the bare table with eight flowers, each set aside when dealt or drawn and
replaced from the back of the wall; a win needs 8 fans, flowers not counted, and pays MCR's way
(:func:`~app.core.value.mcr_scoring.score_mcr`, through the family's default hooks)."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Final

from app.core.table.family import Family
from app.core.table.play_rules import BARE_TABLE
from app.core.value.mcr_scoring import MAX_FLOWERS


class McrFamily(Family):
    name = "mcr"
    presets = MappingProxyType({"mcr": replace(BARE_TABLE, flowers=MAX_FLOWERS)})


FAMILY: Final = McrFamily()

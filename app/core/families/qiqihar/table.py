"""The Qiqihar table: the bare table; 红中 stands for any tile and is never called (the hand
rules' wildcard), a win needs an open pon or kong and pays per the Qiqihar source document
(:mod:`app.core.value.scoring`, through the family's default hooks)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from app.core.table.family import Family
from app.core.table.play_rules import BARE_TABLE


class QiqiharFamily(Family):
    name = "qiqihar"
    presets = MappingProxyType({"qiqihar": BARE_TABLE})


FAMILY: Final = QiqiharFamily()

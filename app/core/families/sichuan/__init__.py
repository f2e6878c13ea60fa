"""Sichuan bloody rules (``sichuan``, 血战到底; 血流成河 by the ``bloody_river`` option)."""

from app.core.families.sichuan.table import FAMILY

__all__ = ["FAMILY"]

"""Common Chinese rules (``chinese``): any complete hand wins, for a flat value."""

from app.core.families.chinese.table import FAMILY

__all__ = ["FAMILY"]

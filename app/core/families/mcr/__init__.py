"""Chinese Official rules (``mcr``, 国标麻将): the 81 fans, 8 to win, eight flowers."""

from app.core.families.mcr.table import FAMILY

__all__ = ["FAMILY"]

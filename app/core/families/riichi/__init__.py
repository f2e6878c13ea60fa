"""Riichi mahjong by Tenhou's rules, four players (``riichi``) and three (``sanma``)."""

from app.core.families.riichi.table import FAMILY

__all__ = ["FAMILY"]

"""Qiqihar rules (``qiqihar``): 红中 stands for any tile; a win needs an open pon or kong."""

from app.core.families.qiqihar.table import FAMILY

__all__ = ["FAMILY"]

"""Typed errors of the rules engine.

Every error a caller can provoke with bad input is a :class:`TenpaiError`, a
``ValueError`` subclass carrying a stable snake_case ``code`` and, where it is
known, the ``field`` it concerns (e.g. ``"hand"``, ``"melds[1].tiles"``).
The HTTP layer maps codes to statuses in one table; the core never knows HTTP.

>>> try:
...     raise TooManyCopies("5 copies of 1m", field="hand")
... except ValueError as error:
...     (error.code, error.field, str(error))
('too_many_copies', 'hand', '5 copies of 1m')
"""

from __future__ import annotations


class TenpaiError(ValueError):
    """Base class: a question the engine cannot answer as asked."""

    code: str = "invalid_request"

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def at(self, field: str) -> TenpaiError:
        """Return this error re-rooted at ``field`` (prefixing any inner field)."""
        self.field = field if self.field is None else f"{field}.{self.field}"
        return self


class InvalidNotation(TenpaiError):
    """Text or values that do not spell tiles in any supported notation."""

    code = "invalid_notation"


class TooManyCopies(TenpaiError):
    """More than four copies of one tile (hand, melds and visible tiles together)."""

    code = "too_many_copies"


class WrongTileCount(TenpaiError):
    """A tile count that does not fit the question (e.g. 13 tiles to /win)."""

    code = "wrong_tile_count"


class InvalidMeld(TenpaiError):
    """A meld whose tiles do not form its kind (e.g. a chi of 1m 2m 4m)."""

    code = "invalid_meld"


class UnknownRules(TenpaiError):
    """A rule preset name that is not in the registry."""

    code = "unknown_rules"


class InvalidRuleOption(TenpaiError):
    """A rule override that does not exist or has an impossible value."""

    code = "invalid_rule_option"


class NotAWinningHand(TenpaiError):
    """Scoring asked for a hand that does not win under its rules."""

    code = "not_a_winning_hand"


class AbsentTile(TenpaiError):
    """A tile the rules' tile set does not have (2m-8m in sanma), in a hand, meld or option."""

    code = "absent_tile"


class InvalidTableState(TenpaiError):
    """A table between hands that cannot be (a dealer who is not the hand's, five winners, ...)."""

    code = "invalid_table_state"


class NoYaku(TenpaiError):
    """A complete riichi hand with no yaku: it cannot be declared a win."""

    code = "no_yaku"


class BelowMinimumFan(TenpaiError):
    """A complete MCR hand worth fewer fans than the rules' floor (8, flowers not counted)."""

    code = "below_minimum_fan"


class VoidSuitHeld(TenpaiError):
    """A Sichuan hand holding a tile of its declared void suit (定缺): it cannot win."""

    code = "void_suit_held"


def error_codes() -> frozenset[str]:
    """Every stable code of the :class:`TenpaiError` classes defined so far, found from the classes.

    Error classes live beside what they guard (``InvalidWeight`` in discard, ``InvalidOpponent``
    in safety, ...), so a module's codes appear once it is imported; the HTTP layer's test
    imports the whole app and checks its status table against this.

    >>> {"invalid_notation", "no_yaku", "absent_tile"} <= error_codes()
    True
    """
    codes = set()
    pending: list[type[TenpaiError]] = [TenpaiError]
    while pending:
        cls = pending.pop()
        codes.add(cls.code)
        pending.extend(cls.__subclasses__())
    return frozenset(codes)

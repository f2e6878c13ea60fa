"""The rules engine's questions: shanten, ukeire, waits, win, discards.

A :class:`Checker` binds one :class:`~app.core.rules.RuleProfile`.  It holds
no mutable state, so building one per request is cheap and safe; the heavy
tables are shared, immutable and built once per process.

Wildcards: every copy of a wildcard tile is taken out of the counts and the
hand is judged on the rest.  ``w`` wildcards cover ``w`` missing tiles of any
complete hand, so a form's effective distance is ``max(0, distance - w)``.

>>> from app.core.rules import rule_profile
>>> from app.core.tiles import parse_mpsz
>>> checker = Checker(rule_profile("riichi"))
>>> checker.shanten(Hand.from_tiles(parse_mpsz("123456789m1111z"))).shanten
1
>>> [w.tile for w in checker.waits(Hand.from_tiles(parse_mpsz("1112345678999m"))).waits]
[0, 1, 2, 3, 4, 5, 6, 7, 8]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from app.core.decompose import (
    Decomposition,
    regular_decompositions,
    seven_pairs_decompositions,
    thirteen_orphans_decompositions,
)
from app.core.errors import TooManyCopies, WrongTileCount
from app.core.hand import Hand
from app.core.rules import RuleProfile, SevenPairs
from app.core.shanten import (
    capped_regular_distance,
    regular_distance,
    regular_improving_draws,
    seven_pairs_distance,
    seven_pairs_improving_draws,
    thirteen_orphans_distance,
    thirteen_orphans_improving_draws,
)
from app.core.tiles import NUM_TILE_KINDS, Tile, format_tile

REGULAR: Final = "regular"
SEVEN_PAIRS: Final = "seven_pairs"
THIRTEEN_ORPHANS: Final = "thirteen_orphans"
FORMS: Final = (REGULAR, SEVEN_PAIRS, THIRTEEN_ORPHANS)
OPEN_MELD_REQUIRED: Final = "open_meld_required"
DEFAULT_DECOMPOSITION_LIMIT: Final = 256
_FULL: Final = b"\x04" * NUM_TILE_KINDS


@dataclass(frozen=True, slots=True)
class TileCount:
    """A tile and how many copies of it are still unseen."""

    tile: Tile
    remaining: int


@dataclass(frozen=True, slots=True)
class ShantenResult:
    """Shanten overall and per form (``None``: the rules or the hand size rule the form out)."""

    shanten: int
    regular: int
    seven_pairs: int | None
    thirteen_orphans: int | None
    #: For 3n+1 hands: draws that lower the shanten; ``None`` for 3n+2 hands.
    ukeire: tuple[TileCount, ...] | None = None
    #: Why a hand at -1 still does not win (e.g. ``open_meld_required``), else None.
    reason: str | None = None

    @property
    def ukeire_count(self) -> int | None:
        """Total unseen copies of the ukeire tiles."""
        return None if self.ukeire is None else sum(t.remaining for t in self.ukeire)


@dataclass(frozen=True, slots=True)
class WaitResult:
    """Waits of a 3n+1 hand."""

    tenpai: bool
    waits: tuple[TileCount, ...]
    karaten: bool
    #: Why a hand that is ready in shape waits on nothing (e.g. ``open_meld_required``).
    reason: str | None = None
    #: Tiles that complete the shape, whether or not the rules let the hand win.
    shape_waits: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class WinResult:
    """Whether a 3n+2 hand wins, and every way it does."""

    win: bool
    form: str | None
    decompositions: tuple[Decomposition, ...]
    reason: str | None
    #: True when there were more decompositions than the limit.
    truncated: bool = False
    #: Whether the shape alone is complete (True for wins and for precondition failures).
    complete_shape: bool = False


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """A 3n+2 hand after discarding ``tile``."""

    tile: Tile
    shanten: int
    ukeire: tuple[TileCount, ...]

    @property
    def ukeire_count(self) -> int:
        """Total unseen copies of the ukeire tiles."""
        return sum(t.remaining for t in self.ukeire)


class Checker:
    """Answers rules questions under one rule profile."""

    __slots__ = ("rules", "_wild_tiles", "_seven_pairs", "_quad_as_two", "_thirteen_orphans")

    def __init__(self, rules: RuleProfile) -> None:
        self.rules = rules
        self._wild_tiles = rules.wildcards
        self._seven_pairs = rules.seven_pairs is not SevenPairs.OFF
        self._quad_as_two = rules.seven_pairs is SevenPairs.QUAD_AS_TWO
        self._thirteen_orphans = rules.thirteen_orphans

    # -- building blocks -------------------------------------------------

    def _split_wilds(self, counts: bytes) -> tuple[bytes, tuple[Tile, ...]]:
        """Counts without wildcards, and the wildcard tiles held (one entry per copy)."""
        if not self._wild_tiles:
            return counts, ()
        held = tuple(t for t in self._wild_tiles for _ in range(counts[t]))
        if not held:
            return counts, ()
        plain = bytearray(counts)
        for tile in self._wild_tiles:
            plain[tile] = 0
        return bytes(plain), held

    def caps(self, hand: Hand) -> bytes:
        """Copies of each tile a complete concealed hand may hold."""
        if not self.rules.melded_tiles_count_toward_limit or not hand.melds:
            return _FULL
        return bytes(4 - m for m in hand.melded_counts())

    def _closed_forms_allowed(self, hand: Hand) -> bool:
        return not hand.melds and hand.tile_count >= 13

    def _distances(self, hand: Hand, plain: bytes, caps: bytes) -> dict[str, int | None]:
        melds_wanted = hand.melds_wanted
        regular = (
            regular_distance(plain, melds_wanted) if caps is _FULL else capped_regular_distance(plain, caps, melds_wanted)
        )
        closed = self._closed_forms_allowed(hand)
        return {
            REGULAR: regular,
            SEVEN_PAIRS: seven_pairs_distance(plain, quad_as_two=self._quad_as_two)
            if closed and self._seven_pairs
            else None,
            THIRTEEN_ORPHANS: thirteen_orphans_distance(plain) if closed and self._thirteen_orphans else None,
        }

    def precondition_failure(self, hand: Hand) -> str | None:
        """Why the rules forbid this hand to win whatever its shape, else None."""
        required = self.rules.win_requires_meld
        if required and not any(meld.kind in required for meld in hand.melds):
            return OPEN_MELD_REQUIRED
        return None

    def remaining(self, hand: Hand, visible: bytes | None = None) -> bytes:
        """Unseen copies of each tile: 4 minus hand, melds and ``visible``.

        Raises :class:`TooManyCopies` when more than four copies are accounted for.
        """
        seen = hand.all_counts()
        if visible is not None:
            seen = bytes(a + b for a, b in zip(seen, visible))
        for tile, count in enumerate(seen):
            if count > 4:
                raise TooManyCopies(
                    f"{count} copies of {format_tile(tile)} in hand, melds and visible tiles; a tile has 4",
                    field="visible",
                )
        return bytes(4 - c for c in seen)

    def _drawable(self, hand: Hand, caps: bytes) -> list[bool]:
        # A draw may join the hand while the concealed copies stay within the cap.
        return [held < cap for held, cap in zip(hand.counts, caps)]

    # -- questions -------------------------------------------------------

    def shanten(self, hand: Hand, visible: bytes | None = None) -> ShantenResult:
        """Shanten per form and overall; for 3n+1 hands also the ukeire.

        >>> from app.core.rules import rule_profile
        >>> from app.core.tiles import parse_mpsz
        >>> result = Checker(rule_profile("riichi")).shanten(Hand.from_tiles(parse_mpsz("1111222233334z")))
        >>> result.shanten, result.regular, result.seven_pairs, result.thirteen_orphans
        (3, 3, 6, 8)
        """
        _check_size(hand, (1, 2))
        caps = self.caps(hand)
        plain, wilds = self._split_wilds(hand.counts)
        distances = self._distances(hand, plain, caps)
        w = len(wilds)
        per_form = {form: None if d is None else max(0, d - w) - 1 for form, d in distances.items()}
        best = min(s for s in per_form.values() if s is not None)
        reason = self.precondition_failure(hand) if best == -1 else None
        ukeire = None
        if hand.tile_count % 3 == 1:
            left = self.remaining(hand, visible)
            tiles = self._improving_draws(hand, plain, caps, wilds, distances, best)
            ukeire = tuple(TileCount(t, left[t]) for t in tiles)
        return ShantenResult(
            best, per_form[REGULAR], per_form[SEVEN_PAIRS], per_form[THIRTEEN_ORPHANS], ukeire, reason
        )

    def _improving_draws(
        self,
        hand: Hand,
        plain: bytes,
        caps: bytes,
        wilds: tuple[Tile, ...],
        distances: dict[str, int | None],
        best_shanten: int,
    ) -> list[Tile]:
        """Tiles whose draw lowers the shanten of a 3n+1 hand."""
        drawable = self._drawable(hand, caps)
        wild_set = self.rules.wildcard_set
        for tile in wild_set:
            drawable[tile] = drawable[tile] and False  # a wildcard draw is handled below
        target = best_shanten + 1 + len(wilds)  # the raw distance a form needs to tie the best
        found: set[Tile] = set()
        if distances[REGULAR] == target:
            if caps is _FULL:
                found.update(regular_improving_draws(plain, hand.melds_wanted, drawable)[1])
            else:
                for tile in range(NUM_TILE_KINDS):
                    if drawable[tile]:
                        grown = _plus(plain, tile)
                        if capped_regular_distance(grown, caps, hand.melds_wanted) < target:
                            found.add(tile)
        if distances[SEVEN_PAIRS] == target:
            found.update(seven_pairs_improving_draws(plain, drawable, quad_as_two=self._quad_as_two))
        if distances[THIRTEEN_ORPHANS] == target:
            found.update(thirteen_orphans_improving_draws(plain, drawable))
        # One more wildcard always covers one more missing tile.
        for tile in wild_set:
            if hand.counts[tile] < caps[tile]:
                found.add(tile)
        return sorted(found)

    def waits(self, hand: Hand, visible: bytes | None = None) -> WaitResult:
        """Tiles that complete a 3n+1 hand into a win, with unseen copies.

        >>> from app.core.rules import rule_profile
        >>> from app.core.tiles import parse_mpsz
        >>> result = Checker(rule_profile("riichi")).waits(Hand.from_tiles(parse_mpsz("123456789m1112z")))
        >>> [(w.tile, w.remaining) for w in result.waits], result.tenpai
        ([(28, 3)], True)
        """
        _check_size(hand, (1,))
        result = self.shanten(hand, visible)
        shape_waits = tuple(t.tile for t in result.ukeire or ()) if result.shanten == 0 else ()
        reason = self.precondition_failure(hand) if shape_waits else None
        waits = () if reason else tuple(result.ukeire or ()) if result.shanten == 0 else ()
        tenpai = bool(waits)
        karaten = tenpai and all(w.remaining == 0 for w in waits)
        return WaitResult(tenpai, waits, karaten, reason, shape_waits)

    def is_win(self, hand: Hand) -> bool:
        """Whether a 3n+2 hand wins (no decompositions: the fast path).

        >>> from app.core.rules import rule_profile
        >>> from app.core.tiles import parse_mpsz
        >>> Checker(rule_profile("riichi")).is_win(Hand.from_tiles(parse_mpsz("11223344556677z")))
        True
        >>> Checker(rule_profile("qiqihar")).is_win(Hand.from_tiles(parse_mpsz("11223344556677z")))
        False
        """
        plain, wilds = self._split_wilds(hand.counts)
        caps = self.caps(hand)
        distances = self._distances(hand, plain, caps)
        complete = any(d is not None and d <= len(wilds) for d in distances.values())
        return complete and self.precondition_failure(hand) is None

    def win(self, hand: Hand, *, limit: int = DEFAULT_DECOMPOSITION_LIMIT) -> WinResult:
        """Whether a 3n+2 hand wins, its form and every decomposition (up to ``limit``).

        >>> from app.core.rules import rule_profile
        >>> from app.core.tiles import parse_mpsz
        >>> result = Checker(rule_profile("riichi")).win(Hand.from_tiles(parse_mpsz("11122233344455m")))
        >>> result.win, result.form, len(result.decompositions)
        (True, 'regular', 5)
        """
        _check_size(hand, (2,))
        plain, wilds = self._split_wilds(hand.counts)
        caps = self.caps(hand)
        distances = self._distances(hand, plain, caps)
        complete_forms = [f for f in FORMS if distances[f] is not None and distances[f] <= len(wilds)]
        if not complete_forms:
            return WinResult(False, None, (), None)
        found: list[Decomposition] = []
        truncated = False
        for form in complete_forms:
            room = limit - len(found)
            if room <= 0:
                truncated = True
                break
            if form == REGULAR:
                more, cut = regular_decompositions(plain, caps, wilds, room)
            elif form == SEVEN_PAIRS:
                more, cut = seven_pairs_decompositions(plain, wilds, quad_as_two=self._quad_as_two, limit=room)
            else:
                more, cut = thirteen_orphans_decompositions(plain, wilds, limit=room)
            found.extend(more)
            truncated = truncated or cut
        reason = self.precondition_failure(hand)
        return WinResult(reason is None, complete_forms[0], tuple(found), reason, truncated, True)

    def discards(self, hand: Hand, visible: bytes | None = None) -> list[DiscardOption]:
        """For a 3n+2 hand: each distinct discard's shanten and ukeire, in tile order.

        A candidate's unseen counts treat the discarded tile as seen (it is in
        the 14-tile hand), as Tenhou's 牌理 does.

        >>> from app.core.rules import rule_profile
        >>> from app.core.tiles import parse_mpsz
        >>> options = Checker(rule_profile("riichi")).discards(Hand.from_tiles(parse_mpsz("123m456p789s11122z")))
        >>> [(o.tile, o.shanten, [(t.tile, t.remaining) for t in o.ukeire]) for o in options][-2:]
        [(27, 0, [(27, 1), (28, 2)]), (28, 0, [(28, 2)])]
        """
        _check_size(hand, (2,))
        left = self.remaining(hand, visible)
        options = []
        for tile in range(NUM_TILE_KINDS):
            if hand.counts[tile]:
                after = Hand(_minus(hand.counts, tile), hand.melds)
                result = self._shanten_without_remaining(after)
                options.append(
                    DiscardOption(tile, result[0], tuple(TileCount(t, left[t]) for t in result[1]))
                )
        return options

    def _shanten_without_remaining(self, hand: Hand) -> tuple[int, list[Tile]]:
        caps = self.caps(hand)
        plain, wilds = self._split_wilds(hand.counts)
        distances = self._distances(hand, plain, caps)
        best = min(max(0, d - len(wilds)) for d in distances.values() if d is not None) - 1
        return best, self._improving_draws(hand, plain, caps, wilds, distances, best)


def _plus(counts: bytes, tile: Tile) -> bytes:
    return counts[:tile] + bytes((counts[tile] + 1,)) + counts[tile + 1 :]


def _minus(counts: bytes, tile: Tile) -> bytes:
    return counts[:tile] + bytes((counts[tile] - 1,)) + counts[tile + 1 :]


def _check_size(hand: Hand, remainders: Sequence[int]) -> None:
    """Raise :class:`WrongTileCount` unless hand size mod 3 is one of ``remainders``."""
    n = hand.tile_count
    if n % 3 not in remainders or n == 0:
        expected = " or ".join(f"3n+{r}" for r in remainders)
        limit = 14 - 3 * len(hand.melds)
        sizes = ", ".join(str(s) for s in range(1, limit + 1) if s % 3 in remainders)
        raise WrongTileCount(
            f"{n} concealed tiles with {len(hand.melds)} melds; this question needs {expected} tiles ({sizes})",
            field="hand",
        )

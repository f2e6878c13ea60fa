"""The rules engine's questions: shanten, ukeire, waits, win, discards.

A :class:`Checker` binds one :class:`~app.core.shape.rules.RuleProfile`.  It holds
no mutable state, so building one per request is cheap and safe; the heavy
tables are shared, immutable and built once per process.

Wildcards: every copy of a wildcard tile is taken out of the counts and the
hand is judged on the rest.  ``w`` wildcards cover ``w`` missing tiles of any
complete hand, so a form's effective distance is ``max(0, distance - w)``.
Two rule options change that reading.  With ``wildcards_in_seven_pairs`` off, seven pairs
is measured on the counts with the wildcards left in, as plain tiles of their own kind.  With
``wildcards_held_win`` (``need``), holding ``need`` wildcard copies concealed is a form of its
own (:data:`WILDCARDS_HELD`): its distance is the draws it still takes, ``max(need - w, 1)``
for a 3n+1 hand (one draw, whatever it is, makes the hand a winning size) and
``max(need - w, 0)`` for a 3n+2 hand, so its shanten is -1 exactly when the hand wins by it.

Absent tiles (sanma's 2m-8m): a complete hand may hold none, so every answer
measures against complete hands of existing tiles only; the shared tables do it
with the affected suit's class read from :class:`~app.core.shape.shanten.AbsentShapes`.
An absent tile is never a wait or an ukeire tile and has no unseen copies.

The void suit (定缺, rules with ``void_suit`` on): a checker bound to a suit measures against
complete hands without it, as if its nine tiles were absent, after taking its tiles held out
of the counts: each is junk, a tile the complete hand still lacks, so it costs one exchange and
is never a wait.  A hand holding one, concealed or melded, does not win (``void_suit_held``);
a meld of it has no shanten.  The compiled look-ups are the absent-tile ones, so the
other rules' fast paths are untouched.  Unbound (no suit named), each question takes the
best suit the hand may void (:meth:`Checker.best_void_suit`), and a hand of all three suits
does not win.  Every answer names the suit it assumed.

>>> from app.core.shape.rules import rule_profile
>>> from app.core.shape.tiles import parse_mpsz
>>> checker = Checker(rule_profile("riichi"))
>>> checker.shanten(Hand.from_tiles(parse_mpsz("123456789m1111z"))).shanten
1
>>> [w.tile for w in checker.waits(Hand.from_tiles(parse_mpsz("1112345678999m"))).waits]
[0, 1, 2, 3, 4, 5, 6, 7, 8]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import lru_cache, partial
from operator import add, itemgetter
from typing import Final, NamedTuple

from app.core.errors import TooManyCopies, WrongTileCount
from app.core.shape.decompose import (
    Decomposition,
    honors_and_knitted_decompositions,
    knitted_straight_decompositions,
    regular_decompositions,
    seven_pairs_decompositions,
    thirteen_orphans_decompositions,
    wildcards_held_decomposition,
)
from app.core.shape.hand import Hand
from app.core.shape.rules import RuleProfile, SevenPairs
from app.core.shape.shanten import (
    AbsentShapes,
    absent_regular_draws,
    capped_honors_and_knitted_distance,
    capped_knitted_straight_distances,
    capped_regular_distance,
    flagged_tiles,
    honors_and_knitted_improving_draws,
    knitted_forms_distances,
    knitted_straight_improving_draws,
    seven_pairs_distance,
    seven_pairs_from_profile,
    seven_pairs_improving_draws,
    suit_keys,
    thirteen_orphans_distance,
    thirteen_orphans_from_profile,
    thirteen_orphans_improving_draws,
)
from app.core.shape.tables import compiled_regular_draws, tables
from app.core.shape.tiles import NUM_TILE_KINDS, ORPHANS, Tile, counted, format_tile
from app.core.shape.void_suit import (
    SUITS,
    VOID_SUIT_HELD,
    InvalidVoidSuit,
    VoidSuitMelded,
    format_suit,
    holds_suit,
    melded_suits,
    suit_tiles,
    without_suit,
)

REGULAR: Final = "regular"
SEVEN_PAIRS: Final = "seven_pairs"
THIRTEEN_ORPHANS: Final = "thirteen_orphans"
KNITTED_STRAIGHT: Final = "knitted_straight"
HONORS_AND_KNITTED: Final = "honors_and_knitted"
#: The form of rules with ``wildcards_held_win``: the concealed hand holds that many wildcards.
WILDCARDS_HELD: Final = "wildcards_held"
FORMS: Final = (REGULAR, SEVEN_PAIRS, THIRTEEN_ORPHANS, KNITTED_STRAIGHT, HONORS_AND_KNITTED, WILDCARDS_HELD)
#: Melds a knitted straight's nine tiles stand for: a hand needs at least this many
#: (10 or more concealed tiles) to hold one.
_KNITTED_MELDS: Final = 3
OPEN_MELD_REQUIRED: Final = "open_meld_required"
DEFAULT_DECOMPOSITION_LIMIT: Final = 256
_FULL: Final = b"\x04" * NUM_TILE_KINDS
#: Distances of the forms in :data:`FORMS` order, the wildcards held credited; None where a form
#: is ruled out.
_Distances = tuple[int, int | None, int | None, int | None, int | None, int | None]


class TileCount(NamedTuple):
    """A tile and how many copies of it are still unseen."""

    tile: Tile
    remaining: int


#: A TileCount's unseen copies, read in C (summed over every /shanten answer's ukeire).
_REMAINING: Final = itemgetter(1)


class ShantenResult(NamedTuple):
    """Shanten overall and per form (``None``: the rules or the hand size rule the form out)."""

    shanten: int
    regular: int
    seven_pairs: int | None
    thirteen_orphans: int | None
    #: For 3n+1 hands: draws that lower the shanten; ``None`` for 3n+2 hands.
    ukeire: tuple[TileCount, ...] | None = None
    #: Why a hand at -1 still does not win (e.g. ``open_meld_required``), else None.
    reason: str | None = None
    #: The knitted forms (Chinese Official rules); ``None`` where the rules lack them or the
    #: hand cannot hold them (a knitted straight needs 10 or more concealed tiles, honours
    #: and knitted a closed hand).
    knitted_straight: int | None = None
    honors_and_knitted: int | None = None
    #: The void suit (0 m, 1 p, 2 s) the answer assumed, under rules with a void suit; else None.
    void_suit: int | None = None
    #: The wildcards-held form (rules with ``wildcards_held_win``); ``None`` where the rules lack it
    #: or the hand can never hold that many wildcards.
    wildcards_held: int | None = None

    @property
    def ukeire_count(self) -> int | None:
        """Total unseen copies of the ukeire tiles."""
        return None if self.ukeire is None else sum(map(_REMAINING, self.ukeire))


class WaitResult(NamedTuple):
    """Waits of a 3n+1 hand."""

    tenpai: bool
    waits: tuple[TileCount, ...]
    karaten: bool
    #: Why a hand that is ready in shape waits on nothing (e.g. ``open_meld_required``).
    reason: str | None = None
    #: Tiles that complete the shape, whether or not the rules let the hand win.
    shape_waits: tuple[Tile, ...] = ()
    #: The void suit (0 m, 1 p, 2 s) the answer assumed, under rules with a void suit; else None.
    void_suit: int | None = None


class WinResult(NamedTuple):
    """Whether a 3n+2 hand wins, and every way it does."""

    win: bool
    form: str | None
    decompositions: tuple[Decomposition, ...]
    reason: str | None
    #: True when there were more decompositions than the limit.
    truncated: bool = False
    #: Whether the shape alone is complete (True for wins and for precondition failures).
    complete_shape: bool = False
    #: The void suit (0 m, 1 p, 2 s) the answer assumed, under rules with a void suit (None
    #: there: the hand holds all three suits, so no void suit lets it win); else None.
    void_suit: int | None = None


class DiscardOption(NamedTuple):
    """A 3n+2 hand after discarding ``tile``."""

    tile: Tile
    shanten: int
    ukeire: tuple[TileCount, ...]
    #: Total unseen copies of the ukeire tiles.
    ukeire_count: int


class Checker:
    """Answers rules questions under one rule profile."""

    __slots__ = (
        "rules",
        "_wild_tiles",
        "_wild_bits",
        "_pairs_plain",
        "_held_need",
        "_seven_pairs",
        "_quad_as_two",
        "_thirteen_orphans",
        "_knitted",
        "_plain_rules",
        "_plain_shapes",
        "_complete_number",
        "_complete_honors",
        "_absent",
        "_base_caps",
        "_set_caps",
        "void_suit",
        "_auto_void",
        "_bound",
    )

    def __init__(self, rules: RuleProfile, void_suit: int | None = None) -> None:
        """A checker of ``rules``; under rules with a void suit (定缺), ``void_suit`` (0 m, 1 p,
        2 s) binds the hand's, and None lets each question take the best suit the hand may void.

        >>> from app.core.shape.rules import rule_profile
        >>> Checker(rule_profile("riichi"), void_suit=0)
        Traceback (most recent call last):
        ...
        app.core.shape.void_suit.InvalidVoidSuit: riichi has no void suit (its void_suit option is false); leave void_suit out
        """
        if void_suit is not None and not rules.void_suit:
            raise InvalidVoidSuit(
                f"{rules.name} has no void suit (its void_suit option is false); leave void_suit out",
                field="void_suit",
            )
        self.rules = rules
        self.void_suit = void_suit
        #: Void-suit rules without a named suit: each question tries the suits the hand may void.
        self._auto_void = rules.void_suit and void_suit is None
        self._bound: dict[int, Checker] | None = None  # made on first use: most checkers never need one
        # The set's caps (0 for a tile it lacks): what remaining() reads, void suit or not.
        self._set_caps = _absent_shapes(rules.absent_tiles).caps if rules.absent_tiles else _FULL
        # A void suit is, for the shape, a suit the complete hand may not hold: absent tiles.
        # Its tiles held are taken out of the counts first (see _shape_counts): junk to throw.
        absent = rules.absent_tiles
        if void_suit is not None:
            absent = tuple(sorted({*absent, *suit_tiles(void_suit)} - set(rules.wildcards)))
        self._absent = _absent_shapes(absent) if absent else None
        # The caps of a hand without melded limits: all 4, or 0 for the absent tiles.
        self._base_caps = _FULL if self._absent is None else self._absent.caps
        self._wild_tiles = rules.wildcards
        self._wild_bits = sum(_BIT[tile] for tile in rules.wildcards)
        # Seven pairs read the wildcards as plain tiles (Hunan's 红中): measured on the whole counts.
        self._pairs_plain = bool(rules.wildcards) and not rules.wildcards_in_seven_pairs
        self._held_need = rules.wildcards_held_win if rules.wildcards else None
        self._seven_pairs = rules.seven_pairs is not SevenPairs.OFF
        self._quad_as_two = rules.seven_pairs is SevenPairs.QUAD_AS_TWO
        # Thirteen orphans and the knitted forms hold all three suits: no hand with a void suit has them.
        self._thirteen_orphans = rules.thirteen_orphans and not rules.void_suit
        self._knitted = rules.knitted_forms and not rules.void_suit
        self._plain_rules = not rules.wildcards and not rules.win_requires_meld
        # Shapes the shared tables judge alone (with caps of four): no wildcards, no knitted forms.
        self._plain_shapes = not rules.wildcards and not rules.knitted_forms
        built = tables()
        self._complete_number = built.number_suit.complete
        self._complete_honors = built.honors.complete

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
        """Copies of each tile a complete concealed hand may hold (0 for an absent tile)."""
        if not self.rules.melded_tiles_count_toward_limit or not hand.melds:
            return self._base_caps
        return bytes(map(min, self._base_caps, (4 - m for m in hand.melded_counts())))

    # -- the void suit ---------------------------------------------------

    def bound(self, void_suit: int) -> Checker:
        """The checker of these rules with the hand's void suit ``void_suit`` (made once per suit)."""
        if self.void_suit == void_suit:
            return self
        if self._bound is None:
            self._bound = {}
        found = self._bound.get(void_suit)
        if found is None:
            found = self._bound[void_suit] = Checker(self.rules, void_suit)
        return found

    def voidable_suits(self, hand: Hand) -> tuple[int, ...]:
        """The suits ``hand`` may declare void: those it has not melded (all three without void-suit rules' melds).

        Raises :class:`~app.core.shape.void_suit.VoidSuitMelded` when it has melded all three:
        whatever its void suit, it holds a meld of it and can never win.
        """
        melded = melded_suits(hand)
        suits = tuple(suit for suit in SUITS if suit not in melded)
        if not suits:
            raise VoidSuitMelded(
                "the melds hold all three suits, so every void suit (定缺) is melded and the hand can never win",
                field="melds",
            )
        return suits

    def best_void_suit(self, hand: Hand) -> int:
        """The suit a hand does best to void: the lowest shanten, then (3n+1) the most ukeire,
        then the fewest tiles of the suit held, then m before p before s.

        >>> from app.core.shape.rules import rule_profile
        >>> from app.core.shape.tiles import parse_mpsz
        >>> Checker(rule_profile("sichuan")).best_void_suit(Hand.from_tiles(parse_mpsz("1123456m2345p59s")))
        2
        """
        suits = self.voidable_suits(hand)
        if len(suits) == 1:
            return suits[0]
        best = self._best_void_answer(hand, suits, None, with_ukeire=hand.tile_count % 3 == 1)
        return best.void_suit  # type: ignore[return-value]  # a bound checker's answer names its suit

    def _best_void_answer(
        self, hand: Hand, suits: Sequence[int], visible: bytes | None, *, with_ukeire: bool
    ) -> ShantenResult:
        """The shanten answer of the best of ``suits`` to void (:func:`_void_rank`)."""
        answers = (self.bound(suit).shanten(hand, visible, with_ukeire=with_ukeire) for suit in suits)
        return min(answers, key=partial(_void_rank, hand.counts))

    def _shape_counts(self, hand: Hand) -> bytes:
        """The concealed counts the shape is measured on: with a void suit, its tiles taken out
        (each one a tile the complete hand lacks). A meld of the void suit is refused: that hand
        never wins, so it has no distance."""
        if self.void_suit is None:
            return hand.counts
        for index, meld in enumerate(hand.melds):
            if meld.tiles[0] // 9 == self.void_suit:
                raise VoidSuitMelded(
                    f"a meld of the void suit {format_suit(self.void_suit)}: a hand never melds its void suit "
                    "(定缺) and cannot win holding it",
                    field=f"melds[{index}].tiles",
                )
        return without_suit(hand.counts, self.void_suit)

    def _shape_only(self) -> Checker:
        """These rules without the void suit: the shape alone, for /win's ``complete_shape``."""
        if self._bound is None:
            self._bound = {}
        found = self._bound.get(-1)
        if found is None:
            found = self._bound[-1] = Checker(replace(self.rules, void_suit=False))
        return found

    def _regular(
        self, plain: bytes, melds_wanted: int, caps: bytes, draws: bool, keys: tuple[int, int, int, int] | None = None
    ) -> tuple[int, bytes | None]:
        """The regular distance and, when ``draws`` and cheap, its improving draws as flags (else None)."""
        if caps is _FULL:
            # The compiled look-up reads the same tables (app/core/shape/tables.py installs them).
            if draws:
                return _regular_draws(plain, melds_wanted)
            return _regular_draws(plain, melds_wanted)[0], None
        if caps is self._base_caps and self._absent is not None:
            found = absent_regular_draws(plain, melds_wanted, self._absent, keys)
            if found is not None:
                return found if draws else (found[0], None)
        return capped_regular_distance(plain, caps, melds_wanted), None

    def _distances(self, counts: bytes, plain: bytes, w: int, size: int, closed: bool, caps: bytes) -> _Distances:
        """Distances of every form, in :data:`FORMS` order, the ``w`` wildcards held credited (None:
        ruled out) of ``size`` concealed ``counts``, ``plain`` those without their wildcards."""
        melds_wanted = size // 3
        regular = self._regular(plain, melds_wanted, caps, False)[0]
        knitted, honors = self._knitted_distances(plain, melds_wanted, closed, caps) if self._knitted else (None, None)
        pairs = None
        if closed and self._seven_pairs:
            if self._pairs_plain:
                pairs = seven_pairs_distance(counts, quad_as_two=self._quad_as_two)
            else:
                pairs = _credited(seven_pairs_distance(plain, quad_as_two=self._quad_as_two), w)
        return (
            _credited(regular, w),
            pairs,
            _credited(thirteen_orphans_distance(plain), w) if closed and self._thirteen_orphans else None,
            None if knitted is None else _credited(knitted, w),
            None if honors is None else _credited(honors, w),
            self._held_distance(w, size, caps),
        )

    def _held_distance(self, w: int, size: int, caps: bytes) -> int | None:
        """The wildcards-held form's distance for ``size`` concealed tiles holding ``w`` wildcards
        (None: no such form, or no complete hand of that size and caps holds enough wildcards).

        The complete hands are those of the winning size (one tile more than a 3n+1 hand) that hold
        ``need`` wildcards: a 3n+1 hand lacks ``need - w`` of them and, holding enough already, one
        tile of any kind; a 3n+2 hand lacks ``need - w``.
        """
        need = self._held_need
        if need is None:
            return None
        ready_size = size + 1 if size % 3 == 1 else size
        if ready_size < need or sum(caps[tile] for tile in self._wild_tiles) < need:
            return None
        floor = 1 if size % 3 == 1 else 0
        return need - w if need - w > floor else floor

    def _knitted_distances(
        self,
        plain: bytes,
        melds_wanted: int,
        closed: bool,
        caps: bytes,
        keys: tuple[int, int, int, int] | None = None,
        *,
        at_most: int = 255,
    ) -> tuple[int | None, int | None]:
        """Raw distances of the knitted straight and of honours and knitted (None: the hand cannot hold it).

        A distance of 255 (beyond any hand) means the capped tiles rule the form out.  The
        knitted straight's is exact up to ``at_most`` (see :func:`knitted_forms_distances`).
        """
        straight_melds = melds_wanted - _KNITTED_MELDS if melds_wanted >= _KNITTED_MELDS else None
        if caps is _FULL:
            return knitted_forms_distances(plain, straight_melds, closed, keys, at_most=at_most)
        knitted = None
        if straight_melds is not None:
            knitted = min(capped_knitted_straight_distances(plain, caps, straight_melds))
        return knitted, capped_honors_and_knitted_distance(plain, caps) if closed else None

    def _knitted_draws(
        self,
        plain: bytes,
        melds_wanted: int,
        caps: bytes,
        best: int,
        knitted: bool,
        honors: bool,
        keys: tuple[int, int, int, int] | None,
    ) -> int:
        """Draws (flag bits) that shorten the knitted forms tying for ``best``: by the
        assignments' missing tiles and rests without caps, by trying each draw with them."""
        if caps is _FULL:
            merged = 0
            if knitted:
                draws = knitted_straight_improving_draws(plain, melds_wanted - _KNITTED_MELDS, best, keys)
                merged |= int.from_bytes(draws, "little")
            if honors:
                merged |= int.from_bytes(honors_and_knitted_improving_draws(plain, best), "little")
            return merged
        merged = 0
        for tile in range(NUM_TILE_KINDS):
            if plain[tile] >= caps[tile]:
                continue
            after = _plus(plain, tile)
            shorter = self._knitted_distances(after, melds_wanted, honors, caps)
            if (knitted and shorter[0] is not None and shorter[0] < best) or (
                honors and shorter[1] is not None and shorter[1] < best
            ):
                merged |= _BIT[tile]
        return merged

    def _analyse(
        self,
        counts: bytes,
        size: int,
        closed: bool,
        caps: bytes,
        draws: bool,
        keys: tuple[int, int, int, int] | None = None,
        *,
        every_form: bool = False,
    ) -> tuple[int, _Distances, tuple[Tile, ...]]:
        """(shanten, distances with the wildcards credited, improving draws) of ``size`` concealed ``counts``.

        Improving draws are computed only when ``draws`` (for 3n+1 hands).
        ``keys`` may pass the suit keys of ``counts`` when the caller has them.
        The knitted straight's distance is exact only when ``every_form`` or when
        it is at most the other forms' best; else it is some value above that best.
        """
        melds_wanted = size // 3
        if self._wild_tiles:
            plain, wilds = self._split_wilds(counts)
            w = len(wilds)
            keys = None
        else:
            plain, w = counts, 0
        if self._knitted and keys is None and caps is _FULL:
            keys = suit_keys(plain)  # shared with the knitted straight
        # One pass gives the regular distance and, on the table paths, its improving draws.
        raw_regular, regular_flags = self._regular(plain, melds_wanted, caps, draws, keys)
        regular = raw_regular - w if raw_regular > w else 0
        pairs = orphans = None
        if closed and self._seven_pairs:
            # With the wildcards plain in seven pairs (Hunan's 红中), they count as tiles of their kind.
            pairs_counts = counts if self._pairs_plain else plain
            pairs = seven_pairs_distance(pairs_counts, quad_as_two=self._quad_as_two)
            if not self._pairs_plain:
                pairs = pairs - w if pairs > w else 0
        if closed and self._thirteen_orphans:
            orphans = _credited(thirteen_orphans_distance(plain), w)
        held = self._held_distance(w, size, caps) if self._held_need is not None else None
        best = regular
        if pairs is not None and pairs < best:
            best = pairs
        if orphans is not None and orphans < best:
            best = orphans
        if held is not None and held < best:
            best = held
        knitted = honors = None
        if self._knitted:
            knitted, honors = self._knitted_distances(
                plain, melds_wanted, closed, caps, keys, at_most=255 if every_form else best + w
            )
            knitted = None if knitted is None else _credited(knitted, w)
            honors = None if honors is None else _credited(honors, w)
            if knitted is not None and knitted < best:
                best = knitted
            if honors is not None and honors < best:
                best = honors
        shanten = best - 1 if best > 0 else -1
        distances = (regular, pairs, orphans, knitted, honors, held)
        if shanten == -1 or not draws:
            return shanten, distances, ()
        # A draw helps iff it shortens a form that ties for the best distance (each draw shortens
        # a form by one at most). Draws travel as 34 flag bytes; several forms are merged as integers.
        if regular == best:
            if regular_flags is not None:
                flags = regular_flags
            else:
                flags = bytes(
                    plain[tile] < caps[tile]
                    and capped_regular_distance(_plus(plain, tile), caps, melds_wanted) < raw_regular
                    for tile in range(NUM_TILE_KINDS)
                )
        else:
            flags = _NO_FLAGS
        if (
            pairs == best
            or orphans == best
            or knitted == best
            or honors == best
            or self._wild_tiles
            or caps is not _FULL
        ):
            merged = int.from_bytes(flags, "little")
            # Whether one more wildcard shortens a tying form: it does for every form that reads
            # it as any tile (a form at best > 0 still lacks a tile), and for the held form.
            wild_wanted = regular == best or orphans == best or knitted == best or honors == best or held == best
            plain_pairs_bits = 0
            if pairs == best:
                pair_draws = int.from_bytes(
                    seven_pairs_improving_draws(pairs_counts, quad_as_two=self._quad_as_two), "little"
                )
                if self._pairs_plain:
                    plain_pairs_bits = pair_draws & self._wild_bits  # a wildcard drawn as a tile of its kind
                else:
                    wild_wanted = True
                merged |= pair_draws
            if orphans == best:
                merged |= int.from_bytes(thirteen_orphans_improving_draws(plain), "little")
            if knitted == best or honors == best:
                merged |= self._knitted_draws(
                    plain, melds_wanted, caps, best + w, knitted == best, honors == best, keys
                )
            if self._wild_tiles:
                # The flags above read the wildcard's own tile as plain: drop them, then add a
                # wildcard where it is wanted as one (or, plain in seven pairs, as itself).
                merged = (merged & ~self._wild_bits) | plain_pairs_bits | (self._wild_bits if wild_wanted else 0)
                if held == best and w >= (self._held_need or 0):
                    merged |= _ALL_BITS  # a 3n+1 hand holding enough wildcards: any tile wins
            if caps is not _FULL or self._wild_tiles:
                merged &= int.from_bytes(bytes(c < cap for c, cap in zip(counts, caps, strict=True)), "little")
            flags = merged.to_bytes(NUM_TILE_KINDS, "little")
        return shanten, distances, flagged_tiles(flags)

    def precondition_failure(self, hand: Hand) -> str | None:
        """Why the rules forbid this hand to win whatever its shape, else None: it holds a tile
        of its void suit (with none named: a tile of every suit), or lacks a required meld."""
        if self.void_suit is not None:
            if holds_suit(hand, self.void_suit):
                return VOID_SUIT_HELD
        elif self._auto_void and all(holds_suit(hand, suit) for suit in SUITS):
            return VOID_SUIT_HELD
        required = self.rules.win_requires_meld
        if required and not any(meld.kind in required for meld in hand.melds):
            return OPEN_MELD_REQUIRED
        return None

    def remaining(self, hand: Hand, visible: bytes | None = None) -> bytes:
        """Unseen copies of each tile: 4 minus hand, melds and ``visible``; 0 for an absent tile.

        Raises :class:`TooManyCopies` when more than four copies are accounted for,
        :class:`~app.core.shape.rules.AbsentTile` when the hand, a meld or ``visible`` holds
        a tile the rules' set does not have.

        >>> from app.core.shape.rules import rule_profile
        >>> from app.core.shape.tiles import parse_mpsz
        >>> left = Checker(rule_profile("sanma")).remaining(Hand.from_tiles(parse_mpsz("19m1p")))
        >>> left[0], left[4], left[9]
        (3, 0, 3)
        """
        if self._absent is not None:
            self.check_tiles_exist(hand, visible)
        seen: bytes | list[int] = hand.all_counts() if hand.melds else hand.counts
        if visible is not None and any(visible):  # nothing seen (the usual request): nothing to add
            seen = list(map(add, seen, visible))
        if max(seen) > 4:
            tile = next(t for t, c in enumerate(seen) if c > 4)
            raise TooManyCopies(
                f"{seen[tile]} copies of {format_tile(tile)} in hand, melds and visible tiles; a tile has 4",
                field="visible",
            )
        left = bytes(seen).translate(_FOUR_MINUS)
        if self._set_caps is not _FULL:  # a void suit's tiles stay in the wall: only the set's own absences
            left = bytes(map(min, left, self._set_caps))
        return left

    def check_tiles_exist(self, hand: Hand, visible: bytes | None = None) -> None:
        """Raise :class:`~app.core.shape.rules.AbsentTile` (field ``hand``, ``melds[i].tiles`` or ``visible``)
        if the hand, a meld or ``visible`` holds a tile the rules' set does not have."""
        absent = self.rules.absent_tiles
        if not absent:
            return
        counts = hand.counts
        self.rules.check_tiles_exist((t for t in absent if counts[t]), field="hand")
        for index, meld in enumerate(hand.melds):
            self.rules.check_tiles_exist(meld.tiles, field=f"melds[{index}].tiles")
        if visible is not None:
            self.rules.check_tiles_exist((t for t in absent if visible[t]), field="visible")

    # -- questions -------------------------------------------------------

    def shanten(self, hand: Hand, visible: bytes | None = None, *, with_ukeire: bool = True) -> ShantenResult:
        """Shanten per form and overall; for 3n+1 hands also the ukeire (unless not ``with_ukeire``).

        >>> from app.core.shape.rules import rule_profile
        >>> from app.core.shape.tiles import parse_mpsz
        >>> result = Checker(rule_profile("riichi")).shanten(Hand.from_tiles(parse_mpsz("1111222233334z")))
        >>> result.shanten, result.regular, result.seven_pairs, result.thirteen_orphans
        (3, 3, 6, 8)
        """
        n = hand.tile_count
        if n % 3 == 0 or n > 14:
            _check_size(hand, (1, 2))
        if self._auto_void:  # the best suit to void: the lowest shanten, then the most ukeire
            return self._best_void_answer(hand, self.voidable_suits(hand), visible, with_ukeire=with_ukeire)
        closed = n >= 13 and not hand.melds
        draws = n % 3 == 1 and with_ukeire
        shanten, (regular, pairs, orphans, knitted, honors, held), improving = self._analyse(
            hand.counts if self.void_suit is None else self._shape_counts(hand),
            n,
            closed,
            self.caps(hand),
            draws,
            every_form=True,
        )
        ukeire = None
        if draws:
            left = self.remaining(hand, visible)
            ukeire = tuple(map(_make_tile_count, zip(improving, map(left.__getitem__, improving), strict=True)))
        return _make_shanten(
            (
                shanten,
                regular - 1,
                None if pairs is None else pairs - 1,
                None if orphans is None else orphans - 1,
                ukeire,
                self.precondition_failure(hand) if shanten == -1 else None,
                None if knitted is None else _form_shanten(knitted),
                None if honors is None else _form_shanten(honors),
                self.void_suit,
                None if held is None else held - 1,
            )
        )

    def shanten_number(self, hand: Hand) -> int:
        """The shanten alone (no forms, no ukeire): the cheapest question, for simulations.

        >>> from app.core.shape.rules import rule_profile
        >>> from app.core.shape.tiles import parse_mpsz
        >>> Checker(rule_profile("riichi")).shanten_number(Hand.from_tiles(parse_mpsz("1111222233334z")))
        3
        """
        n = hand.tile_count
        if n % 3 == 0 or n > 14:
            _check_size(hand, (1, 2))
        if self._auto_void:
            return min(self.bound(suit).shanten_number(hand) for suit in self.voidable_suits(hand))
        caps = self.caps(hand)
        closed = n >= 13 and not hand.melds
        if caps is not _FULL or not self._plain_shapes or n > 14:
            counts = hand.counts if self.void_suit is None else self._shape_counts(hand)
            return self._analyse(counts, n, closed, caps, False)[0]
        # The shared tables judge the hand alone: _analyse's answer without its general steps.
        counts = hand.counts
        best = _regular_draws(counts, n // 3)[0]
        if closed:
            if self._seven_pairs:
                pairs = seven_pairs_distance(counts, quad_as_two=self._quad_as_two)
                if pairs < best:
                    best = pairs
            if self._thirteen_orphans:
                orphans = thirteen_orphans_distance(counts)
                if orphans < best:
                    best = orphans
        return best - 1 if best > 0 else -1

    def discard_shanten_numbers(self, hand: Hand) -> list[tuple[Tile, int]]:
        """For a 3n+2 hand: each distinct discard with the shanten it leaves (as
        :meth:`shanten_number` of the hand without it), in tile order; no ukeire, for simulations.

        >>> from app.core.shape.rules import rule_profile
        >>> from app.core.shape.tiles import parse_mpsz
        >>> Checker(rule_profile("riichi")).discard_shanten_numbers(Hand.from_tiles(parse_mpsz("123m456p789s11122z")))[-2:]
        [(27, 0), (28, 0)]
        """
        n = _check_size(hand, (2,)) - 1
        if self._auto_void:
            # Each discard with the best suit to void after it.
            per_suit = [self.bound(suit).discard_shanten_numbers(hand) for suit in self.voidable_suits(hand)]
            return [(options[0][0], min(shanten for _, shanten in options)) for options in zip(*per_suit, strict=True)]
        counts = hand.counts
        melds_wanted = n // 3
        closed = n >= 13 and not hand.melds
        caps = self.caps(hand)
        if caps is _FULL and self._plain_rules and not self._knitted and max(counts) <= 4:
            return self._plain_discard_shanten_numbers(counts, melds_wanted, closed)
        return [
            (tile, self._analyse(after, n, closed, caps, False, after_keys)[0])
            for tile, after, after_keys in self._after_each_discard(hand, caps)
        ]

    def _after_each_discard(
        self, hand: Hand, caps: bytes
    ) -> Iterator[tuple[Tile, bytes, tuple[int, int, int, int] | None]]:
        """Each distinct discard of ``hand`` with the shape it leaves and, without wildcards, that
        shape's suit keys (None: :meth:`_analyse` finds them).  A void suit's tiles are out of the
        shape, so discarding one leaves the shape as it is; a discard moves one suit key by 5**i,
        so the other three are reused."""
        counts = hand.counts
        shape = self._shape_counts(hand)
        keys = suit_keys(shape) if caps is self._base_caps and not self._wild_tiles else None
        after_keys = None
        for tile in range(NUM_TILE_KINDS):
            if counts[tile]:
                if shape[tile]:
                    after = shape[:tile] + _LESS_ONE[shape[tile]] + shape[tile + 1 :]
                    if keys is not None:
                        suit, offset = _SUIT_AND_POWER[tile]
                        after_keys = keys[:suit] + (keys[suit] - offset,) + keys[suit + 1 :]
                else:
                    after, after_keys = shape, keys
                yield tile, after, after_keys

    def _plain_discard_shanten_numbers(self, counts: bytes, melds_wanted: int, closed: bool) -> list[tuple[Tile, int]]:
        """:meth:`discard_shanten_numbers` where :meth:`_analyse` reads only the regular form
        from the shared tables, seven pairs and thirteen orphans (no wildcards, caps, knitted
        forms): each discard changes one suit's class, so the other three are looked up once."""
        built = tables()
        number = built.number_suit
        class_of = number.class_of
        honor_class_of = built.honors.class_of
        number_classes, honor_classes = built.number_classes, built.honor_classes
        man_pin, sou_honors, final, stride = built.man_pin, built.sou_honors, built.final, built.final_stride
        key_m, key_p, key_s, key_h = suit_keys(counts)
        c_m, c_p, c_s, c_h = class_of[key_m], class_of[key_p], class_of[key_s], honor_class_of[key_h]
        # The final row of each half as it stands, to pair with the other half's changed class.
        with_sou_honors = sou_honors[c_s * honor_classes + c_h] * 5 + melds_wanted
        with_man_pin = man_pin[c_m * number_classes + c_p] * stride + melds_wanted
        seven_pairs, orphans = self._seven_pairs and closed, self._thirteen_orphans and closed
        quad_as_two = self._quad_as_two
        # The closed forms' distances depend on how many kinds are held once, twice, ... (seven
        # pairs) and how many orphans once or at all: a discard moves one kind down by one.
        profile = [0, counts.count(1), counts.count(2), counts.count(3), counts.count(4)]
        held_orphans = _orphan_counts(counts)
        orphan_kinds = 13 - held_orphans.count(0)
        orphan_singles = held_orphans.count(1)
        # A distance never shrinks as a tile goes (the complete hands lack as much or more), so a
        # form whose distance with every tile held is no shorter than a discard's best cannot
        # lower it: the usual case, where the regular form is nearest.
        pairs_floor = (
            seven_pairs_from_profile(profile[1], profile[2], profile[3], profile[4], quad_as_two) if seven_pairs else 0
        )
        orphans_floor = thirteen_orphans_from_profile(orphan_kinds, orphan_singles) if orphans else 0
        options = []
        for tile in range(NUM_TILE_KINDS):
            count = counts[tile]
            if not count:
                continue
            suit, offset = _SUIT_AND_POWER[tile]
            if suit == 0:
                best = final[man_pin[class_of[key_m - offset] * number_classes + c_p] * stride + with_sou_honors]
            elif suit == 1:
                best = final[man_pin[c_m * number_classes + class_of[key_p - offset]] * stride + with_sou_honors]
            elif suit == 2:
                best = final[with_man_pin + sou_honors[class_of[key_s - offset] * honor_classes + c_h] * 5]
            else:
                best = final[with_man_pin + sou_honors[c_s * honor_classes + honor_class_of[key_h - offset]] * 5]
            if seven_pairs and pairs_floor < best:
                profile[count] -= 1
                profile[count - 1] += 1
                pairs = seven_pairs_from_profile(profile[1], profile[2], profile[3], profile[4], quad_as_two)
                profile[count] += 1
                profile[count - 1] -= 1
                if pairs < best:
                    best = pairs
            if orphans and orphans_floor < best:
                if tile in _ORPHAN_SET and count <= 2:
                    # One held: one kind fewer (and one single fewer); two held: one single more.
                    far = (
                        thirteen_orphans_from_profile(orphan_kinds - 1, orphan_singles - 1)
                        if count == 1
                        else thirteen_orphans_from_profile(orphan_kinds, orphan_singles + 1)
                    )
                else:
                    far = thirteen_orphans_from_profile(orphan_kinds, orphan_singles)
                if far < best:
                    best = far
            options.append((tile, best - 1))  # no wildcards: shanten is the distance less one
        return options

    def waits(self, hand: Hand, visible: bytes | None = None) -> WaitResult:
        """Tiles that complete a 3n+1 hand into a win, with unseen copies.

        >>> from app.core.shape.rules import rule_profile
        >>> from app.core.shape.tiles import parse_mpsz
        >>> result = Checker(rule_profile("riichi")).waits(Hand.from_tiles(parse_mpsz("123456789m1112z")))
        >>> [(w.tile, w.remaining) for w in result.waits], result.tenpai
        ([(28, 3)], True)
        """
        _check_size(hand, (1,))
        result = self.shanten(hand, visible)
        if result.void_suit is not None and result.void_suit != self.void_suit:
            # No suit named: the waits of the best suit to void, the one shanten chose.
            return self.bound(result.void_suit).waits(hand, visible)
        ukeire = result.ukeire
        assert ukeire is not None  # a 3n+1 hand always has its ukeire
        ready = result.shanten == 0
        shape_waits = tuple(t.tile for t in ukeire) if ready else ()
        reason = self.precondition_failure(hand) if ready else None
        waits = ukeire if ready and reason is None else ()
        tenpai = bool(waits)
        karaten = tenpai and all(w.remaining == 0 for w in waits)
        return WaitResult(tenpai, waits, karaten, reason, shape_waits, self.void_suit)

    def is_win(self, hand: Hand) -> bool:
        """Whether a 3n+2 hand wins (no decompositions: the fast path).

        >>> from app.core.shape.rules import rule_profile
        >>> from app.core.shape.tiles import parse_mpsz
        >>> Checker(rule_profile("riichi")).is_win(Hand.from_tiles(parse_mpsz("11223344556677z")))
        True
        >>> Checker(rule_profile("qiqihar")).is_win(Hand.from_tiles(parse_mpsz("11223344556677z")))
        False
        """
        counts = hand.counts
        n = hand.tile_count
        if n % 3 != 2:
            return False
        if self._auto_void:
            # Any suit the hand lacks may be its void suit; holding all three, it cannot win.
            return any(self.bound(suit).is_win(hand) for suit in SUITS if not holds_suit(hand, suit))
        if self.void_suit is not None and holds_suit(hand, self.void_suit):
            return False
        if self._plain_rules and not (hand.melds and self.rules.melded_tiles_count_toward_limit):
            # No wildcards, no precondition, no melded caps: the common question,
            # answered by four look-ups in the complete-suit sets.
            man = self._complete_number.get(counts[0:9])
            if man is not None:
                pin = self._complete_number.get(counts[9:18])
                if pin is not None:
                    sou = self._complete_number.get(counts[18:27])
                    if sou is not None:
                        honors = self._complete_honors.get(counts[27:34])
                        if honors is not None and man + pin + sou + honors == 1:
                            return True
            if n == 14 and (
                (self._seven_pairs and seven_pairs_distance(counts, quad_as_two=self._quad_as_two) == 0)
                or (self._thirteen_orphans and thirteen_orphans_distance(counts) == 0)
            ):
                return True
            if not self._knitted or n // 3 < _KNITTED_MELDS:
                return False
            knitted, honors = self._knitted_distances(
                counts, n // 3, n == 14 and not hand.melds, self._base_caps, at_most=0
            )
            return knitted == 0 or honors == 0
        plain, wilds = self._split_wilds(counts)
        caps = self.caps(hand)
        w = len(wilds)
        if self._regular(plain, n // 3, caps, False)[0] > w and self._held_distance(w, n, caps) != 0:
            closed = n >= 14 and not hand.melds
            if not closed and not (self._knitted and n // 3 >= _KNITTED_MELDS):
                return False
            if 0 not in self._distances(counts, plain, w, n, closed, caps)[1:]:
                return False
        return not self.rules.win_requires_meld or self.precondition_failure(hand) is None

    def win(self, hand: Hand, *, limit: int = DEFAULT_DECOMPOSITION_LIMIT) -> WinResult:
        """Whether a 3n+2 hand wins, its form and every decomposition (up to ``limit``).

        >>> from app.core.shape.rules import rule_profile
        >>> from app.core.shape.tiles import parse_mpsz
        >>> result = Checker(rule_profile("riichi")).win(Hand.from_tiles(parse_mpsz("11122233344455m")))
        >>> result.win, result.form, len(result.decompositions)
        (True, 'regular', 4)
        """
        n = _check_size(hand, (2,))
        if self._auto_void:
            lacking = [suit for suit in SUITS if not holds_suit(hand, suit)]
            if lacking:  # the hand holds no tile of either: the answers agree
                return self.bound(lacking[0]).win(hand, limit=limit)
        if self.rules.void_suit and self.precondition_failure(hand) == VOID_SUIT_HELD:
            # Not a win whatever the shape: the shape alone says how complete it is.
            shape = self._shape_only().win(hand, limit=limit)
            return shape._replace(win=False, reason=VOID_SUIT_HELD, void_suit=self.void_suit)
        plain, wilds = self._split_wilds(hand.counts)
        caps = self.caps(hand)
        distances = self._distances(hand.counts, plain, len(wilds), n, n >= 13 and not hand.melds, caps)
        complete_forms = [form for form, distance in zip(FORMS, distances, strict=True) if distance == 0]
        if not complete_forms:
            return WinResult(False, None, (), None, void_suit=self.void_suit)
        found: list[Decomposition] = []
        truncated = False
        for form in complete_forms:
            room = limit - len(found)
            if room <= 0:
                truncated = True
                break
            if form == REGULAR:
                more, cut = regular_decompositions(plain, caps, wilds, room)
            elif form == SEVEN_PAIRS and self._pairs_plain:  # the wildcards are plain tiles there
                more, cut = seven_pairs_decompositions(hand.counts, (), quad_as_two=self._quad_as_two, limit=room)
            elif form == SEVEN_PAIRS:
                more, cut = seven_pairs_decompositions(plain, wilds, quad_as_two=self._quad_as_two, limit=room)
            elif form == THIRTEEN_ORPHANS:
                more, cut = thirteen_orphans_decompositions(plain, wilds, limit=room)
            elif form == KNITTED_STRAIGHT:
                more, cut = knitted_straight_decompositions(plain, caps, wilds, n // 3 - _KNITTED_MELDS, limit=room)
            elif form == HONORS_AND_KNITTED:
                more, cut = honors_and_knitted_decompositions(plain, caps, wilds, limit=room)
            else:
                more, cut = [wildcards_held_decomposition(plain, wilds)], False
            if self._absent is not None and wilds:
                # A wildcard may stand only for a tile that exists (seven pairs' new pairs).
                more = [d for d in more if not _uses_absent(d, self._base_caps)]
            found.extend(more)
            truncated = truncated or cut
        reason = self.precondition_failure(hand)
        return WinResult(reason is None, complete_forms[0], tuple(found), reason, truncated, True, self.void_suit)

    def discards(self, hand: Hand, visible: bytes | None = None) -> list[DiscardOption]:
        """For a 3n+2 hand: each distinct discard's shanten and ukeire, in tile order.

        A candidate's unseen counts treat the discarded tile as seen (it is in
        the 14-tile hand), as Tenhou's 牌理 does.

        >>> from app.core.shape.rules import rule_profile
        >>> from app.core.shape.tiles import parse_mpsz
        >>> options = Checker(rule_profile("riichi")).discards(Hand.from_tiles(parse_mpsz("123m456p789s11122z")))
        >>> [(o.tile, o.shanten, [(t.tile, t.remaining) for t in o.ukeire]) for o in options][-2:]
        [(27, 0, [(27, 1), (28, 2)]), (28, 0, [(28, 2)])]
        """
        n = _check_size(hand, (2,))
        if self._auto_void:
            return self.bound(self.best_void_suit(hand)).discards(hand, visible)
        left = self.remaining(hand, visible)
        counts = hand.counts
        melds_wanted = (n - 1) // 3
        closed = n - 1 >= 13 and not hand.melds
        caps = self.caps(hand)
        if caps is _FULL and self._plain_shapes:
            return self._plain_discards(counts, melds_wanted, closed, left)
        options = []
        for tile, after, after_keys in self._after_each_discard(hand, caps):
            shanten, _, improving = self._analyse(after, n - 1, closed, caps, True, after_keys)
            copies = list(map(left.__getitem__, improving))
            ukeire = tuple(map(_make_tile_count, zip(improving, copies, strict=True)))
            options.append(_make_option((tile, shanten, ukeire, sum(copies))))
        return options

    def _plain_discards(self, counts: bytes, melds_wanted: int, closed: bool, left: bytes) -> list[DiscardOption]:
        """:meth:`discards` of a hand the shared tables judge alone (no wildcards, no knitted forms,
        every tile up to four copies): :meth:`_analyse`'s answer, with less work per discard.

        The regular form's distance and draws are one compiled look-up.  Seven pairs and thirteen
        orphans are measured once per kind of removal, not once per discard: after taking one copy
        from a tile held ``c`` times, the seven-pairs distance depends only on ``c`` (it reads how
        many kinds hold each count), the thirteen-orphans distance only on ``c`` and whether the
        tile is an orphan.  Their draws, which name tiles, are still found per discard, and only
        where the form ties for the best distance.
        """
        pairs_on = closed and self._seven_pairs
        orphans_on = closed and self._thirteen_orphans
        quad_as_two = self._quad_as_two
        pairs_after: dict[int, int] = {}
        orphans_after: dict[tuple[bool, int], int] = {}
        # Each tile's ukeire entry, built once: the unseen counts do not change between discards.
        entries = list(map(_TILE_COUNTS.__getitem__, zip(range(NUM_TILE_KINDS), left, strict=True)))
        options = []
        for tile in range(NUM_TILE_KINDS):
            held = counts[tile]
            if not held:
                continue
            after = counts[:tile] + _LESS_ONE[held] + counts[tile + 1 :]
            regular, flags = _regular_draws(after, melds_wanted)
            best = regular
            pairs = orphans = None
            if pairs_on:
                pairs = pairs_after.get(held)
                if pairs is None:
                    pairs = pairs_after[held] = seven_pairs_distance(after, quad_as_two=quad_as_two)
                if pairs < best:
                    best = pairs
            if orphans_on:
                kind = (tile in _ORPHANS, held)
                orphans = orphans_after.get(kind)
                if orphans is None:
                    orphans = orphans_after[kind] = thirteen_orphans_distance(after)
                if orphans < best:
                    best = orphans
            if best == 0:  # cannot happen to a 3n+1 hand; kept as _analyse has it
                options.append(_make_option((tile, -1, (), 0)))
                continue
            if regular != best:
                flags = _NO_FLAGS
            if pairs == best or orphans == best:
                merged = int.from_bytes(flags, "little")
                if pairs == best:
                    merged |= int.from_bytes(seven_pairs_improving_draws(after, quad_as_two=quad_as_two), "little")
                if orphans == best:
                    merged |= int.from_bytes(thirteen_orphans_improving_draws(after), "little")
                flags = merged.to_bytes(NUM_TILE_KINDS, "little")
            improving = flagged_tiles(flags)
            ukeire = tuple(map(entries.__getitem__, improving))
            options.append(_make_option((tile, best - 1, ukeire, sum(map(left.__getitem__, improving)))))
        return options


@lru_cache(maxsize=16)
def _absent_shapes(absent: tuple[Tile, ...]) -> AbsentShapes:
    return AbsentShapes(absent)


def _void_rank(counts: bytes, result: ShantenResult) -> tuple[int, int, int, int]:
    """How good a void suit's shanten answer is (less is better): shanten, then ukeire, then
    fewer tiles of the suit to throw, then the suit."""
    suit = result.void_suit or 0
    return result.shanten, -(result.ukeire_count or 0), sum(counts[9 * suit : 9 * suit + 9]), suit


def _uses_absent(decomposition: Decomposition, caps: bytes) -> bool:
    tiles = [
        *decomposition.pairs,
        *(t for group in decomposition.melds for t in group),
        *(s for _, s in decomposition.wildcards),
    ]
    if decomposition.pair is not None:
        tiles.append(decomposition.pair)
    return any(caps[t] == 0 for t in tiles)


def _form_shanten(distance: int) -> int | None:
    """A form's shanten from its distance (wildcards credited), None where the caps rule the
    form out (distance 255)."""
    if distance >= _IMPOSSIBLE:
        return None
    return distance - 1


def _credited(distance: int, wildcards: int) -> int:
    """A form's distance with ``wildcards`` covering missing tiles; 255 (ruled out) stays."""
    if distance >= _IMPOSSIBLE:
        return distance
    return distance - wildcards if distance > wildcards else 0


def _plus(counts: bytes, tile: Tile) -> bytes:
    return counts[:tile] + bytes((counts[tile] + 1,)) + counts[tile + 1 :]


# TileCount from a (tile, remaining) pair: tuple.__new__ with the class bound skips
# the namedtuple's Python-level __new__ (ukeire lists build many of these).
_make_tile_count = partial(tuple.__new__, TileCount)
_make_shanten = ShantenResult._make
_make_option = partial(tuple.__new__, DiscardOption)
#: Every (tile, unseen copies) entry, built once: TileCount(tile, n) at key (tile, n).
_TILE_COUNTS: Final = {(tile, n): TileCount(tile, n) for tile in range(NUM_TILE_KINDS) for n in range(5)}
_NO_FLAGS: Final = bytes(NUM_TILE_KINDS)
_orphan_counts: Final = itemgetter(*ORPHANS)
_ORPHAN_SET: Final = frozenset(ORPHANS)
_ORPHANS: Final = frozenset(ORPHANS)
#: (regular distance, 34 flag bytes of the draws that lower it) of 34 counts, compiled.
_regular_draws: Final = compiled_regular_draws
#: For each tile: its suit's position in :func:`suit_keys` and ``5**(index in suit)``.
_SUIT_AND_POWER: Final = tuple(
    (min(tile // 9, 3), 5 ** (tile - 9 * min(tile // 9, 3))) for tile in range(NUM_TILE_KINDS)
)
_FOUR_MINUS: Final = bytes(max(0, 4 - n) for n in range(256))
_BIT: Final = tuple(1 << (8 * tile) for tile in range(NUM_TILE_KINDS))
_ALL_BITS: Final = sum(_BIT)
#: The distance the capped knitted forms report when the caps rule them out.
_IMPOSSIBLE: Final = 255
_LESS_ONE: Final = tuple(bytes((max(0, n - 1),)) for n in range(256))


def _check_size(hand: Hand, remainders: Sequence[int]) -> int:
    """The concealed tile count; :class:`WrongTileCount` unless it is 3n+r for r in ``remainders``."""
    n = hand.tile_count
    if n % 3 not in remainders or n == 0:
        expected = " or ".join(f"3n+{r}" for r in remainders)
        limit = 14 - 3 * len(hand.melds)
        sizes = ", ".join(str(s) for s in range(1, limit + 1) if s % 3 in remainders)
        raise WrongTileCount(
            f"{counted(n, 'concealed tile')} with {counted(len(hand.melds), 'meld')}; "
            f"this question needs {expected} tiles ({sizes})",
            field="hand",
        )
    return n

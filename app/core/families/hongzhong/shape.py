"""The hongzhong hand: its tile set, its hand-rules profile, and the win as the text defines it.

**The tile set** is 112 tiles: the three suits and four 红中 (the rule text's "tiles"); the
other six honours are absent. **The hand-rules profile** (:func:`hand_rules`) gives the shape
engine (:class:`~app.core.shape.engine.Checker`) that set, 红中 as the wildcard, no chi and
seven pairs: the engine's answers under it are the regular form's, exactly, and seven pairs
with 红中 standing in.

Two parts of the text's win the profile cannot say, so :class:`HongzhongShape` adds them on top
of the engine (tests/families/hongzhong/ checks both against a brute force, and shows with
strict xfails what the wings would need to say them themselves):

* **four 红中** win at once, whatever the rest (摸到四张红中，自动胡牌; option
  ``four_red_wins``): a form of its own, ``4 - 红中 held`` draws from complete;
* **seven pairs without wildcards** (胡7对时红中不能作为万能牌使用; option
  ``wild_seven_pairs`` off): there a 红中 is a plain tile, two of them a pair. The engine's
  seven pairs under the profile lets 红中 stand in; the natural seven pairs is measured on the
  counts as they are (the shape wing's seven-pairs distance and draws), beside the engine's
  regular form (:func:`regular_rules`).

A wildcard may stand for 红中 itself in the engine (its rule for every wildcard); in a hand
whose every 红中 is wild that changes no answer (a group of stand-ins for 红中 can always stand
for a suit tile the hand lacks instead), which the brute force, whose stand-ins are suit tiles
only, confirms.

>>> from app.core.shape.tiles import parse_mpsz
>>> shape = HongzhongShape(HongzhongOptions())
>>> shape.is_win(Hand.from_tiles(parse_mpsz("123m456p789s1199s7z")))  # 7z stands for 1s or 9s
True
>>> shape.is_win(Hand.from_tiles(parse_mpsz("1122334455m66p8s7z")))  # seven pairs only with 7z wild
False
>>> shape.is_win(Hand.from_tiles(parse_mpsz("1133557799m11p77z")))  # seven pairs, 77z a plain pair
True
>>> shape.is_win(Hand.from_tiles(parse_mpsz("159m159p159s17777z")))  # four 红中
True
"""

from __future__ import annotations

from typing import Final, NamedTuple

from app.core.families.hongzhong.options import TEXT_OPTIONS, HongzhongOptions
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.rules import RuleProfile, SevenPairs
from app.core.shape.shanten import flagged_tiles, seven_pairs_distance, seven_pairs_improving_draws
from app.core.shape.tiles import HONORS, NUM_TILE_KINDS, RED, Tile

#: The one wildcard: 红中 (7z).
WILDCARD: Final = RED
#: Honours the set lacks: every one but 红中.
ABSENT_TILES: Final[tuple[Tile, ...]] = tuple(tile for tile in HONORS if tile != RED)
#: The tile kinds of the set: 1-9 of each suit and 红中 (28 kinds, 112 tiles).
TILE_KINDS: Final[tuple[Tile, ...]] = tuple(tile for tile in range(NUM_TILE_KINDS) if tile not in ABSENT_TILES)
_KINDS: Final = frozenset(TILE_KINDS)
#: Copies of 红中: four, the most a hand can hold.
RED_COPIES: Final = 4
#: A four-红中 win needs a hand of at least this many concealed tiles (3n+2 with n >= 1).
_FOUR_RED_SIZE: Final = 5

FOUR_RED: Final = "four_red"
REGULAR: Final = "regular"
SEVEN_PAIRS: Final = "seven_pairs"


def _seven_pairs(options: HongzhongOptions) -> SevenPairs:
    if not options.seven_pairs:
        return SevenPairs.OFF
    return SevenPairs.QUAD_AS_TWO if options.quad_as_two_pairs else SevenPairs.DISTINCT


def hand_rules(options: HongzhongOptions = TEXT_OPTIONS) -> RuleProfile:
    """The shape engine's profile of a hongzhong hand: 112 tiles, 红中 wild, no chi, seven pairs
    as ``options`` say (with 红中 standing in: see the module's note).

    >>> rules = hand_rules()
    >>> rules.tile_total, rules.wildcards, rules.chi_allowed, rules.seven_pairs.value
    (112, (33,), False, 'quad_as_two')
    """
    return RuleProfile(
        "hongzhong",
        seven_pairs=_seven_pairs(options),
        thirteen_orphans=False,
        wildcards=(WILDCARD,),
        chi_allowed=False,
        # Any seat may win on any tile it has not thrown before: no furiten in the text.
        furiten=False,
        red_fives=False,
        absent_tiles=ABSENT_TILES,
        # 胡7对时红中不能作为万能牌使用: in seven pairs a 红中 is a plain tile.
        wildcards_in_seven_pairs=options.wild_seven_pairs,
        # 摸到四张红中，自动胡牌.
        wildcards_held_win=RED_COPIES if options.four_red_wins else None,
    )


def regular_rules() -> RuleProfile:
    """:func:`hand_rules` without seven pairs: the regular form with 红中 wild, alone."""
    return RuleProfile(
        "hongzhong",
        seven_pairs=SevenPairs.OFF,
        thirteen_orphans=False,
        wildcards=(WILDCARD,),
        chi_allowed=False,
        furiten=False,
        red_fives=False,
        absent_tiles=ABSENT_TILES,
    )


def red_held(hand: Hand) -> int:
    """红中 among the concealed tiles (melds never hold one: 不能辅助其他牌来碰、杠)."""
    return hand.counts[WILDCARD]


class ShapeAnswer(NamedTuple):
    """Shanten overall and per form (None: the options or the hand size rule the form out)."""

    shanten: int
    regular: int
    seven_pairs: int | None
    four_red: int | None


class HongzhongShape:
    """Win, shanten, improving draws and waits of a hongzhong hand as the rule text defines the win."""

    __slots__ = ("options", "checker", "_regular", "_natural", "_quad_as_two")

    def __init__(self, options: HongzhongOptions = TEXT_OPTIONS) -> None:
        self.options = options
        #: The engine under :func:`hand_rules`: exact whenever seven pairs may use 红中 wild.
        self.checker = Checker(hand_rules(options))
        self._regular = Checker(regular_rules())
        #: Seven pairs read with 红中 a plain tile (the text's), else by the engine with 红中 wild.
        self._natural = options.seven_pairs and not options.wild_seven_pairs
        self._quad_as_two = options.quad_as_two_pairs

    def _four_red_distance(self, hand: Hand) -> int | None:
        """Draws to hold four 红中 in a complete hand (None: not a form at this size). A waiting
        (3n+1) hand draws at least once, even holding all four."""
        waiting = hand.tile_count % 3 == 1
        if not self.options.four_red_wins or hand.tile_count + waiting < _FOUR_RED_SIZE:
            return None
        return max(RED_COPIES - red_held(hand), 1 if waiting else 0)

    def _natural_pairs(self, hand: Hand, draws: bool) -> tuple[int | None, tuple[Tile, ...]]:
        """Shanten of seven pairs with 红中 a plain tile (None: not a closed 13/14-tile hand), and
        with ``draws`` the tiles of the set that lower it."""
        if hand.melds or hand.tile_count < 13:
            return None, ()
        counts = hand.counts
        shanten = seven_pairs_distance(counts, quad_as_two=self._quad_as_two) - 1
        if not draws:
            return shanten, ()
        flags = seven_pairs_improving_draws(counts, quad_as_two=self._quad_as_two)
        return shanten, tuple(tile for tile in flagged_tiles(flags) if tile in _KINDS and counts[tile] < RED_COPIES)

    def analyse(self, hand: Hand, *, draws: bool = True) -> tuple[ShapeAnswer, tuple[Tile, ...]]:
        """Shanten per form of a 3n+1 or 3n+2 hand and, for a 3n+1 hand with ``draws``, the tiles
        of the set whose draw lowers the shanten (those that shorten a form tying for the best).

        >>> from app.core.shape.tiles import parse_mpsz, format_tile
        >>> answer, improving = HongzhongShape().analyse(Hand.from_tiles(parse_mpsz("1479m258p369s777z")))
        >>> answer, [format_tile(t) for t in improving]  # ready on a fourth 红中
        (ShapeAnswer(shanten=0, regular=4, seven_pairs=5, four_red=0), ['7z'])
        """
        draws = draws and hand.tile_count % 3 == 1
        engine = (self._regular if self._natural else self.checker).shanten(hand, with_ukeire=draws)
        regular = engine.regular
        if self._natural:
            pairs, pairs_draws = self._natural_pairs(hand, draws)
        else:
            pairs, pairs_draws = (engine.seven_pairs if self.options.seven_pairs else None), ()
        far = self._four_red_distance(hand)
        four_red = None if far is None else far - 1
        best = min(value for value in (regular, pairs, four_red) if value is not None)
        if not draws:
            return ShapeAnswer(best, regular, pairs, four_red), ()
        improving: set[Tile] = set()
        if engine.shanten == best:  # the engine's forms (regular, and wild seven pairs) tie for the best
            improving.update(count.tile for count in engine.ukeire or ())
        if pairs == best and self._natural:
            improving.update(pairs_draws)
        if four_red == best:
            if red_held(hand) < RED_COPIES:
                improving.add(WILDCARD)
            else:  # four 红中 held: whatever is drawn completes the hand
                improving.update(tile for tile in TILE_KINDS if hand.counts[tile] < RED_COPIES)
        return ShapeAnswer(best, regular, pairs, four_red), tuple(sorted(improving))

    def forms(self, hand: Hand) -> ShapeAnswer:
        """Shanten per form of a 3n+1 or 3n+2 hand."""
        return self.analyse(hand, draws=False)[0]

    def shanten(self, hand: Hand) -> int:
        """The shanten of a 3n+1 or 3n+2 hand over every form the text allows."""
        return self.forms(hand).shanten

    def improving_draws(self, hand: Hand) -> tuple[Tile, ...]:
        """Tiles of the set whose draw lowers a 3n+1 hand's shanten (ukeire, copies not counted)."""
        return self.analyse(hand)[1]

    def is_win(self, hand: Hand) -> bool:
        """Whether a 3n+2 hand wins: regular with 红中 wild, seven pairs, or four 红中."""
        if hand.tile_count % 3 != 2:
            return False
        if self._four_red_distance(hand) == 0:
            return True
        if not self._natural:
            return self.checker.is_win(hand)
        return self._regular.is_win(hand) or self._natural_pairs(hand, False)[0] == -1

    def winning_form(self, hand: Hand) -> str | None:
        """The form a winning 3n+2 hand is paid as: four 红中 first, then seven pairs (paid
        ``seven_pairs_points``) or regular, the one worth more; None if it does not win."""
        if not self.is_win(hand):
            return None
        if self._four_red_distance(hand) == 0:
            return FOUR_RED
        regular = self._regular.is_win(hand)
        if self._natural:
            pairs = self._natural_pairs(hand, False)[0] == -1
        else:
            pairs = self.options.seven_pairs and self.checker.shanten(hand, with_ukeire=False).seven_pairs == -1
        if pairs and (not regular or self.options.seven_pairs_points > self.options.win_points):
            return SEVEN_PAIRS
        return REGULAR

    def waits(self, hand: Hand) -> tuple[Tile, ...]:
        """Tiles of the set that complete a 3n+1 hand into a win (by shape; copies not counted).

        >>> from app.core.shape.tiles import parse_mpsz, format_tile
        >>> [format_tile(t) for t in HongzhongShape().waits(Hand.from_tiles(parse_mpsz("123m456p789s11p2s7z")))]
        ['1p', '1s', '2s', '3s', '4s', '7z']
        """
        if hand.tile_count % 3 != 1:
            return ()
        answer, improving = self.analyse(hand)
        return improving if answer.shanten == 0 else ()

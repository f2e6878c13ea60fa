"""Hunan 红中麻将 as a request sees it: its preset, its typed options, its scorer and its value model.

The routes ask the family's hooks (:class:`~app.core.table.family.Family`, the request section)
and never name the family.  A request's ``rules`` is ``"hongzhong"`` or ``{"preset":
"hongzhong", ...}`` with the options of
:class:`~app.core.families.hongzhong.options.HongzhongOptions`; the shared options are the
family's own (112 tiles, 红中 wild, no chi, seven pairs as its options say), and naming one is a
422 naming it.  ``/score`` takes the birds drawn after the win as ``revealed``.

>>> rules, options = FAMILY.request_rules("hongzhong", {"birds": 4})
>>> rules.name, rules.tile_total, rules.wildcards, options.birds
('hongzhong', 112, (33,), 4)
>>> FAMILY.request_rules("hongzhong", {"chi_allowed": True})
Traceback (most recent call last):
...
app.core.errors.InvalidRuleOption: chi_allowed is not an option of the hongzhong rules; they take four_red_wins, discard_wins, discard_win_needs_no_red, rob_kong, rob_kong_needs_no_red, seven_pairs, wild_seven_pairs, quad_as_two_pairs, red_discardable, win_points, four_red_points, seven_pairs_points, four_red_bonus, no_red_multiplier, birds, no_red_extra_birds, bird_counting, red_bird_hits, bird_points, no_hit_counts_all, closed_kong_points, added_kong_points, open_kong_points, kongs_pay_on_draw
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Final

from app.core.advice.expected_score import ExpectedScores
from app.core.errors import InvalidRuleOption, TenpaiError
from app.core.families.hongzhong import value
from app.core.families.hongzhong.options import (
    _COUNTS,
    _FIELD_NAMES,
    _MULTIPLIERS,
    MAX_POINTS,
    PRESETS,
    HongzhongOptions,
    describe,
    with_overrides,
)
from app.core.families.hongzhong.rules_text import SOURCE
from app.core.families.hongzhong.scoring import is_bird_hit, score_hongzhong
from app.core.families.hongzhong.shape import hand_rules
from app.core.families.hongzhong.table import HongzhongTable
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import Counts, Tile
from app.core.table.family import (
    SHARED_OPTIONS,
    FamilyFan,
    FamilyScore,
    RevealedTile,
    TypedOption,
    typed_option_fields,
)
from app.core.value.scoring_context import WinContext

#: The item the birds that hit add (中码).
BIRD_ITEM: Final = "zhong_ma"
#: Each integer option's bounds, as the options' own check holds them.
BOUNDS: Final = MappingProxyType(
    {
        name: (1 if name in _MULTIPLIERS else 0, _COUNTS.get(name, MAX_POINTS))
        for name, default in describe(HongzhongOptions()).items()
        if type(default) is int
    }
)


@dataclass(frozen=True, slots=True)
class HongzhongValue:
    """The hongzhong value model of one room and seat: expected points a discard collects
    (:mod:`~app.core.families.hongzhong.value`)."""

    options: HongzhongOptions
    seat: int
    dealer: int = 0
    draws: int = 0
    max_states: int = value.HONGZHONG_MAX_STATES
    unit: str = "points"

    @property
    def deal_in(self) -> float:
        """A self-draw-only room (the text's) pays nothing for a discard; else the win's points."""
        return float(self.options.win_points) if self.options.discard_wins else 0.0

    def discard_values(
        self,
        hand: Hand,
        checker: Checker,
        unseen: Counts,
        *,
        tiles: Iterable[Tile],
        draws: int,
        max_states: int,
        deadline: float | None,
        cancelled: Callable[[], bool] | None,
    ) -> ExpectedScores:
        """Each of ``tiles`` discarded from ``hand``, valued by the hongzhong scorer."""
        return value.discard_values(
            hand,
            self.options,
            unseen,
            tiles=tiles,
            draws=draws,
            max_states=max_states,
            deadline=deadline,
            cancelled=cancelled,
            seat=self.seat,
            dealer=self.dealer,
        )


class HongzhongFamily(HongzhongTable):
    """Hunan 红中麻将: its table (:class:`~app.core.families.hongzhong.table.HongzhongTable`) and its
    request hooks."""

    typed_presets: Mapping[str, Hashable] = PRESETS
    preset_summaries: Mapping[str, str] = {
        "hongzhong": "Hunan 红中麻将: 112 tiles (the suits and four 红中), 红中 wild (a plain tile in seven "
        "pairs), four 红中 win at once, pon and kong, self-draw wins; birds (抓鸟, `revealed`) after the win; "
        "its rule text is the preset's `source`."
    }
    reads_revealed = True

    def option_fields(self) -> tuple[TypedOption, ...]:
        return typed_option_fields(HongzhongOptions(), BOUNDS)

    def describe_preset(self, preset: str) -> dict[str, Any]:
        options = PRESETS[preset]
        shape = hand_rules(options).describe()
        return {
            "name": preset,
            **{name: shape[name] for name in sorted(SHARED_OPTIONS)},
            # seven_pairs is also a shared option: its shape value (off, distinct, quad_as_two)
            # already says what the room's seven_pairs and quad_as_two_pairs make of it.
            **{name: shown for name, shown in describe(options).items() if name not in SHARED_OPTIONS},
            "source": f"{SOURCE.title}: {SOURCE.url}",
        }

    def request_rules(self, preset: str, overrides: Mapping[str, Any]) -> tuple[RuleProfile, Hashable]:
        shared = sorted(name for name in overrides if name in SHARED_OPTIONS)
        if shared:
            raise InvalidRuleOption(
                f"{shared[0]} is not an option of the hongzhong rules; they take {', '.join(_FIELD_NAMES)}",
                field=shared[0],
            )
        options = with_overrides(PRESETS[preset], **overrides) if overrides else PRESETS[preset]
        return replace(hand_rules(options), name=preset, family_options=options), options

    def score_request(
        self,
        hand: Hand,
        win_tile: Tile,
        rules: RuleProfile,
        options: Hashable,
        context: WinContext,
        revealed: Sequence[Tile],
    ) -> FamilyScore:
        assert isinstance(options, HongzhongOptions)
        try:
            found = score_hongzhong(hand, win_tile, options, context, birds=revealed)
        except TenpaiError as error:
            if error.field == "birds":  # the request's name for the birds drawn
                error.field = "revealed"
            raise
        # Each item adds its points (times the instances: the birds that hit); nothing multiplies.
        fans = tuple(FamilyFan(fan.name, fan.chinese, fan.fan * fan.count, 1) for fan in found.fans)
        hand_points = sum(fan.points for fan in fans if fan.name != BIRD_ITEM)
        birds = tuple(
            RevealedTile(tile, context.winner, is_bird_hit(tile, options, winner=context.winner, dealer=context.dealer))
            for tile in revealed
        )
        liable = context.discarder if context.robbed_kong else None
        return FamilyScore(found.payments, found.per_payer, fans, hand_points, found.share, birds, liable)

    def value_model(self, rules: RuleProfile, options: Hashable, *, seat_offset: int | None) -> HongzhongValue:
        assert isinstance(options, HongzhongOptions)
        seat = 1 if seat_offset is None else seat_offset
        return HongzhongValue(options, seat, 0, value.draws_per_seat(options))


FAMILY: Final = HongzhongFamily()

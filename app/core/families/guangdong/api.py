"""Guangdong 推倒胡 as a request sees it: its preset, its typed options, its scorer and its value model.

The routes ask the family's hooks (:class:`~app.core.table.family.Family`, the request section)
and never name the family.  A request's ``rules`` is ``"guangdong"`` or ``{"preset":
"guangdong", ...}`` with the options of
:class:`~app.core.families.guangdong.options.GuangdongOptions` and one shared option, ``wildcards``,
which names the hand's ghost:

* ``ghost: "none"``: no ghost; ``wildcards`` may only be empty.
* ``ghost: "white"``: the white dragon; ``wildcards`` may only name 5z.
* ``ghost: "flip"`` (翻鬼, the default): the tile after the flipped one is the ghost, which the
  request names in ``wildcards`` (one tile); without it the hand's ghost is unknown, a 422 at
  ``wildcards``.

The shape rules are :func:`~app.core.families.guangdong.tiles.hand_rules` with that ghost as the
wildcard, so ``/win``, ``/ting``, ``/shanten`` and the batches read it as every other preset's
wildcards.  The other shared options are fixed by the family's (chi is ``chi``, seven pairs and
thirteen orphans are its own fields): naming one is a 422 naming it.

>>> rules, options = FAMILY.request_rules("guangdong", {"wildcards": "2p", "horses": 6})
>>> rules.name, rules.wildcards, rules.chi_allowed, options.horses
('guangdong', (10,), False, 6)
>>> FAMILY.request_rules("guangdong", {"ghost": "white"})[0].wildcards
(31,)
>>> FAMILY.request_rules("guangdong", {})
Traceback (most recent call last):
...
app.core.errors.InvalidRuleOption: wildcards: ghost is 'flip' (翻鬼): name the hand's ghost (the tile after the flipped one), e.g. "wildcards": "2p"
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from app.core.advice.expected_score import ExpectedScores
from app.core.errors import InvalidRuleOption, TenpaiError
from app.core.families.guangdong import payments, scoring, tiles, value
from app.core.families.guangdong.options import (
    BOUNDS,
    PRESETS,
    GhostMode,
    GuangdongOptions,
    with_overrides,
)
from app.core.families.guangdong.rules_text import FAN_LIST_SOURCE, SOURCE, RuleSource
from app.core.families.guangdong.table import GuangdongTable
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.rules import OPTIONS_BY_NAME, RuleProfile
from app.core.shape.tiles import WHITE, Counts, Tile, format_tile
from app.core.table.family import (
    SHARED_OPTIONS,
    FamilyFan,
    FamilyScore,
    RevealedTile,
    TypedOption,
    typed_option_fields,
)
from app.core.value.scoring_context import WinContext

#: The one shared option a Guangdong request takes: the hand's ghost.
_GHOST_FIELD: Final = "wildcards"

DEAL_IN_POINTS: Final = 2.0
"""What dealing in costs in a room with discard wins, in points: a 平胡 (1) with its expected
horses (four, each naming the winner about a quarter of the time: the hand again once)."""


def _cited(source: RuleSource) -> str:
    dated = f" ({source.date})" if source.date else ""
    return f"{source.title}, {source.url}{dated}"


def _ghost_of(options: GuangdongOptions, overrides: Mapping[str, Any]) -> Tile | None:
    """The hand's ghost: the one ``wildcards`` names, checked against the room's ghost mode."""
    if _GHOST_FIELD not in overrides:
        if options.ghost is GhostMode.FLIP:
            raise InvalidRuleOption(
                "wildcards: ghost is 'flip' (翻鬼): name the hand's ghost (the tile after the flipped one), "
                'e.g. "wildcards": "2p"',
                field=_GHOST_FIELD,
            )
        return tiles.hand_ghost(options)
    named: tuple[Tile, ...] = OPTIONS_BY_NAME[_GHOST_FIELD].kind.coerce(_GHOST_FIELD, overrides[_GHOST_FIELD])
    if options.ghost is GhostMode.NONE:
        if named:
            raise InvalidRuleOption("wildcards: ghost is 'none': this room has no ghost", field=_GHOST_FIELD)
        return None
    if len(named) != 1:
        raise InvalidRuleOption(f"wildcards: a Guangdong hand has one ghost tile, got {len(named)}", field=_GHOST_FIELD)
    if options.ghost is GhostMode.WHITE and named[0] != WHITE:
        raise InvalidRuleOption(
            f"wildcards: ghost is 'white': the ghost is 5z, got {format_tile(named[0])}", field=_GHOST_FIELD
        )
    return named[0]


@dataclass(frozen=True, slots=True)
class GuangdongValue:
    """The Guangdong value model of one room and hand (its ghost, its seat from the dealer):
    expected points a discard collects (:mod:`~app.core.families.guangdong.value`)."""

    options: GuangdongOptions
    ghost: Tile | None
    seat_offset: int
    draws: int = value.GUANGDONG_DRAWS
    max_states: int = value.GUANGDONG_MAX_STATES
    unit: str = "points"

    @property
    def deal_in(self) -> float:
        """A self-draw-only room (the text's) pays nothing for a discard; else the discarder's share."""
        if not self.options.discard_wins:
            return 0.0
        return DEAL_IN_POINTS * (payments.SEATS - 1 if self.options.discarder_pays_all else 1)

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
        """Each of ``tiles`` discarded from ``hand``, valued by the Guangdong scorer."""
        return value.discard_values(
            hand,
            checker,
            unseen,
            ghost=self.ghost,
            options=self.options,
            seat_offset=self.seat_offset,
            tiles=tiles,
            draws=draws,
            max_states=max_states,
            deadline=deadline,
            cancelled=cancelled,
        )


class GuangdongFamily(GuangdongTable):
    """Guangdong 推倒胡: its table (:class:`~app.core.families.guangdong.table.GuangdongTable`) and its
    request hooks."""

    name = "guangdong"
    typed_presets: Mapping[str, Hashable] = PRESETS
    preset_summaries: Mapping[str, str] = {
        "guangdong": "Guangdong 推倒胡: 136 tiles, pon and kong, self-draw wins, any complete hand wins; "
        "the ghost (鬼牌) is the request's `wildcards` (翻鬼: the tile after the flipped one), horses "
        "(买马, `revealed`) pay the hand again; its rule text is the preset's `source`."
    }
    situation_fields = frozenset({"kong_feeder"})
    reads_revealed = True
    error_codes = frozenset(
        {
            tiles.GhostIndicatorRequired.code,
            scoring.DiscardWinNotAllowed.code,
            scoring.RobbingNotAllowed.code,
            scoring.TooManyHorses.code,
            payments.InvalidGuangdongPlay.code,
        }
    )

    def option_fields(self) -> tuple[TypedOption, ...]:
        return typed_option_fields(GuangdongOptions(), BOUNDS)

    def describe_preset(self, preset: str) -> dict[str, Any]:
        options = PRESETS[preset]
        flipped = options.ghost is GhostMode.FLIP
        shape = tiles.hand_rules(options, None if flipped else tiles.hand_ghost(options)).describe()
        shared = {name: shape[name] for name in sorted(SHARED_OPTIONS)}
        return {
            "name": preset,
            **shared,
            **options.describe(),
            "wildcards_from_indicator": flipped,
            "source": f"{_cited(SOURCE)}; the fan list (fan_list): {_cited(FAN_LIST_SOURCE)}",
        }

    def request_rules(self, preset: str, overrides: Mapping[str, Any]) -> tuple[RuleProfile, Hashable]:
        shared = sorted(name for name in overrides if name in SHARED_OPTIONS and name not in _TYPED_NAMES)
        foreign = [name for name in shared if name != _GHOST_FIELD]
        if foreign:
            raise InvalidRuleOption(
                f"{foreign[0]} is not an option of the guangdong rules; they take wildcards (the hand's ghost) "
                f"and {', '.join(_TYPED_NAMES)}",
                field=foreign[0],
            )
        typed = {name: value for name, value in overrides.items() if name != _GHOST_FIELD}
        options = with_overrides(PRESETS[preset], **typed) if typed else PRESETS[preset]
        return replace(tiles.hand_rules(options, _ghost_of(options, overrides)), family_options=options), options

    def score_request(
        self,
        hand: Hand,
        win_tile: Tile,
        rules: RuleProfile,
        options: Hashable,
        context: WinContext,
        revealed: Sequence[Tile],
    ) -> FamilyScore:
        assert isinstance(options, GuangdongOptions)
        ghost = rules.wildcards[0] if rules.wildcards else None
        try:
            found = scoring.score_guangdong(hand, win_tile, context, options, ghost=ghost, horses=revealed)
        except TenpaiError as error:
            if error.field == "horses":  # the request's name for the horses drawn
                error.field = "revealed"
            raise
        return FamilyScore(
            found.payments,
            found.per_payer,
            tuple(FamilyFan(fan.name, fan.chinese, fan.points, fan.times) for fan in found.fans),
            found.hand_points,
            found.share,
            tuple(
                RevealedTile(tile, seat, seat == context.winner)
                for tile in revealed
                for seat in (payments.horse_seat(tile, context.dealer),)
            ),
            found.liable,
        )

    def value_model(self, rules: RuleProfile, options: Hashable, *, seat_offset: int | None) -> GuangdongValue:
        assert isinstance(options, GuangdongOptions)
        ghost = rules.wildcards[0] if rules.wildcards else None
        # An unknown seat is valued as the dealer's 下家, the value module's own default.
        return GuangdongValue(options, ghost, 1 if seat_offset is None else seat_offset)


_TYPED_NAMES: Final = tuple(field.name for field in typed_option_fields(GuangdongOptions()))

FAMILY: Final = GuangdongFamily()
"""The family's request side, as the registry lists it."""

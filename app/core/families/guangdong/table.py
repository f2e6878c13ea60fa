"""Guangdong 推倒胡 at the table: the hooks the table machine and the dealer call.

The room's options (:class:`~app.core.families.guangdong.options.GuangdongOptions`) ride on the
rule profile (``RuleProfile.family_options``), so every table of the preset, whatever its
room, is played by the one family object.  What the table does with them:

* **the deal**: with a flipped ghost (翻鬼) the wall's last tile is turned (it is never drawn:
  the table's dead wall is that one tile) and the next tile of its cycle is the hand's ghost;
* **claims**: pon and kongs; chi only with ``chi``; a win on a discard only with
  ``discard_wins``; robbing an added kong (抢杠) with ``rob_kong``;
* **a win** ends the hand (one winner: the first seat after the discarder); the horses (买马)
  are turned from what is left of the wall, as many as the winner's hand draws (有鬼4, 无鬼6;
  fewer if the wall has fewer left); a flower turned (``flowers`` rooms) names no seat;
* **kongs** are paid at once (杠牌直接结算), **跟庄** when the dealer is followed, and a drawn
  hand pays nothing more.

>>> from app.core.families.guangdong.options import GuangdongOptions, GhostMode
>>> rules = preset_rules("guangdong", {})
>>> rules.name, rules.wildcards, FAMILY.indicates_wildcards(rules), FAMILY.play_rules(rules).dead_wall
('guangdong', (), True, 1)
>>> white = preset_rules("guangdong", {"ghost": "white"})
>>> white.wildcards, FAMILY.indicates_wildcards(white), FAMILY.play_rules(white).dead_wall
((31,), False, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Final

from app.core.errors import InvalidRuleOption
from app.core.families.guangdong.options import PRESETS, GhostMode, GuangdongOptions, with_overrides
from app.core.families.guangdong.payments import SEATS, follow_dealer_payments, horse_count
from app.core.families.guangdong.scoring import GuangdongScore, score_guangdong
from app.core.families.guangdong.tiles import ghost_from_indicator, hand_ghost, hand_rules
from app.core.shape.hand import Hand
from app.core.shape.rules import RuleProfile
from app.core.table.family import Family, TableView
from app.core.table.mjai import is_flower, kind_of
from app.core.table.play_rules import BARE_TABLE, PlayRules
from app.core.table.seats import Win
from app.core.value.mcr_scoring import MAX_FLOWERS

#: The table every Guangdong room shares before its options: the bare table (every tile drawn,
#: no riichi, dora or sticks, one winner per discard, one hand a game).
_TABLE: Final = BARE_TABLE


def options_of(rules: RuleProfile) -> GuangdongOptions:
    """The room's options a Guangdong profile carries (the text's room where it carries none)."""
    options = rules.family_options
    return options if isinstance(options, GuangdongOptions) else PRESETS["guangdong"]


def preset_rules(preset: str, overrides: Mapping[str, Any]) -> RuleProfile:
    """The rule profile of ``preset`` with the room's ``overrides`` (each a Guangdong option,
    checked): the hand rules before any ghost is turned, the options riding on it."""
    options = with_overrides(PRESETS[preset], **overrides)
    if options.ghost is GhostMode.FLIP:
        base = hand_rules(options, None)
    else:
        base = hand_rules(options, hand_ghost(options))
    return replace(base, name=preset, family_options=options)


def table_play(options: GuangdongOptions) -> PlayRules:
    """How a room with ``options`` runs: the flipped ghost's tile kept out of the draws, the
    flowers, and the kong payments."""
    return replace(
        _TABLE,
        dead_wall=1 if options.ghost is GhostMode.FLIP else 0,
        flowers=MAX_FLOWERS if options.flowers else 0,
        open_kong_payment=options.exposed_kong_points,
        added_kong_payment=options.added_kong_points,
        closed_kong_payment=options.concealed_kong_points,
    )


class GuangdongTable(Family):
    """The Guangdong table (see the module notes)."""

    name = "guangdong"
    presets = MappingProxyType({preset: table_play(options) for preset, options in PRESETS.items()})
    reveals_after_win = True

    def preset_rules(self, preset: str, overrides: Mapping[str, Any]) -> RuleProfile:
        if preset not in PRESETS:
            raise InvalidRuleOption(f"the {self.name} family plays {', '.join(PRESETS)}", field="rules")
        return preset_rules(preset, overrides)

    def play_rules(self, rules: RuleProfile) -> PlayRules:
        return table_play(options_of(rules))

    # ------------------------------------------------------------ the deal

    def indicates_wildcards(self, rules: RuleProfile) -> bool:
        return options_of(rules).ghost is GhostMode.FLIP

    def hand_rules(self, rules: RuleProfile, indicator: int | None) -> RuleProfile:
        if indicator is None:
            return rules
        return replace(rules, wildcards=(ghost_from_indicator(indicator),))

    # ------------------------------------------------------------ claims and wins

    def may_win_on(self, machine: TableView, seat: int, source: str) -> bool:
        options = options_of(machine.rules)
        if source == "dahai":
            return options.discard_wins
        return source == "kakan" and options.rob_kong

    def takes(self, machine: TableView, seat: int, target: int, tile: int, whole: Hand) -> bool:
        return True  # 推倒胡: every complete hand wins (平胡 whatever its shape)

    def revealed_count(self, machine: TableView, seat: int) -> int:
        rules = machine.rules
        ghost = rules.wildcards[0] if rules.wildcards else None
        held = machine.players[seat].counts
        ghosts = 0 if ghost is None else sum(held[tile] for tile in range(len(held)) if kind_of(tile) == ghost)
        return horse_count(options_of(rules), ghost, ghosts)

    def score_win(self, machine: TableView, seat: int, target: int, tile: int, ura: tuple[int, ...]) -> Win:
        rules = machine.rules
        ghost = rules.wildcards[0] if rules.wildcards else None
        hand = machine.hand_with(seat, target, tile)
        context = machine.base_context(seat, target)
        if context.kong_replacement:
            # 杠开 on the replacement of a kong claimed from a discard: that discarder fed it.
            fed = [kong.fed_by for kong in machine.players[seat].turn_kongs if kong.fed_by is not None]
            context = context._replace(kong_feeder=fed[-1] if fed else None)
        # A flower turned as a horse names no seat (the text's set has none; a room that adds
        # them draws it as a miss rather than turning another).
        horses = tuple(kind_of(turned) for turned in ura if not is_flower(turned))
        found = score_guangdong(hand, kind_of(tile), context, options_of(rules), ghost=ghost, horses=horses)
        return Win(seat, target, tile, found, found.payments, liable=found.liable)

    def fan_names(self, win: Win) -> tuple[str, ...]:
        found = win.score
        return tuple(fan.name for fan in found.fans) if isinstance(found, GuangdongScore) else ()

    # ------------------------------------------------------------ payments within the hand

    def payment_after_discard(self, machine: TableView) -> Sequence[int] | None:
        first = machine.first_discards
        if len(first) != SEATS or machine.interrupted or -1 in first:
            return None
        paid = follow_dealer_payments(first, machine.oya, options_of(machine.rules))
        return paid if any(paid) else None


FAMILY: Final = GuangdongTable()

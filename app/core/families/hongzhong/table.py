"""Hunan 红中麻将 at the table: the hooks the table machine and the dealer call.

The room's options (:class:`~app.core.families.hongzhong.options.HongzhongOptions`) ride on the
rule profile (``RuleProfile.family_options``).  What the table does with them:

* **the tiles**: 112 (the three suits and four 红中); 红中 stands for any tile in the regular
  form (never in seven pairs unless ``wild_seven_pairs``), four of them win at once
  (``four_red_wins``: the shape wing's held-wildcards form), and they are never called;
* **the wall** keeps ``birds`` tiles back: the hand is drawn once only those are left;
* **claims**: pon and kongs, no chi; a win on a discard only with ``discard_wins`` (by a hand
  without 红中 unless ``discard_win_needs_no_red`` is off); robbing an added kong (抢杠胡,
  ``rob_kong``) by a hand without 红中; one winner, the first seat after the discarder;
* **a win** ends the hand and turns the birds (抓鸟) from the tiles not yet drawn, two more for a
  hand without 红中; the scorer pays the win, the birds and 四红中喜分;
* **kongs** are paid at once; with ``kongs_pay_on_draw`` off a drawn hand gives them back.

>>> rules = preset_rules("hongzhong", {})
>>> rules.name, rules.tile_total, rules.wildcards, rules.wildcards_held_win, rules.wildcards_in_seven_pairs
('hongzhong', 112, (33,), 4, False)
>>> FAMILY.play_rules(rules).dead_wall, FAMILY.play_rules(rules).closed_kong_payment
(2, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Final

from app.core.errors import InvalidRuleOption
from app.core.families.hongzhong.options import PRESETS, HongzhongOptions, with_overrides
from app.core.families.hongzhong.play import may_rob_kong, may_win_on_discard, tiles_kept_back
from app.core.families.hongzhong.scoring import HongzhongScore, bird_count, score_hongzhong
from app.core.families.hongzhong.shape import WILDCARD, hand_rules
from app.core.shape.hand import Hand
from app.core.shape.rules import RuleProfile
from app.core.table.family import Family, TableView
from app.core.table.mjai import kind_of
from app.core.table.play_rules import BARE_TABLE, PlayRules
from app.core.table.seats import Win


def options_of(rules: RuleProfile) -> HongzhongOptions:
    """The room's options a hongzhong profile carries (the text's room where it carries none)."""
    options = rules.family_options
    return options if isinstance(options, HongzhongOptions) else PRESETS["hongzhong"]


def preset_rules(preset: str, overrides: Mapping[str, Any]) -> RuleProfile:
    """The rule profile of ``preset`` with the room's ``overrides`` (each a hongzhong option,
    checked), the options riding on it."""
    options = with_overrides(PRESETS[preset], **overrides)
    return replace(hand_rules(options), name=preset, family_options=options)


def table_play(options: HongzhongOptions) -> PlayRules:
    """How a room with ``options`` runs: the birds' tiles kept back, and the kong payments."""
    return replace(
        BARE_TABLE,
        dead_wall=tiles_kept_back(options),
        open_kong_payment=options.open_kong_points,
        added_kong_payment=options.added_kong_points,
        closed_kong_payment=options.closed_kong_points,
    )


class HongzhongTable(Family):
    """The hongzhong table (see the module notes)."""

    name = "hongzhong"
    presets = MappingProxyType({preset: table_play(options) for preset, options in PRESETS.items()})
    reveals_after_win = True

    def preset_rules(self, preset: str, overrides: Mapping[str, Any]) -> RuleProfile:
        if preset not in PRESETS:
            raise InvalidRuleOption(f"the {self.name} family plays {', '.join(PRESETS)}", field="rules")
        return preset_rules(preset, overrides)

    def play_rules(self, rules: RuleProfile) -> PlayRules:
        return table_play(options_of(rules))

    def kept_in_hand(self, rules: RuleProfile) -> frozenset[int]:
        return frozenset() if options_of(rules).red_discardable else frozenset({WILDCARD})

    # ------------------------------------------------------------ claims and wins

    def may_win_on(self, machine: TableView, seat: int, source: str) -> bool:
        options = options_of(machine.rules)
        hand = machine.players[seat].hand()
        tile = kind_of(machine.claim_tile)
        if source == "dahai":
            return may_win_on_discard(hand, tile, options)
        return source == "kakan" and may_rob_kong(hand, tile, options)

    def takes(self, machine: TableView, seat: int, target: int, tile: int, whole: Hand) -> bool:
        return True  # every complete hand wins (平胡, 七对, 四红中)

    def revealed_count(self, machine: TableView, seat: int) -> int:
        held = machine.players[seat].kind_counts()[WILDCARD]
        return bird_count(options_of(machine.rules), holds_red=held > 0)

    def score_win(self, machine: TableView, seat: int, target: int, tile: int, ura: tuple[int, ...]) -> Win:
        hand = machine.hand_with(seat, target, tile)
        context = machine.base_context(seat, target)
        found = score_hongzhong(
            hand,
            kind_of(tile),
            options_of(machine.rules),
            context,
            birds=tuple(kind_of(bird) for bird in ura),
            seats=machine.seats,
        )
        liable = context.discarder if context.robbed_kong else None
        return Win(seat, target, tile, found, found.payments, liable=liable)

    def fan_names(self, win: Win) -> tuple[str, ...]:
        found = win.score
        return tuple(fan.name for fan in found.fans) if isinstance(found, HongzhongScore) else ()

    # ------------------------------------------------------------ draws

    def exhaustive_draw(self, machine: TableView, tenpai: tuple[bool, ...]) -> tuple[list[int], tuple[int, ...]]:
        refund = [0] * machine.seats
        if not options_of(machine.rules).kongs_pay_on_draw:
            # 荒庄荒杠: a hand nobody wins gives its kongs' payments back.
            for kong in machine.kong_payments:
                for payer, delta in enumerate(kong.deltas):
                    refund[payer] -= delta
        return refund, ()


FAMILY: Final = HongzhongTable()

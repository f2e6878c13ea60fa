"""The Sichuan table (血战到底): 108 tiles, every one drawn (a kong's replacement from the back of
the wall), no riichi, dora, red fives, kuikae or abortive draws, no honba or sticks; the hand
rules' exchange (换三张) and void suit (定缺) before the first draw; a win does not end the hand
(the winner leaves, or with ``bloody_river`` stays in, frozen); several seats may win one discard
(一炮多响); kongs pay at once (刮风下雨) and a win on a kong's discard takes that kong's income
(呼叫转移); the exhaustive draw settles 查花猪, 查大叫 and 退税.  A win pays through the Sichuan
scorer (:mod:`app.core.value.sichuan_scoring`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Final, NamedTuple

from app.core.errors import NotAWinningHand, VoidSuitHeld
from app.core.shape.hand import Hand
from app.core.shape.rules import RuleProfile
from app.core.table.family import Family, TableView
from app.core.table.play_rules import BARE_TABLE
from app.core.table.seats import Win
from app.core.value.scoring import REFUSALS, win_payments
from app.core.value.scoring_context import WinContext
from app.core.value.sichuan_scoring import SichuanScore, check_sichuan_hand

#: Rule-profile fields the Sichuan scorer and table read and no other family does.
SICHUAN_OPTIONS: Final = frozenset(
    {
        "void_suit",
        "max_fan",
        "self_draw_bonus",
        "exchange_three",
        "bloody_river",
        "heaven_earth",
        "menqing_duanyao",
        "kong_flower",
    }
)


class DrawSettlement(NamedTuple):
    """A Sichuan exhaustive draw's payments, each rule's per seat (see :func:`draw_settlement`)."""

    #: 查花猪: each seat holding a tile of its void suit pays every seat that is not one the capped win.
    flower_pigs: tuple[int, ...]
    #: 查大叫: each seat still in and not ready pays each ready seat still in the most it could win.
    not_ready: tuple[int, ...]
    #: 退税: each seat not ready returns its kong income to those who paid it.
    refunds: tuple[int, ...]

    @property
    def total(self) -> list[int]:
        return [sum(parts) for parts in zip(self.flower_pigs, self.not_ready, self.refunds, strict=True)]


def draw_settlement(machine: TableView) -> DrawSettlement:
    """What the seats still in pay at the exhaustive draw, each seat's net:

    * 查花猪: a seat holding a tile of its void suit (a 花猪) pays every seat that is not one
      the capped win, ``2 ** max_fan`` points;
    * 查大叫: a seat not ready (and no 花猪) pays each ready seat still in the most that seat's
      hand could win on its discard (each wait scored, the seat as the discarder);
    * 退税: a seat not ready (花猪 included) returns every kong income it still holds to
      those who paid it (a kong whose income went on to a winner, 呼叫转移, returns nothing).

    A seat that won and left the hand neither pays nor is paid 查大叫 or 退税.
    """
    n = machine.seats
    still_in = machine.in_hand()
    pigs = [seat for seat in still_in if machine.holds_void(seat)]
    ready = [seat for seat in still_in if seat not in pigs and machine.tenpai_at_draw(seat)]
    cap = 2**machine.rules.max_fan
    flower_pigs = [0] * n
    for pig in pigs:
        for other in range(n):
            if other not in pigs:
                flower_pigs[pig] -= cap
                flower_pigs[other] += cap
    not_ready = [0] * n
    for payer in still_in:
        if payer in pigs or payer in ready:
            continue
        for seat in ready:
            owed = most_on_a_discard(machine, seat, payer)
            not_ready[payer] -= owed
            not_ready[seat] += owed
    refunds = [0] * n
    for record in machine.kong_payments:
        if record.seat in still_in and record.seat not in ready and not record.transferred:
            for seat, delta in enumerate(record.deltas):
                refunds[seat] -= delta
    return DrawSettlement(tuple(flower_pigs), tuple(not_ready), tuple(refunds))


def most_on_a_discard(machine: TableView, seat: int, discarder: int) -> int:
    """The most ``seat``'s ready hand wins on a discard of ``discarder`` (查大叫), over its waits."""
    best = 0
    hand = machine.players[seat].hand()
    for wait in sorted(machine.waits_of(seat)):
        whole = hand.with_tile(wait)
        # A plain discard: none of the situations of the table as it stands (a kong behind
        # the last discard) belongs to a win that never happened.
        context = FAMILY.win_context(machine, seat, discarder, wait, (), False)._replace(
            after_kong=False, robbed_kong=False, kong_replacement=False, first_turn=False, kong_feeder=None
        )
        try:
            paid = win_payments(whole, wait, machine.rules, context)
        except REFUSALS:
            continue
        best = max(best, paid[seat])
    return best


class SichuanFamily(Family):
    name = "sichuan"
    presets = MappingProxyType(
        {
            "sichuan": replace(
                BARE_TABLE,
                head_bump=False,
                play_on=True,
                open_kong_payment=2,
                added_kong_payment=1,
                closed_kong_payment=2,
                kong_transfer=True,
                draw_settlement=True,
            )
        }
    )
    own_options = SICHUAN_OPTIONS

    def first_phase(self, rules: RuleProfile) -> str:
        """The exchange (换三张) where the rules have it, then the void suit (定缺), before the first draw."""
        if not rules.void_suit:
            return "draw"
        return "exchange" if rules.exchange_three else "void"

    def winner_stays(self, rules: RuleProfile) -> bool:
        return rules.bloody_river  # 血流成河: the winner stays in, frozen

    def win_context(
        self, machine: TableView, seat: int, target: int, tile: int, ura: tuple[int, ...], first_winner: bool
    ) -> WinContext:
        player = machine.players[seat]
        tsumo = seat == target
        context = machine.base_context(seat, target)
        rinshan = context.kong_replacement
        return context._replace(
            first_turn=machine.first_turn_draw(seat, target),
            void_suit=player.void,
            after_kong=not tsumo and machine.claim_source == "dahai" and machine.after_kong_discard,
            in_hand=machine.in_hand(),
            kong_feeder=player.turn_kongs[-1].fed_by if rinshan and player.turn_kongs else None,
        )

    def takes(self, machine: TableView, seat: int, target: int, tile: int, whole: Hand) -> bool:
        """One rule, the scorer's, also without the void suit option: a hand of all three suits
        never wins (缺一门), nor one holding its void suit; every other complete hand scores (平胡
        is the base)."""
        try:
            check_sichuan_hand(whole, machine.rules, machine.players[seat].void)
        except (NotAWinningHand, VoidSuitHeld):
            return False
        return True

    def waits(self, machine: TableView, seat: int, hand: Hand, waits: Sequence[int]) -> Sequence[int]:
        return tuple(wait for wait in waits if self.takes(machine, seat, seat, wait, hand.with_tile(wait)))

    def points_of(self, win: Win) -> int:
        """The score's payment: the win's delta also holds the kong payments its event carries."""
        return win.score.payments[win.winner] if isinstance(win.score, SichuanScore) else win.deltas[win.winner]

    def fan_names(self, win: Win) -> tuple[str, ...]:
        return tuple(fan.name for fan in win.score.fans) if isinstance(win.score, SichuanScore) else ()

    def settle_draw(self, machine: TableView) -> DrawSettlement | None:
        return draw_settlement(machine) if machine.play.draw_settlement else None


FAMILY: Final = SichuanFamily()

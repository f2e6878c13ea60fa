"""Riichi's table: Tenhou's win situation (dora, ura, red fives, riichi, ippatsu, honba), a
yakuman's liability (pao) and the riichi sticks paid to the first winner, and the exhaustive
draw's noten payments and nagashi mangan."""

from __future__ import annotations

from typing import Final

from app.core.table.family import Family, TableMachine
from app.core.table.flow import ExhaustiveDraw, exhaustive_draw_payments, with_liability
from app.core.table.machine import RIICHI_STICK
from app.core.table.mjai import FIRST_RED, UNKNOWN, is_red, kind_of
from app.core.table.play_rules import PlayRules
from app.core.table.seats import Win
from app.core.value.riichi_scoring import score_riichi
from app.core.value.scoring_context import WinContext

#: Rule-profile fields riichi's scorer reads and no other family does.
RIICHI_OPTIONS: Final = frozenset(
    {"open_tanyao", "red_fives", "kazoe_limit", "kiriage", "double_yakuman", "yakuman_stacking", "tsumo_loss"}
)


class RiichiFamily(Family):
    name = "riichi"
    presets = {"riichi": PlayRules(), "sanma": PlayRules(kita=True)}
    own_options = RIICHI_OPTIONS

    def win_context(
        self, machine: TableMachine, seat: int, target: int, tile: int, ura: tuple[int, ...], first_winner: bool
    ) -> WinContext:
        player = machine.players[seat]
        tsumo = seat == target
        context = machine.base_context(seat, target)
        reds = [kind_of(t) for t in range(FIRST_RED, UNKNOWN) for _ in range(player.counts[t])]
        reds += [kind_of(t) for meld in player.melds for t in meld.tiles if is_red(t)]
        if not tsumo and is_red(tile):
            reds.append(kind_of(tile))
        in_riichi = player.riichi > 0
        return context._replace(
            round_wind=machine.bakaze,
            dora_indicators=tuple(kind_of(m) for m in machine.dora_markers),
            ura_indicators=ura if in_riichi else (),
            red_fives=tuple(reds),
            riichi=in_riichi and not player.double_riichi,
            double_riichi=in_riichi and player.double_riichi,
            ippatsu=player.ippatsu and in_riichi,
            last_tile=machine.live_left == 0 and not context.kong_replacement and not context.robbed_kong,
            first_turn=machine.first_turn_draw(seat, target),
            honba=machine.honba if first_winner else 0,
            riichi_sticks=0,
            nuki=player.kita,
        )

    def score_win(self, machine: TableMachine, seat: int, target: int, tile: int, ura: tuple[int, ...]) -> Win:
        """Tenhou's payments, with the seat liable for a yakuman paying its share (pao) and the
        sticks on the table going to the first winner."""
        player = machine.players[seat]
        tsumo = seat == target
        first_winner = not machine.hora_seats
        context = self.win_context(machine, seat, target, tile, ura, first_winner)
        result = score_riichi(machine.hand_with(seat, target, tile), kind_of(tile), machine.rules, context)
        liable = next(
            (who for yakuman, who in player.liable.items() if any(y.name == yakuman for y in result.yaku)), None
        )
        result = with_liability(
            result,
            winner=seat,
            dealer=machine.oya,
            discarder=None if tsumo else target,
            liable=liable,
            honba=context.honba,
            rules=machine.table,
        )
        deltas = list(result.payments)
        if first_winner:
            deltas[seat] += RIICHI_STICK * machine.kyotaku
        return Win(seat, target, tile, result, tuple(deltas), liable)

    def exhaustive_draw(self, machine: TableMachine, tenpai: tuple[bool, ...]) -> tuple[list[int], tuple[int, ...]]:
        """Noten payments, or nagashi mangan where a seat's every discard was an orphan, none called."""
        nagashi = tuple(seat for seat, p in enumerate(machine.players) if p.nagashi and p.discarded)
        draw = ExhaustiveDraw(tenpai, nagashi)
        return list(
            exhaustive_draw_payments(draw, machine.oya, machine.table, tsumo_loss=machine.rules.tsumo_loss)
        ), nagashi


FAMILY: Final = RiichiFamily()

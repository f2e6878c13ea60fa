"""Riichi's table (``riichi`` and ``sanma``), on the table machine
(:class:`~app.core.table.machine.TableMachine`): Tenhou's win situation (dora, ura, red fives,
riichi, ippatsu, honba), a yakuman's liability (pao) and the riichi sticks paid to the first
winner, the abortive draws, and the exhaustive draw's noten payments and nagashi mangan.

The rules are Tenhou's (what the options in :class:`~app.core.table.flow.TableRules`
leave to a room aside):

* **Turns.** The dealer draws first; after a discard the seats may claim it: a
  win (ron) outranks a pon or an open kan, which outranks a chi (only by the next
  seat).  Two seats may win on one discard (double ron); a third makes the hand
  an abortive draw.  After a chi or pon the caller discards without drawing, and
  may not throw the tile it called nor, after a chi, the tile on the other side of
  the run (kuikae): a call that would leave no other discard is not offered.  No
  call on the last discard of the wall; a kan needs a tile left to draw and at most
  four kans are made in a hand.
* **Furiten.** No ron while a wait is in the seat's own river, after a winning
  tile went by since its own last discard, or, in riichi, after a winning tile
  went by at all.
* **Riichi** needs a closed hand, 1000 points, four tiles left to draw, and a
  discard that keeps the hand ready; then the seat throws every tile it draws that
  does not win.  A closed kan in riichi is allowed only with the tile just drawn
  and only when it leaves the waits as they were.  The stick goes down
  (``reach_accepted``) once the declaring discard is not won on.  Ippatsu ends at
  the seat's next discard or at any call or kan.
* **Kan dora.** A closed kan shows its indicator at once (``ankan``, ``dora``,
  replacement ``tsumo``); an open or added kan after its replacement draw, before
  the discard.  A robbed added kan (chankan) may be won on by any ready seat; a
  closed kan only by thirteen orphans.
* **Draws.** Exhaustive when the last discard goes by; abortive: nine orphans in
  the first uninterrupted turn (by choice), four identical winds in the first
  discards, four riichi, four kans by more than one seat, three rons.

>>> from app.core.shape.rules import rule_profile
>>> from app.core.table.machine import TableMachine
>>> machine = TableMachine(rule_profile("riichi"), FAMILY)
>>> machine.apply_object({"type": "start_game", "names": ["a", "b", "c", "d"]})
>>> hands = [["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "S", "S"]] + [["?"] * 13] * 3
>>> machine.apply_object({"type": "start_kyoku", "bakaze": "E", "dora_marker": "1p", "kyoku": 1,
...     "honba": 0, "kyotaku": 0, "oya": 0, "scores": [25000] * 4, "tehais": hands})
>>> machine.apply_object({"type": "tsumo", "actor": 0, "pai": "S"})
>>> sorted({a["type"] for a in machine.legal_objects(0)})
['dahai', 'hora', 'reach']
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from app.core.shape.tiles import DRAGONS, ORPHANS, WINDS
from app.core.table.family import AdvisorModel, Family, TableView
from app.core.table.flow import AbortiveDrawKind, ExhaustiveDraw, exhaustive_draw_payments, with_liability
from app.core.table.machine import DECLARATION_STICK, MAX_KANS
from app.core.table.mjai import FIRST_RED, UNKNOWN, is_red, kind_of
from app.core.table.play_rules import PlayRules
from app.core.table.seats import TableMeld, Win
from app.core.value.riichi_scoring import RiichiScore, score_riichi
from app.core.value.scoring_context import WinContext

#: Rule-profile fields riichi's scorer reads and no other family does.
RIICHI_OPTIONS: Final = frozenset(
    {"open_tanyao", "red_fives", "kazoe_limit", "kiriage", "double_yakuman", "yakuman_stacking", "tsumo_loss"}
)


#: The yakuman whose last set, fed by a discard, makes the feeder liable (pao), and its tiles.
YAKUMAN_WITH_LIABILITY: Final = {"daisangen": DRAGONS, "daisuushii": WINDS}
#: Kinds of the first go-around's orphans a seat needs to declare nine terminals.
NINE_TERMINALS: Final = 9


class RiichiFamily(Family):
    name = "riichi"
    presets = MappingProxyType({"riichi": PlayRules(), "sanma": PlayRules(kita=True)})
    own_options = RIICHI_OPTIONS
    declaration = "riichi"
    advisor = AdvisorModel(needs_yaku=True, reads_opponents=True, plays_for_placement=True)

    def win_context(
        self, machine: TableView, seat: int, target: int, tile: int, ura: tuple[int, ...], first_winner: bool
    ) -> WinContext:
        player = machine.players[seat]
        tsumo = seat == target
        context = machine.base_context(seat, target)
        reds = [kind_of(t) for t in range(FIRST_RED, UNKNOWN) for _ in range(player.counts[t])]
        reds += [kind_of(t) for meld in player.melds for t in meld.tiles if is_red(t)]
        if not tsumo and is_red(tile):
            reds.append(kind_of(tile))
        in_riichi = player.declared > 0
        return context._replace(
            round_wind=machine.bakaze,
            dora_indicators=tuple(kind_of(m) for m in machine.dora_markers),
            ura_indicators=ura if in_riichi else (),
            red_fives=tuple(reds),
            riichi=in_riichi and not player.double_declaration,
            double_riichi=in_riichi and player.double_declaration,
            ippatsu=player.ippatsu and in_riichi,
            last_tile=machine.live_left == 0 and not context.kong_replacement and not context.robbed_kong,
            first_turn=machine.first_turn_draw(seat, target),
            honba=machine.honba if first_winner else 0,
            riichi_sticks=0,
            nuki=player.kita,
        )

    def score_win(self, machine: TableView, seat: int, target: int, tile: int, ura: tuple[int, ...]) -> Win:
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
            deltas[seat] += DECLARATION_STICK * machine.kyotaku
        return Win(seat, target, tile, result, tuple(deltas), liable)

    draw_abort = AbortiveDrawKind.NINE_TERMINALS.value

    def note_call(self, machine: TableView, seat: int, target: int, meld: TableMeld) -> None:
        """Pao: the seat that fed the third dragon (or fourth wind) set is liable for the yakuman."""
        kind = meld.kind_tile
        for yakuman, kinds in YAKUMAN_WITH_LIABILITY.items():
            if kind not in kinds:
                continue
            sets = sum(1 for m in machine.players[seat].melds if m.kind != "chi" and m.kind_tile in kinds)
            if sets == len(kinds):
                machine.players[seat].liable[yakuman] = target

    def may_abort_on_draw(self, machine: TableView, seat: int) -> bool:
        """Nine terminals: nine kinds of orphans in the first uninterrupted go-around's draw."""
        player = machine.players[seat]
        if player.discarded or machine.interrupted or machine.after != "tsumo":
            return False
        kinds = player.hand().counts
        return sum(1 for tile in ORPHANS if kinds[tile]) >= NINE_TERMINALS

    def abortive_draw(self, machine: TableView) -> str | None:
        """Four riichi, four winds, four kans by more than one seat, three rons (four seats)."""
        if machine.seats == 4 and all(p.declared for p in machine.players):
            return AbortiveDrawKind.FOUR_RIICHI.value
        if _four_winds(machine):
            return AbortiveDrawKind.FOUR_WINDS.value
        if _four_kans(machine):
            return AbortiveDrawKind.FOUR_KANS.value
        if machine.seats == 4 and sum(1 for seat in range(machine.seats) if _may_ron_now(machine, seat)) >= 3:
            return AbortiveDrawKind.TRIPLE_RON.value
        return None

    def aborts_when_unclaimed(self, machine: TableView) -> bool:
        return _four_winds(machine) or _four_kans(machine)

    def points_of(self, win: Win) -> int:
        """The score's payment: the delta also holds the sticks the winner took."""
        return win.score.payments[win.winner] if isinstance(win.score, RiichiScore) else win.deltas[win.winner]

    def exhaustive_draw(self, machine: TableView, tenpai: tuple[bool, ...]) -> tuple[list[int], tuple[int, ...]]:
        """Noten payments, or nagashi mangan where a seat's every discard was an orphan, none called."""
        nagashi = tuple(seat for seat, p in enumerate(machine.players) if p.nagashi and p.discarded)
        draw = ExhaustiveDraw(tenpai, nagashi)
        return list(
            exhaustive_draw_payments(draw, machine.oya, machine.table, tsumo_loss=machine.rules.tsumo_loss)
        ), nagashi


def _may_ron_now(machine: TableView, seat: int) -> bool:
    """Whether ``seat`` can win on the claimable tile, as far as the machine can tell: a seat's
    view of the table does not hold the other hands, so any of them may (a log's draw on three
    rons is then taken on trust, as the server saw the hands)."""
    return seat != machine.turn and (not machine.players[seat].known or machine.can_ron_now(seat))


def _four_winds(machine: TableView) -> bool:
    """The first go-around's four discards, nobody having called, are one wind."""
    if machine.seats != 4 or machine.interrupted or len(machine.first_discards) != 4:
        return False
    first = machine.first_discards[0]
    return first in WINDS and all(kind == first for kind in machine.first_discards)


def _four_kans(machine: TableView) -> bool:
    """Four kans, made by more than one seat."""
    return machine.kans >= MAX_KANS and len(machine.kan_seats) > 1


FAMILY: Final = RiichiFamily()

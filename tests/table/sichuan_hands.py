"""Hand-built Sichuan hands for the table tests: a deal, each seat's void suit and scripted draws,
played to the end through the table machine with a chooser for the decisions that matter.

The wall is built as the hand is played: a seat's next draw is the next tile scripted for it, or
else the next tile left of the set (sorted).  Every tile of the 108 is drawn once, so the hand
ends at the exhaustive draw unless three seats win first.  Where the chooser says nothing, a seat
throws the tile it drew when it may (else its first legal discard), and passes every claim: no
win, call or kong happens unless a test asks for it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from app.core.families.registry import family_of
from app.core.shape.rules import RuleProfile, rule_profile
from app.core.shape.tiles import HONORS, NUM_TILE_KINDS, parse_mpsz
from app.core.table.flow import ron_order
from app.core.table.machine import TableMachine
from app.core.table.mjai import Event, action_object, tile_name

#: Sichuan without the exchange: the deal is what each seat plays.
NO_EXCHANGE = rule_profile("sichuan", exchange_three=False)
#: A seat's choice among its legal actions (None: the default).
Chooser = Callable[[TableMachine, int, list[Event]], Event | None]


def names(text: str) -> list[str]:
    """mpsz text as mjai tiles: ``"123m5p"`` -> ``["1m", "2m", "3m", "5p"]``."""
    return [tile_name(tile) for tile in parse_mpsz(text)]


def _never(machine: TableMachine, seat: int, legal: list[Event]) -> Event | None:
    return None


def pick(legal: Sequence[Event], kind: str, **fields: Any) -> Event | None:
    """The first legal action of ``kind`` whose fields match, or None."""
    for action in legal:
        if action.kind == kind and all(getattr(action, name) == value for name, value in fields.items()):
            return action
    return None


class ScriptedHand:
    """One hand played through a machine; ``events`` is its mjai log (deltas written in)."""

    def __init__(
        self,
        hands: Sequence[str],
        voids: str,
        *,
        draws: dict[int, str] | None = None,
        choose: Chooser = _never,
        rules: RuleProfile = NO_EXCHANGE,
    ) -> None:
        self.machine = TableMachine(rules, family_of(rules))
        self.events: list[dict[str, Any]] = []
        dealt = [parse_mpsz(hand) for hand in hands]
        scripted = {seat: list(parse_mpsz(text)) for seat, text in (draws or {}).items()}
        left = Counter({kind: 4 for kind in range(NUM_TILE_KINDS) if kind not in HONORS})
        left.subtract(Counter(tile for hand in dealt for tile in hand))
        left.subtract(Counter(tile for tiles in scripted.values() for tile in tiles))
        assert all(count >= 0 for count in left.values()), "a kind dealt or scripted more than four times"
        self.pool = sorted(left.elements())
        self.scripted = scripted
        self.choose = choose
        self._emit({"type": "start_game"})
        self._emit(
            {
                "type": "start_kyoku",
                "bakaze": "E",
                "kyoku": 1,
                "honba": 0,
                "kyotaku": 0,
                "oya": 0,
                "scores": [0, 0, 0, 0],
                "tehais": [[tile_name(tile) for tile in hand] for hand in dealt],
            }
        )
        for seat, suit in enumerate(voids):
            self._emit({"type": "void_suit", "actor": seat, "suit": suit})
        self._play()
        self._emit({"type": "end_kyoku"})

    def _emit(self, obj: dict[str, Any]) -> None:
        self.machine.apply_object(obj)
        self.events.append(obj)
        result = self.machine.result
        if obj["type"] == "hora" and result is not None:
            obj["deltas"] = list(result.wins[-1].deltas)
        elif obj["type"] == "ryukyoku" and result is not None:
            obj["deltas"] = list(result.draw_deltas or result.deltas)

    def _draw(self, seat: int) -> None:
        mine = self.scripted.get(seat)
        tile = mine.pop(0) if mine else self.pool.pop(0)
        self._emit({"type": "tsumo", "actor": seat, "pai": tile_name(tile)})

    def _play(self) -> None:
        machine = self.machine
        while machine.phase != "won":
            if machine.phase == "draw":
                if machine.draw_kind() == "exhaustive":
                    self._emit({"type": "ryukyoku"})
                    return
                self._draw(machine.turn)
            elif machine.phase == "act":
                seat = machine.turn
                legal = machine.legal_actions(seat)
                action = self.choose(machine, seat, legal)
                if action is None:
                    action = pick(legal, "dahai", tsumogiri=True) or pick(legal, "dahai")
                assert action is not None
                self._emit(action_object(action))
            else:
                self._claims()

    def _claims(self) -> None:
        machine = self.machine
        discarder = machine.turn
        chosen = {}
        for seat in machine.decision_seats():
            action = self.choose(machine, seat, machine.legal_actions(seat))
            if action is not None and action.kind != "none":
                chosen[seat] = action
        wins = [seat for seat, action in chosen.items() if action.kind == "hora"]
        for seat in ron_order(discarder, wins, machine.seats):
            self._emit(action_object(chosen[seat]))
        if machine.phase == "won":
            return
        calls = [action for action in chosen.values() if action.kind != "hora"]
        if calls and not wins:
            self._emit(action_object(calls[0]))
            return
        if machine.draw_kind() == "exhaustive":
            self._emit({"type": "ryukyoku"})
            return
        self._draw(machine.next_drawer())

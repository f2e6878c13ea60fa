"""A seat's view of the table (the other hands hidden, as ``/act`` and the bot replay a log)
accepts the endings the server saw, settled as the full log settles them, and refuses those its
own hand rules out."""

from __future__ import annotations

from typing import Any

import pytest
from kyoku_events import east_one

from app.core.families.registry import family_of
from app.core.shape.rules import rule_profile
from app.core.table.decide import IllegalEvent, replay, seat_sees
from app.core.table.machine import TableMachine

RIICHI = rule_profile("riichi")

#: Seats 1, 2 and 3 hold all-simples hands (tanyao, a yaku without riichi) ready on 5p: 34p open
#: on both sides, 46p closed, 67p.  Seat 0 deals and holds thirteen orphans' kinds.
HANDS = (
    "1m 9m 1p 9p 1s 9s E S W N P F C",
    "2m 3m 4m 3s 4s 5s 6s 7s 8s 6p 6p 3p 4p",
    "4m 5m 6m 5s 6s 7s 2s 2s 6m 7m 8m 4p 6p",
    "2s 3s 4s 2p 3p 4p 3m 4m 5m 8s 8s 6p 7p",
)


def _hand_ending_on(discard: str) -> list[dict[str, Any]]:
    """The dealer draws ``discard`` and throws it; the server ends the hand in a draw."""
    return [
        *east_one([hand.split() for hand in HANDS]),
        {"type": "tsumo", "actor": 0, "pai": discard},
        {"type": "dahai", "actor": 0, "pai": discard, "tsumogiri": True},
        {"type": "ryukyoku", "deltas": [0, 0, 0, 0]},
    ]


def test_every_seats_view_accepts_a_draw_on_three_rons() -> None:
    # Three seats could win on the 5p: Tenhou's rules end the hand in a draw.  A view cannot see
    # the hands that could win; it once refused the draw, the discard still claimable to its eyes.
    events = _hand_ending_on("5p")
    truth = replay(events, RIICHI, machine=TableMachine(RIICHI, family_of(RIICHI)), family=family_of(RIICHI))
    assert truth.result is not None and truth.result.kind == "triple_ron"
    for seat in range(RIICHI.seats):
        view = replay(seat_sees(events, seat), RIICHI, family=family_of(RIICHI))
        assert view.result is not None and view.result.kind == "triple_ron"
        assert view.scores == truth.scores


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_a_view_refuses_a_draw_its_own_hand_rules_out(seat: int) -> None:
    # Nobody waits on 1m: a seat that holds a hand which cannot win on it knows at most two seats
    # could, and refuses the draw, as the full log is refused.  (The discarder's own view cannot
    # tell: the draw is taken on trust there.)
    events = _hand_ending_on("1m")
    with pytest.raises(IllegalEvent):
        replay(events, RIICHI, family=family_of(RIICHI))
    with pytest.raises(IllegalEvent):
        replay(seat_sees(events, seat), RIICHI, family=family_of(RIICHI))

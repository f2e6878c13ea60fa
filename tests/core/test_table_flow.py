"""The table between hands: renchan, honba, sticks, draw payments, liability and the end of the game.

Unit cases for each rule, then Tenhou's own games (``../shared/testdata/tenhou-games``, skipped
with a reason where absent): from each hand's outcome and the scores after it, :func:`next_hand`
must predict the next hand's ``start_kyoku`` exactly, and the end of the game where the log ends
it; the noten, nagashi and liability payments must equal the logged deltas.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

import pytest
from tenhou_games import GAMES_DIR, RecordedHand, game_rules, load_games, read_hands

from app.core.errors import InvalidRuleOption, InvalidTableState
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import EAST, parse_mpsz
from app.core.table.flow import (
    AbortiveDraw,
    AbortiveDrawKind,
    ExhaustiveDraw,
    GameEnd,
    GameEndReason,
    GameLength,
    HandOutcome,
    RoundWind,
    TableRules,
    TableState,
    Wins,
    dealer_keeps_deal,
    exhaustive_draw_payments,
    first_hand,
    nagashi_payments,
    next_hand,
    noten_payments,
    pao_payments,
    placements,
    ron_order,
    tenhou_rules,
    with_liability,
)
from app.core.value.riichi_scoring import score_riichi
from app.core.value.scoring_context import WinContext

E, S, W = RoundWind.EAST, RoundWind.SOUTH, RoundWind.WEST
TENHOU: Final = tenhou_rules()
SANMA: Final = tenhou_rules(seats=3)
TONPUU: Final = tenhou_rules(length=GameLength.TONPUU)
EVEN: Final = (25000, 25000, 25000, 25000)
NINE_TERMINALS: Final = AbortiveDraw(AbortiveDrawKind.NINE_TERMINALS)


def hand(
    bakaze: RoundWind, kyoku: int, scores: tuple[int, ...] = EVEN, *, honba: int = 0, sticks: int = 0
) -> TableState:
    return TableState(bakaze, kyoku, honba, sticks, kyoku - 1, scores)


def tenpai(*seats: int, count: int = 4) -> ExhaustiveDraw:
    return ExhaustiveDraw(tuple(seat in seats for seat in range(count)))


# -- the rules -----------------------------------------------------------------------------------


def test_tenhou_defaults() -> None:
    assert (TENHOU.seats, TENHOU.length, TENHOU.start_points, TENHOU.target_points) == (4, "hanchan", 25000, 30000)
    assert (TENHOU.noten_payment, TENHOU.busting, TENHOU.busting_at_zero, TENHOU.extension) == (3000, True, False, True)
    assert (SANMA.seats, SANMA.start_points, SANMA.target_points, SANMA.noten_payment) == (3, 35000, 40000, 2000)
    assert first_hand(SANMA) == TableState(E, 1, 0, 0, 0, (35000, 35000, 35000))


def test_a_length_given_by_name_is_the_enum() -> None:
    rules = TableRules(length="tonpuu")  # type: ignore[arg-type]
    assert rules.length is GameLength.TONPUU


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"seats": 2}, "seats"),
        ({"length": "north"}, "length"),
        ({"start_points": 0}, "start_points"),
        ({"target_points": -1}, "target_points"),
        ({"noten_payment": 1000}, "noten_payment"),  # 1000 does not split 3 ways in hundreds
        ({"noten_payment": -300}, "noten_payment"),
    ],
)
def test_impossible_rules_are_refused(override: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidRuleOption) as caught:
        TableRules(**override)
    assert caught.value.field == field and caught.value.code == "invalid_rule_option"


# -- renchan and honba ---------------------------------------------------------------------------


def test_a_non_dealer_win_passes_the_deal_and_clears_the_honba() -> None:
    after = next_hand(hand(E, 2, honba=3), Wins((3,)), TENHOU)
    assert after == TableState(E, 3, 0, 0, 2, EVEN)


def test_a_dealer_win_keeps_the_deal_and_adds_a_honba() -> None:
    assert next_hand(hand(E, 2, honba=3), Wins((1,)), TENHOU) == TableState(E, 2, 4, 0, 1, EVEN)


def test_a_double_ron_with_the_dealer_among_the_winners_is_renchan() -> None:
    assert next_hand(hand(E, 1, honba=1), Wins((2, 0)), TENHOU) == TableState(E, 1, 2, 0, 0, EVEN)
    assert next_hand(hand(E, 1, honba=1), Wins((2, 3)), TENHOU) == TableState(E, 2, 0, 0, 1, EVEN)


def test_an_exhaustive_draw_adds_a_honba_and_the_dealers_tenpai_decides() -> None:
    assert next_hand(hand(E, 3, honba=1, sticks=2), tenpai(2), TENHOU) == TableState(E, 3, 2, 2, 2, EVEN)
    assert next_hand(hand(E, 3, honba=1, sticks=2), tenpai(0, 1, 3), TENHOU) == TableState(E, 4, 2, 2, 3, EVEN)


def test_nagashi_counts_as_a_draw_for_the_deal() -> None:
    draw = ExhaustiveDraw((False, True, False, False), nagashi=(2,))
    assert next_hand(hand(E, 2), draw, TENHOU) == TableState(E, 2, 1, 0, 1, EVEN)
    assert dealer_keeps_deal(draw, 2, TENHOU) is False


def test_an_abortive_draw_keeps_the_deal_unless_the_rules_say_otherwise() -> None:
    assert next_hand(hand(E, 4, honba=0, sticks=1), NINE_TERMINALS, TENHOU) == TableState(E, 4, 1, 1, 3, EVEN)
    passing = replace(TENHOU, renchan_on_abortive_draw=False)
    assert next_hand(hand(E, 4), NINE_TERMINALS, passing) == TableState(S, 1, 1, 0, 0, EVEN)


def test_the_deal_moves_round_the_table_and_into_the_next_round() -> None:
    assert next_hand(hand(E, 4), Wins((0,)), TENHOU) == TableState(S, 1, 0, 0, 0, EVEN)
    sanma = (35000, 35000, 35000)
    assert next_hand(hand(E, 3, sanma), Wins((0,)), SANMA) == TableState(S, 1, 0, 0, 0, sanma)


def test_sticks_on_the_table_carry_to_the_next_hand() -> None:
    assert next_hand(hand(S, 1, honba=2, sticks=3), tenpai(1, 2), TENHOU) == TableState(S, 2, 3, 3, 1, EVEN)


# -- the end of the game -------------------------------------------------------------------------


def test_the_last_hand_ends_the_game_with_the_sticks_to_the_first_seat() -> None:
    end = next_hand(hand(S, 4, (24000, 31000, 21000, 22000), sticks=2), Wins((2,)), TENHOU)
    assert end == GameEnd(GameEndReason.LAST_HAND, (24000, 33000, 21000, 22000), (1, 0, 3, 2), 2)


def test_equal_points_rank_by_seat_order_from_the_first_dealer() -> None:
    assert placements([30300, 16300, 30300, 23100]) == (0, 2, 3, 1)
    end = next_hand(hand(S, 4, (16300, 22100, 30300, 30300), sticks=1), tenpai(1), TENHOU)
    assert isinstance(end, GameEnd) and end.scores == (16300, 22100, 31300, 30300)


def test_leftover_sticks_can_be_lost() -> None:
    rules = replace(TENHOU, leftover_sticks_to_top=False)
    end = next_hand(hand(S, 4, (24000, 32000, 20000, 22000), sticks=2), Wins((2,)), rules)
    assert isinstance(end, GameEnd) and end.scores == (24000, 32000, 20000, 22000) and end.leftover_sticks == 2


def test_no_one_at_the_target_after_the_last_hand_plays_the_west_round() -> None:
    scores = (29900, 29900, 20200, 20000)
    assert next_hand(hand(S, 4, scores), Wins((0,)), TENHOU) == TableState(W, 1, 0, 0, 0, scores)
    assert next_hand(hand(E, 4, scores), Wins((0,)), TONPUU) == TableState(S, 1, 0, 0, 0, scores)


def test_without_the_extension_the_last_hand_ends_the_game_below_the_target() -> None:
    end = next_hand(hand(S, 4, (29900, 29900, 20200, 20000)), Wins((0,)), replace(TENHOU, extension=False))
    assert isinstance(end, GameEnd) and end.reason is GameEndReason.LAST_HAND


def test_the_extension_ends_at_the_first_hand_with_a_seat_at_the_target() -> None:
    reached = (30000, 29000, 21000, 20000)
    end = next_hand(hand(W, 2, reached), tenpai(0), TENHOU)
    assert isinstance(end, GameEnd) and end.reason is GameEndReason.TARGET_REACHED
    below = (29900, 29100, 21000, 20000)
    assert next_hand(hand(W, 2, below), tenpai(0), TENHOU) == TableState(W, 3, 1, 0, 2, below)


def test_the_extension_ends_after_its_fourth_hand_whatever_the_points() -> None:
    end = next_hand(hand(W, 4, (27700, 24600, 21100, 26600)), Wins((0,)), TENHOU)
    assert isinstance(end, GameEnd) and end.reason is GameEndReason.EXTENSION_OVER
    end = next_hand(hand(S, 4, (27700, 24600, 21100, 26600)), Wins((0,)), TONPUU)
    assert isinstance(end, GameEnd) and end.reason is GameEndReason.EXTENSION_OVER


def test_the_dealer_stops_at_all_last_as_the_first_seat_with_the_target() -> None:
    end = next_hand(hand(S, 4, (20000, 20000, 25000, 35000)), Wins((3,)), TENHOU)
    assert isinstance(end, GameEnd) and end.reason is GameEndReason.DEALER_STOPS
    end = next_hand(hand(S, 4, (20000, 20000, 25000, 35000)), tenpai(3), TENHOU)
    assert isinstance(end, GameEnd) and end.reason is GameEndReason.DEALER_STOPS


def test_a_dealer_first_below_the_target_plays_on_even_in_west_4() -> None:
    scores = (24000, 24000, 23000, 29000)
    assert next_hand(hand(S, 4, scores), Wins((3,)), TENHOU) == TableState(S, 4, 1, 0, 3, scores)
    assert next_hand(hand(W, 4, scores), tenpai(3), TENHOU) == TableState(W, 4, 1, 0, 3, scores)


def test_a_dealer_tied_for_first_is_second_and_plays_on() -> None:
    scores = (32000, 18000, 18000, 32000)
    assert next_hand(hand(S, 4, scores), Wins((3,)), TENHOU) == TableState(S, 4, 1, 0, 3, scores)


def test_a_dealer_not_first_plays_on_though_another_seat_has_the_target() -> None:
    scores = (34000, 20000, 20000, 26000)
    assert next_hand(hand(S, 4, scores), tenpai(0, 3), TENHOU) == TableState(S, 4, 1, 0, 3, scores)
    assert next_hand(hand(W, 4, scores), Wins((3,)), TENHOU) == TableState(W, 4, 1, 0, 3, scores)


def test_without_dealer_stops_the_dealer_always_plays_on() -> None:
    scores = (20000, 20000, 25000, 35000)
    no_agari_yame = replace(TENHOU, dealer_stops_on_win=False)
    assert next_hand(hand(S, 4, scores), Wins((3,)), no_agari_yame) == TableState(S, 4, 1, 0, 3, scores)
    assert isinstance(next_hand(hand(S, 4, scores), tenpai(3), no_agari_yame), GameEnd)
    no_tenpai_yame = replace(TENHOU, dealer_stops_on_tenpai=False)
    assert next_hand(hand(S, 4, scores), tenpai(3), no_tenpai_yame) == TableState(S, 4, 1, 0, 3, scores)
    assert isinstance(next_hand(hand(S, 4, scores), Wins((3,)), no_tenpai_yame), GameEnd)


def test_without_the_extension_the_first_dealer_stops_below_the_target() -> None:
    scores = (20000, 26000, 25000, 29000)
    end = next_hand(hand(S, 4, scores), Wins((3,)), replace(TENHOU, extension=False))
    assert isinstance(end, GameEnd) and end.reason is GameEndReason.DEALER_STOPS


def test_an_abortive_draw_at_all_last_replays_the_hand() -> None:
    scores = (20000, 20000, 25000, 35000)
    assert next_hand(hand(S, 4, scores), NINE_TERMINALS, TENHOU) == TableState(S, 4, 1, 0, 3, scores)


def test_a_seat_below_zero_ends_the_game_but_zero_plays_on() -> None:
    end = next_hand(hand(E, 2, (51000, -100, 24100, 25000)), Wins((0,)), TENHOU)
    assert isinstance(end, GameEnd) and end.reason is GameEndReason.BUST
    on_zero = (50000, 0, 25000, 25000)
    assert next_hand(hand(E, 2, on_zero), Wins((0,)), TENHOU) == TableState(E, 3, 0, 0, 2, on_zero)
    end = next_hand(hand(E, 2, on_zero), Wins((0,)), replace(TENHOU, busting_at_zero=True))
    assert isinstance(end, GameEnd) and end.reason is GameEndReason.BUST
    assert isinstance(
        next_hand(hand(E, 2, (51000, -100, 24100, 25000)), Wins((0,)), replace(TENHOU, busting=False)), TableState
    )


def test_a_single_hand_game_may_be_any_hand() -> None:
    end = next_hand(hand(S, 3), tenpai(2), replace(TENHOU, length=GameLength.KYOKU))
    assert isinstance(end, GameEnd) and end.reason is GameEndReason.LAST_HAND


def test_a_single_hand_game_ends_after_its_hand_even_on_renchan() -> None:
    end = next_hand(
        hand(E, 1, (33000, 22000, 25000, 20000), sticks=1), Wins((0,)), replace(TENHOU, length=GameLength.KYOKU)
    )
    assert end == GameEnd(GameEndReason.LAST_HAND, (34000, 22000, 25000, 20000), (0, 2, 1, 3), 1)


# -- what cannot happen --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "outcome", "rules", "field"),
    [
        (TableState(E, 1, 0, 0, 1, EVEN), Wins((0,)), TENHOU, "oya"),
        (TableState(E, 5, 0, 0, 4, EVEN), Wins((0,)), TENHOU, "kyoku"),
        (TableState(E, 1, 0, 0, 0, EVEN[:3]), Wins((0,)), TENHOU, "scores"),
        (TableState(E, 1, -1, 0, 0, EVEN), Wins((0,)), TENHOU, "honba"),
        (TableState(W, 1, 0, 0, 0, EVEN), Wins((0,)), replace(TENHOU, extension=False), "bakaze"),
        (TableState(S, 1, 0, 0, 0, EVEN), Wins((0,)), TONPUU, "ok"),
        (TableState(W, 1, 0, 0, 0, EVEN), Wins((0,)), TONPUU, "bakaze"),
        (hand(E, 1), Wins(()), TENHOU, "winners"),
        (hand(E, 1), Wins((1, 1)), TENHOU, "winners"),
        (hand(E, 1), Wins((4,)), TENHOU, "winners"),
        (hand(E, 1), Wins((1, 2, 3)), TENHOU, "winners"),
        (hand(E, 1), Wins((1, 2)), replace(TENHOU, double_ron=False), "winners"),
        (hand(E, 1), ExhaustiveDraw((True, False, True)), TENHOU, "tenpai"),
        (hand(E, 1), ExhaustiveDraw((True,) * 4, nagashi=(1,)), replace(TENHOU, nagashi_mangan=False), "nagashi"),
        (hand(E, 1), AbortiveDraw(AbortiveDrawKind.TRIPLE_RON), replace(TENHOU, triple_ron_draw=False), "kind"),
    ],
)
def test_impossible_hands_are_refused(state: TableState, outcome: HandOutcome, rules: TableRules, field: str) -> None:
    if field == "ok":  # the South round of a tonpuu is its extension: a hand it can reach
        assert isinstance(next_hand(state, outcome, rules), TableState)
        return
    with pytest.raises(InvalidTableState) as caught:
        next_hand(state, outcome, rules)
    assert caught.value.field == field and caught.value.code == "invalid_table_state"


def test_three_winners_are_three_wins_without_the_triple_ron_draw() -> None:
    rules = replace(TENHOU, triple_ron_draw=False)
    assert next_hand(hand(E, 1), Wins((1, 2, 3)), rules) == TableState(E, 2, 0, 0, 1, EVEN)


# -- payments ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ready", "expected"),
    [
        ((), (0, 0, 0, 0)),
        ((2,), (-1000, -1000, 3000, -1000)),
        ((0, 3), (1500, -1500, -1500, 1500)),
        ((0, 1, 3), (1000, 1000, -3000, 1000)),
        ((0, 1, 2, 3), (0, 0, 0, 0)),
    ],
)
def test_noten_payments_four_seats(ready: tuple[int, ...], expected: tuple[int, ...]) -> None:
    assert noten_payments([seat in ready for seat in range(4)], TENHOU) == expected


@pytest.mark.parametrize(
    ("ready", "expected"), [((), (0, 0, 0)), ((1,), (-1000, 2000, -1000)), ((0, 2), (1000, -2000, 1000))]
)
def test_noten_payments_sanma(ready: tuple[int, ...], expected: tuple[int, ...]) -> None:
    assert noten_payments([seat in ready for seat in range(3)], SANMA) == expected


def test_noten_payments_follow_the_rules_pool() -> None:
    assert noten_payments([True, False, False, False], replace(TENHOU, noten_payment=6000)) == (
        6000,
        -2000,
        -2000,
        -2000,
    )
    with pytest.raises(InvalidTableState):
        noten_payments([True, False, False], TENHOU)


def test_nagashi_is_a_mangan_self_draw_for_each_seat_with_it() -> None:
    assert nagashi_payments([0], 0, TENHOU) == (12000, -4000, -4000, -4000)
    assert nagashi_payments([1], 0, TENHOU) == (-4000, 8000, -2000, -2000)
    assert nagashi_payments([1, 2], 0, TENHOU) == (-8000, 6000, 6000, -4000)
    assert nagashi_payments([], 0, TENHOU) == (0, 0, 0, 0)


def test_sanma_nagashi_loses_the_missing_seats_share_with_tsumo_loss() -> None:
    assert nagashi_payments([1], 0, SANMA) == (-4000, 6000, -2000)
    assert nagashi_payments([1], 0, SANMA, tsumo_loss=False) == (-5000, 8000, -3000)


def test_nagashi_replaces_the_noten_payments() -> None:
    draw = ExhaustiveDraw((True, False, False, True), nagashi=(2,))
    assert exhaustive_draw_payments(draw, 3, TENHOU) == (-2000, -2000, 8000, -4000)
    assert exhaustive_draw_payments(replace(draw, nagashi=()), 3, TENHOU) == (1500, -1500, -1500, 1500)


def test_pao_on_a_self_draw_the_liable_seat_pays_all_and_the_honba() -> None:
    payments, per_payer = pao_payments(16000, winner=0, dealer=3, discarder=None, liable=2, honba=3, seats=4)
    assert payments == (64900, 0, -64900, 0) and per_payer == ((2, 64900),)
    payments, _ = pao_payments(8000, winner=0, dealer=0, discarder=None, liable=1, honba=0, seats=4)
    assert payments == (48000, -48000, 0, 0)


def test_pao_on_a_discard_is_split_half_and_half_the_liable_seat_paying_the_honba() -> None:
    payments, per_payer = pao_payments(8000, winner=0, dealer=0, discarder=3, liable=1, honba=2, seats=4)
    assert payments == (48600, -24600, 0, -24000) and per_payer == ((3, 24000), (1, 24600))
    payments, _ = pao_payments(8000, winner=1, dealer=0, discarder=2, liable=0, honba=1, seats=3)
    assert payments == (-16200, 32200, -16000)


def test_pao_on_the_liable_seats_own_discard_is_an_ordinary_win() -> None:
    payments, per_payer = pao_payments(8000, winner=1, dealer=0, discarder=2, liable=2, honba=1, seats=4)
    assert payments == (0, 32300, -32300, 0) and per_payer == ((2, 32300),)


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"base_points": 2000}, "base_points"),
        ({"liable": 1}, "liable"),
        ({"discarder": 1}, "liable"),
        ({"liable": 4}, "liable"),
        ({"honba": -1}, "honba"),
    ],
)
def test_pao_refuses_what_cannot_be(arguments: dict[str, Any], field: str) -> None:
    given = {"base_points": 8000, "winner": 1, "dealer": 0, "discarder": None, "liable": 2, "honba": 0, "seats": 4}
    with pytest.raises(InvalidTableState) as caught:
        pao_payments(**(given | arguments))
    assert caught.value.field == field


def test_with_liability_leaves_a_hand_without_a_pao_yakuman_alone() -> None:
    melds = [Meld.of("pon", [31] * 3), Meld.of("pon", [32] * 3)]
    score = score_riichi(
        Hand.from_tiles(parse_mpsz("234m55p111s"), melds), 13, rule_profile("riichi"), WinContext(1, 0)
    )
    assert with_liability(score, winner=1, dealer=0, discarder=None, liable=3, honba=0, rules=TENHOU) is score
    daisangen = score_riichi(
        Hand.from_tiles(parse_mpsz("234m55p"), [*melds, Meld.of("pon", [33] * 3)]),
        13,
        rule_profile("riichi"),
        WinContext(1, 0),
    )
    assert (
        with_liability(
            daisangen, winner=1, dealer=0, discarder=None, liable=3, honba=0, rules=replace(TENHOU, pao=False)
        )
        is daisangen
    )
    assert (
        with_liability(daisangen, winner=1, dealer=0, discarder=None, liable=None, honba=0, rules=TENHOU) is daisangen
    )
    moved = with_liability(daisangen, winner=1, dealer=0, discarder=None, liable=3, honba=0, rules=TENHOU)
    assert moved.payments == (0, 32000, 0, -32000) and moved.han == daisangen.han


def test_ron_order_starts_at_the_discarders_right() -> None:
    assert ron_order(3, [2, 0], 4) == (0, 2)
    assert ron_order(1, [0, 3, 2], 4) == (2, 3, 0)
    assert ron_order(2, [1, 0], 3) == (0, 1)


# -- Tenhou's games ------------------------------------------------------------------------------

GAMES: Final = load_games()
_TENHOU_DRAWS: Final = {
    "yao9": AbortiveDrawKind.NINE_TERMINALS,
    "kaze4": AbortiveDrawKind.FOUR_WINDS,
    "reach4": AbortiveDrawKind.FOUR_RIICHI,
    "kan4": AbortiveDrawKind.FOUR_KANS,
    "ron3": AbortiveDrawKind.TRIPLE_RON,
}
needs_games = pytest.mark.skipif(not GAMES, reason=f"Tenhou's games not found at {GAMES_DIR}")


def outcome_of(recorded: RecordedHand, results: list[dict[str, Any]]) -> HandOutcome:
    """What the hand did, told from the log alone: winners, Tenhou's draw kind, the hands held at a draw."""
    if recorded.ends[0]["type"] == "hora":
        return Wins(tuple(end["actor"] for end in recorded.ends))
    kind = results[0]["kind"]
    if kind in _TENHOU_DRAWS:
        return AbortiveDraw(_TENHOU_DRAWS[kind])
    assert kind in ("exhaustive", "nm"), kind
    seats = range(recorded.seats)
    nagashi = tuple(seat for seat in seats if recorded.has_nagashi(seat))
    return ExhaustiveDraw(tuple(recorded.is_tenpai(seat) for seat in seats), nagashi)


def state_after(recorded: RecordedHand) -> TableState:
    start = recorded.start
    sticks = start["kyotaku"] + sum(recorded.riichi)
    won = recorded.ends[0]["type"] == "hora"
    return TableState(
        RoundWind(start["bakaze"]),
        start["kyoku"],
        start["honba"],
        0 if won else sticks,
        start["oya"],
        tuple(recorded.scores_after()),
    )


def start_of(recorded: RecordedHand) -> TableState:
    start = recorded.start
    return TableState(
        RoundWind(start["bakaze"]),
        start["kyoku"],
        start["honba"],
        start["kyotaku"],
        start["oya"],
        tuple(start["scores"]),
    )


@needs_games
def test_the_games_are_all_there() -> None:
    assert (len(GAMES), sum(game["players"] == 4 for game in GAMES)) == (55, 54)
    assert sum(len(game["per_hand"]) for game in GAMES) == 549 + 6


@needs_games
@pytest.mark.parametrize("game", GAMES, ids=[game["file"] for game in GAMES])
def test_next_hand_predicts_every_hand_and_the_end_of_each_game(game: dict[str, Any]) -> None:
    rules = game_rules(game)
    hands = read_hands(game)
    assert len(hands) == len(game["per_hand"])
    assert start_of(hands[0]) == first_hand(rules)
    wrong = []
    for index, (recorded, logged) in enumerate(zip(hands, game["per_hand"], strict=True)):
        predicted = next_hand(state_after(recorded), outcome_of(recorded, logged["results"]), rules)
        expected: TableState | list[int] = (
            start_of(hands[index + 1]) if index + 1 < len(hands) else game["final_scores"]
        )
        if isinstance(expected, TableState) and predicted != expected:
            wrong.append((logged["kyoku"], logged["honba"], predicted, expected))
    assert wrong == []
    end = predicted
    assert isinstance(end, GameEnd), f"the log ends the game; next_hand gave {end}"
    # final_scores are the last hand's, before Tenhou gives the leader the sticks left on the table.
    leader = end.placements[0]
    assert game["final_scores"][leader] == max(game["final_scores"])
    with_sticks = [
        score + (1000 * end.leftover_sticks if seat == leader else 0) for seat, score in enumerate(game["final_scores"])
    ]
    assert list(end.scores) == with_sticks
    assert sum(end.scores) == rules.seats * rules.start_points


@needs_games
def test_the_games_reach_every_way_a_game_ends_and_goes_on() -> None:
    ends, renchan, extension_hands, abortive = set(), 0, 0, 0
    for game in GAMES:
        rules = game_rules(game)
        for recorded, logged in zip(read_hands(game), game["per_hand"], strict=True):
            outcome = outcome_of(recorded, logged["results"])
            result = next_hand(state_after(recorded), outcome, rules)
            if isinstance(result, GameEnd):
                ends.add(result.reason)
            renchan += dealer_keeps_deal(outcome, recorded.start["oya"], rules)
            abortive += isinstance(outcome, AbortiveDraw)
            extension_hands += recorded.start["bakaze"] == "W" or (
                rules.length is GameLength.TONPUU and recorded.start["bakaze"] == "S"
            )
    assert ends == {
        GameEndReason.LAST_HAND,
        GameEndReason.BUST,
        GameEndReason.TARGET_REACHED,
        GameEndReason.DEALER_STOPS,
        GameEndReason.EXTENSION_OVER,
    }
    assert renchan > 100 and abortive == 11 and extension_hands > 5


@needs_games
def test_tenpai_yame_came_in_june_2010() -> None:
    # Tenhou's blog (2010-05-18): from June 2010 a first-placed dealer tenpai at all-last ends the
    # game; before, the dealer played on.  One hand of these games tells the two apart, and its game
    # (February 2009) played on.
    differ = []
    for game in GAMES:
        rules = game_rules(game)
        for recorded, logged in zip(read_hands(game), game["per_hand"], strict=True):
            state, outcome = state_after(recorded), outcome_of(recorded, logged["results"])
            with_stop = next_hand(state, outcome, replace(rules, dealer_stops_on_tenpai=True))
            without = next_hand(state, outcome, replace(rules, dealer_stops_on_tenpai=False))
            if with_stop != without:
                differ.append((game["id"], logged["kyoku"], logged["honba"], rules.dealer_stops_on_tenpai))
    assert differ == [("2009022022gm-00a9-0000-cd94aac8", "S4", 1, False)]


@needs_games
def test_noten_and_nagashi_payments_equal_the_logged_deltas() -> None:
    checked = {"exhaustive": 0, "nm": 0}
    wrong = []
    for game in GAMES:
        rules = game_rules(game)
        for recorded, logged in zip(read_hands(game), game["per_hand"], strict=True):
            kind = logged["results"][0]["kind"]
            if kind not in checked:
                continue
            draw = outcome_of(recorded, logged["results"])
            assert isinstance(draw, ExhaustiveDraw)
            assert bool(draw.nagashi) == (kind == "nm")
            paid = exhaustive_draw_payments(draw, recorded.start["oya"], rules)
            checked[kind] += 1
            if list(paid) != recorded.ends[0]["deltas"]:
                wrong.append((game["file"], logged["kyoku"], logged["honba"], paid, recorded.ends[0]["deltas"]))
    assert wrong == []
    assert checked == {"exhaustive": 90, "nm": 1}


@needs_games
def test_liability_payments_equal_the_logged_deltas() -> None:
    checked = []
    for game in GAMES:
        rules = game_rules(game)
        for recorded in read_hands(game):
            for end in recorded.ends:
                if end["type"] != "hora" or end["actor"] not in recorded.liable:
                    continue
                winner = end["actor"]
                checked.append(game["file"])
                start = recorded.start
                discarder = None if end["target"] == winner else end["target"]
                win_tile = recorded.last_draw[winner] if discarder is None else recorded.last_offered
                assert win_tile is not None
                held = recorded.concealed[winner] + ([] if discarder is None else [win_tile])
                context = WinContext(
                    winner,
                    start["oya"],
                    discarder,
                    round_wind=EAST + "ESWN".index(start["bakaze"]),
                    honba=start["honba"],
                )
                score = score_riichi(
                    Hand.from_tiles(held, recorded.melds[winner]), win_tile, rule_profile("riichi"), context
                )
                liable = recorded.liable[winner]
                paid = with_liability(
                    score,
                    winner=winner,
                    dealer=start["oya"],
                    discarder=discarder,
                    liable=liable,
                    honba=start["honba"],
                    rules=rules,
                )
                sticks = [
                    1000 * (start["kyotaku"] + sum(recorded.riichi)) if seat == winner else 0 for seat in range(4)
                ]
                assert [a + b for a, b in zip(paid.payments, sticks, strict=True)] == end["deltas"]
                assert [seat for seat, _ in paid.per_payer] == [liable]
    assert len(checked) == 3

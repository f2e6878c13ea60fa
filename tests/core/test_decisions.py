"""Decisions a strong player would not argue about, pinned one by one with the reason behind each.

Each test also plays the other side of the decision (the same hand where the reason is gone),
so that a strategy that always folds, never calls or never declares fails it.
"""

from __future__ import annotations

from typing import Any

from kyoku_events import east_one

from app.core.advice.safety import Opponent
from app.core.families.registry import family_of
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import EAST, SOUTH, format_tile, parse_mpsz
from app.core.table.decide import act
from app.core.table.players import Advisor, LinearAdvisor, SeatView

RIICHI = rule_profile("riichi")


def _view(tiles: str, *, opponents: tuple[Opponent, ...] = (Opponent(),) * 3, turn: int = 9, **fields: Any) -> SeatView:
    hand = Hand.from_tiles(parse_mpsz(tiles), fields.pop("melds", ()))
    fields.setdefault("seat_wind", SOUTH)
    return SeatView(
        1, hand, None, turn, opponents, (EAST,), 50, RIICHI, Checker(RIICHI), True, (31, 32, 33, SOUTH, EAST), **fields
    )


# ------------------------------------------------------------------ folding

#: One-shanten: 23m, 46p, 234s, 678s and the 99m pair; 5m and 8m are the loose tiles.
ONE_SHANTEN = "235899m46p234678s"


def _dealer_riichi(river: str) -> tuple[Opponent, ...]:
    """Seat 1 (South) sees seats 2, 3 and 0; seat 0 deals, and has declared with its last discard."""
    tiles = tuple(parse_mpsz(river))
    return (Opponent(), Opponent(), Opponent(river=tiles, riichi=True, riichi_turn=len(tiles)))


def test_a_one_shanten_hand_folds_against_a_dealers_riichi_with_a_genbutsu():
    # The dealer threw 9m before declaring: 9m is genbutsu (it cannot deal in).  Keeping the
    # shape means throwing 5m or 8m, each live against the dealer; a cheap one-shanten hand is
    # not worth a dealer's hand at 1.5 times a non-dealer's.
    view = _view(ONE_SHANTEN, opponents=_dealer_riichi("1z9m2z7z1p"))
    assert Checker(RIICHI).shanten_number(view.hand) == 1
    advisor = Advisor()
    ranked = advisor.rank(view)
    assert format_tile(ranked[0].tile) == "9m"
    # /act's values say why: no discard is worth more than folding (0) against the riichi.
    values = [advisor.discard_value(view, candidate) for candidate in ranked]
    assert all(value is not None and value[0] <= 0 for value in values)
    assert all("against the riichi" in value[1][-1] for value in values if value is not None)
    # Nobody declared: the same hand keeps its shape (throws a loose tile).
    assert format_tile(Advisor().rank(_view(ONE_SHANTEN))[0].tile) in ("5m", "8m")
    # The old advisor pushes (it charges a riichi only one discard's danger).
    assert format_tile(LinearAdvisor().rank(view)[0].tile) != "9m"


def test_far_from_ready_the_advisor_throws_the_safest_tile_against_a_riichi():
    view = _view("1379m2468p13579s5z", opponents=_dealer_riichi("1z9m2z7z3s"))
    pick = Advisor().rank(view)[0]
    assert format_tile(pick.tile) == "9m"  # the one genbutsu held
    assert pick.safety_by_opponent[2].danger == 0.0


# ------------------------------------------------------------------ calls


def test_a_call_that_leaves_an_open_hand_without_a_yaku_is_refused():
    # The pon of 9p lowers the shanten, but leaves terminals and a north pair (no value honour
    # for a South seat in an East round): the open hand can never win, so it is worth nothing.
    pon = Meld.of("pon", parse_mpsz("999p"))
    view = _view("123m99p456s78s1m44z")
    meld, values = Advisor().call_with_values(view, 17, [pon])
    assert meld is None
    assert values is not None and values.calls[0].value == 0.0 < values.passing
    assert "the open hand has no yaku it can reach" in values.calls[0].reasons
    # A pon of haku (a yaku by itself) from the same kind of hand is called.
    haku = Meld.of("pon", parse_mpsz("555z"))
    meld, values = Advisor().call_with_values(_view("123m19p456s78s55z9m"), 31, [haku])
    assert meld == haku
    # Closed, the hand is worth more when it wins (riichi, menzen tsumo), but the pon wins more
    # often: with a yaku in sight, the faster line is taken.
    assert values is not None and 0 < values.calls[0].value
    assert values.calls[0].win_probability > values.passing_win_probability


# ------------------------------------------------------------------ riichi or dama


def test_a_ready_hand_that_already_has_a_mangan_stays_dama():
    # Honitsu (3 han closed) and haku (1), 40 fu, waiting on 4m-7m (a mangan) and 1m (ittsu
    # too: a haneman) without riichi, at the sixteenth turn.  Riichi adds a han that changes
    # nothing on a discard of 4m or 7m (5 han is a mangan too), and with a few draws left the
    # stick and the discards opponents stop throwing cost more than a self-draw's haneman brings.
    view = _view("234m56m789m555z11m9p", turn=16)
    choice = Advisor().riichi_choice(view, parse_mpsz("9p")[0])
    assert choice is not None and not choice.riichi
    assert choice.dama_points == (6 * 8000 + 2 * 12000) / 8  # three 4m and 7m unseen each, two 1m
    assert choice.dama_value > choice.riichi_value
    # A ready hand worth 1,000 (hatsu only) declares at the sixth turn: riichi more than doubles it.
    cheap = Advisor().riichi_choice(_view("234m567p2399s666z9p", turn=6), parse_mpsz("9p")[0])
    assert cheap is not None and cheap.riichi


# ------------------------------------------------------------------ kans


def test_a_ready_hand_declares_a_closed_kan_for_its_draw_and_dora_but_not_against_a_riichi_when_not_ready():
    # Ready on haku or hatsu either way; the kan adds a replacement draw and a new dora
    # indicator, and nobody can rob a closed kan.
    kan = Meld.of("closed_kan", parse_mpsz("2222m"))
    ready = _view("2222m345p678s5566z", turn=5)
    advisor = Advisor()
    assert advisor.kan(ready, [kan]) == kan
    value, reasons = advisor.kan_value(ready, kan) or (0.0, ())
    kept = advisor.kan_reference(ready, advisor.rank(ready)[0])
    assert kept is not None and value > kept > 0
    assert any("new dora indicator" in reason for reason in reasons)
    # One-shanten against a dealer's riichi: the new dora serves the threat; no kan, whatever it is worth.
    one_shanten = _view("2222m345p678s556z7z", turn=5, opponents=_dealer_riichi("1z9m2z7z1p"))
    assert (advisor.kan_value(one_shanten, kan) or (0.0,))[0] > 0
    assert advisor.kan(one_shanten, [kan]) is None


def test_an_added_kan_of_a_live_tile_into_a_dealers_riichi_is_not_declared_by_a_cheap_hand():
    # Open tanyao (a pon of 5p) ready on 2p-5p; adding the fourth 5p early is a draw and a dora
    # for nearly nothing (0.2% to be robbed).  Late, against a dealer's riichi whose river leaves
    # 5p live, the added 5p is robbed about a seventh of the time, a dealer's hand for a cheap one.
    pon, added = Meld.of("pon", parse_mpsz("555p")), Meld.of("added_kan", parse_mpsz("5555p"))
    advisor = Advisor()
    early = _view("5p234m678s34p66s", melds=(pon,), turn=3)
    assert advisor.kan(early, [added]) == added
    late = _view("5p234m678s34p66s", melds=(pon,), turn=11, opponents=_dealer_riichi("1z9m2z7z1s6s"))
    assert advisor.kan(late, [added]) is None
    value, reasons = advisor.kan_value(late, added) or (0.0, ())
    assert value < 0
    assert any(reason.startswith("robbed 14.6% of the time") for reason in reasons)


# ------------------------------------------------------------------ wins and standings


def _all_last(discarder: int, scores: list[int]) -> list[dict[str, Any]]:
    """South 4 (seat 3 deals); seat 1 waits on 3m-6m with tanyao and pinfu (2,000 on a discard)."""
    hands = [
        parse_names("111999m111999p1s"),
        parse_names("234m567p345s66s45m"),
        parse_names("111999s222888p5z"),
        parse_names("7777z6666z5555z4z"),
    ]
    events: list[dict[str, Any]] = [
        {"type": "start_game"},
        {
            "type": "start_kyoku",
            "bakaze": "S",
            "dora_marker": "E",
            "kyoku": 4,
            "honba": 0,
            "kyotaku": 0,
            "oya": 3,
            "scores": scores,
            "tehais": hands,
        },
        {"type": "tsumo", "actor": 3, "pai": "E"},
        {"type": "dahai", "actor": 3, "pai": "E", "tsumogiri": True},
    ]
    # Play goes 3, 0, 1, 2: each throws what it drew, the discarder a 3m.
    for seat in (0, 1, 2)[: discarder + 1]:
        drawn = "3m" if seat == discarder else {0: "S", 1: "9s"}[seat]
        events.append({"type": "tsumo", "actor": seat, "pai": drawn})
        events.append({"type": "dahai", "actor": seat, "pai": drawn, "tsumogiri": True})
    return events


def parse_names(text: str) -> list[str]:
    names = {27: "E", 28: "S", 29: "W", 30: "N", 31: "P", 32: "F", 33: "C"}
    return [names.get(tile, format_tile(tile)) for tile in parse_mpsz(text)]


def test_at_all_last_a_win_that_leaves_the_seat_fourth_is_passed_when_another_would_not():
    # Seat 1 has 18,000 and seat 2 21,000; the dealer (seat 3) has 34,000, so any win by
    # seat 1 ends the game.  2,000 from seat 0 leaves seat 1 on 20,000, fourth; the same win
    # from seat 2 (a direct hit) or a self-draw (700/1,300) lifts it to third.
    scores = [27000, 18000, 21000, 34000]
    answer = act(_all_last(0, scores), 1, RIICHI, strategy=Advisor(), family=family_of(RIICHI))
    assert answer.action == {"type": "none"}
    win = next(item for item in answer.ranked if item[0]["type"] == "hora")
    assert win[1] == 2000.0 and "ends the game with seat 1 last" in win[2][0]
    # From seat 2 the win lifts seat 1 out of last place: taken.
    assert act(_all_last(2, scores), 1, RIICHI, strategy=Advisor(), family=family_of(RIICHI)).action["type"] == "hora"
    # Before all-last nothing is decided: the win is taken.
    events = _all_last(0, scores)
    events[1] = {**events[1], "bakaze": "E"}
    assert act(events, 1, RIICHI, strategy=Advisor(), family=family_of(RIICHI)).action["type"] == "hora"
    # The old advisor takes every win.
    assert (
        act(_all_last(0, scores), 1, RIICHI, strategy=LinearAdvisor(), family=family_of(RIICHI)).action["type"]
        == "hora"
    )


def test_the_all_last_judgement_after_another_seats_kan_weighs_a_plain_self_draw():
    # Seat 0 makes a closed kan of 1m and throws the 3m it draws from the dead wall.  Seat 1's
    # self-draw to come is an ordinary draw, not a replacement tile (it holds no kan): the same
    # judgement as without the kan, the win passed.
    scores = [27000, 18000, 21000, 34000]
    events = _all_last(0, scores)[:-2]
    events += [
        {"type": "tsumo", "actor": 0, "pai": "1m"},
        {"type": "ankan", "actor": 0, "consumed": ["1m", "1m", "1m", "1m"]},
        {"type": "dora", "dora_marker": "9s"},
        {"type": "tsumo", "actor": 0, "pai": "3m"},
        {"type": "dahai", "actor": 0, "pai": "3m", "tsumogiri": True},
    ]
    answer = act(events, 1, RIICHI, strategy=Advisor(), family=family_of(RIICHI))
    assert answer.action == {"type": "none"}
    win = next(item for item in answer.ranked if item[0]["type"] == "hora")
    assert "ends the game with seat 1 last" in win[2][0]


def test_act_values_riichi_and_the_same_discard_as_dama_on_one_scale():
    # The dealer's first draw makes a hatsu hand ready on 1s-4s: riichi more than doubles it.
    events: list[dict[str, Any]] = [
        *east_one([parse_names("234m567p2399s666z"), *[["?"] * 13] * 3]),
        {"type": "tsumo", "actor": 0, "pai": "9p"},
    ]
    answer = act(events, 0, RIICHI, strategy=Advisor(), family=family_of(RIICHI))
    assert answer.action == {"type": "reach", "actor": 0}
    reach = next(item for item in answer.ranked if item[0]["type"] == "reach")
    dama = next(
        item for item in answer.ranked if item[0] == {"type": "dahai", "actor": 0, "pai": "9p", "tsumogiri": True}
    )
    assert reach[1] is not None and dama[1] is not None and reach[1] > dama[1]
    assert "riichi is worth more than dama" in reach[2] and dama[2][0] == "dama"


class _RiichiWithTheBestDiscardOnly(Advisor):
    riichi_with_any_ready_discard = False


#: The dealer's first draw, 3p, to 5667789m 444567s: 7s keeps a one-shanten of wide waits
#: (the best discard dama), 9m or 3p make the hand ready on a single wait.
_TANKI_CHOICE = [
    *east_one([parse_names("5667789m444567s"), *[["?"] * 13] * 3]),
    {"type": "tsumo", "actor": 0, "pai": "3p"},
]


def test_riichi_is_weighed_with_every_discard_that_leaves_the_hand_ready():
    family = family_of(RIICHI)
    answer = act(_TANKI_CHOICE, 0, RIICHI, strategy=Advisor(), family=family)
    only_the_best = act(_TANKI_CHOICE, 0, RIICHI, strategy=_RiichiWithTheBestDiscardOnly(), family=family)
    # Weighed with the best discard alone (not ready after it), riichi is never considered.
    assert only_the_best.action["type"] == "dahai" and only_the_best.action["pai"] == "7s"
    assert answer.action == {"type": "reach", "actor": 0}
    reach, declaring = answer.ranked[0], next(item for item in answer.ranked if item[0]["type"] == "dahai")
    best_dama = max(item[1] for item in answer.ranked if item[0]["type"] == "dahai")
    assert reach[2][0] == f"riichi with {declaring[0]['pai']}" and declaring[2][0] == "dama"
    assert declaring[0]["pai"] in ("9m", "3p")
    # Riichi stands on the figure of its own discard dama, and is worth more than any discard.
    assert declaring[1] < best_dama < reach[1]
    # Declared, the seat throws the tile the riichi was weighed with.
    declared = act([*_TANKI_CHOICE, {"type": "reach", "actor": 0}], 0, RIICHI, strategy=Advisor(), family=family)
    assert declared.action["type"] == "dahai" and declared.action["pai"] == declaring[0]["pai"]


def test_without_another_ready_discard_riichi_is_weighed_as_before():
    # The hatsu hand of the test above it: one discard leaves it ready, and both strategies agree.
    events: list[dict[str, Any]] = [
        *east_one([parse_names("234m567p2399s666z"), *[["?"] * 13] * 3]),
        {"type": "tsumo", "actor": 0, "pai": "9p"},
    ]
    family = family_of(RIICHI)
    for strategy in (Advisor(), _RiichiWithTheBestDiscardOnly()):
        answer = act(events, 0, RIICHI, strategy=strategy, family=family)
        assert answer.action == {"type": "reach", "actor": 0}
        assert answer.ranked[0][2][0] == "riichi with 9p"

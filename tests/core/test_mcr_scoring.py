"""MCR scoring: the fan table, the exclusion principles, the waits, the floor, payments and validation.

The rule book's own worked examples are in ``test_mcr_examples.py`` and the comparison
with PyMahjongGB on random wins in ``test_mcr_oracle.py``; here each principle is pinned
on a hand chosen to show it, with the rule text it follows.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest
from mcr_reference import _EXCLUDES, _KNITTED, _VALUE, _regular_readings, _suit_splits, _waits

from app.core.errors import BelowMinimumFan, NotAWinningHand, WrongTileCount
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import EAST, NORTH, SOUTH, WEST, Tile, parse_mpsz
from app.core.value.mcr_scoring import (
    FAN_TABLE,
    MINIMUM_FAN,
    OFFICIAL_FAN_COUNT,
    Fan,
    count_fans,
    fan_total,
    score_mcr,
)
from app.core.value.scoring_context import InvalidWinContext, WinContext

MCR = rule_profile("mcr")
DISCARD = WinContext(winner=0, dealer=0, discarder=1)
SELF_DRAW = WinContext(winner=0, dealer=0)


def hand_of(concealed: str, *melds: str) -> Hand:
    """``hand_of("11m", "pon:111z")``: concealed tiles in mpsz (winning tile included) and melds."""
    declared = []
    for meld in melds:
        kind, tiles = meld.split(":")
        declared.append(Meld.of(kind, parse_mpsz(tiles)))
    return Hand.from_tiles(parse_mpsz(concealed), declared)


def tile(name: str) -> Tile:
    return parse_mpsz(name)[0]


def fans(concealed: str, win: str, context: WinContext = DISCARD, *melds: str) -> Counter[str]:
    """The fans counted, as a multiset of Chinese names: ``concealed`` without the winning tile,
    as the rule book writes its examples."""
    hand = hand_of(concealed + win, *melds)
    return Counter({f.chinese: f.count for f in count_fans(hand, tile(win), context)})


# --------------------------------------------------------------------------- the table


def test_the_table_has_the_81_official_fans_then_concealed_and_melded_kong() -> None:
    assert len(FAN_TABLE) == OFFICIAL_FAN_COUNT + 1
    assert FAN_TABLE[OFFICIAL_FAN_COUNT - 1] == ("Flower Tiles", "花牌", 1)
    assert FAN_TABLE[OFFICIAL_FAN_COUNT] == ("Concealed Kong and Melded Kong", "明暗杠", 5)
    assert len({name for name, _, _ in FAN_TABLE}) == len({chinese for _, chinese, _ in FAN_TABLE}) == len(FAN_TABLE)
    official = [value for _, _, value in FAN_TABLE[:OFFICIAL_FAN_COUNT]]
    assert official == sorted(official, reverse=True)
    assert Counter(official) == {88: 7, 64: 6, 48: 2, 32: 3, 24: 9, 16: 6, 12: 5, 8: 9, 6: 7, 4: 4, 2: 10, 1: 13}


def test_a_fan_only_excludes_fans_worth_no_more_and_later_in_the_table() -> None:
    for fan, excluded in _EXCLUDES:
        for other in excluded:
            assert other > fan and _VALUE[other] <= _VALUE[fan], (FAN_TABLE[fan], FAN_TABLE[other])


# --------------------------------------------------------------------------- the tables against brute force


def test_the_six_knitted_straights() -> None:
    assert len(set(_KNITTED)) == 6
    for straight in _KNITTED:
        by_suit = {suit: sorted(t % 9 + 1 for t in straight if t // 9 == suit) for suit in range(3)}
        assert sorted(map(tuple, by_suit.values())) == [(1, 4, 7), (2, 5, 8), (3, 6, 9)]


def _brute_splits(counts: tuple[int, ...], numbered: bool) -> set[tuple[int, tuple[int, ...]]]:
    """Every split by trying every group at every tile, in any order (slow, obviously complete)."""
    found: set[tuple[int, tuple[int, ...]]] = set()

    def walk(rest: tuple[int, ...], pair: int, sets: tuple[int, ...]) -> None:
        if not any(rest):
            found.add((pair, tuple(sorted(sets))))
            return
        for index, count in enumerate(rest):
            if count >= 2 and pair < 0:
                walk(rest[:index] + (count - 2,) + rest[index + 1 :], index, sets)
            if count >= 3:
                walk(rest[:index] + (count - 3,) + rest[index + 1 :], pair, (*sets, 34 + index))
            if numbered and index <= 6 and count and rest[index + 1] and rest[index + 2]:
                less = list(rest)
                for offset in range(3):
                    less[index + offset] -= 1
                walk(tuple(less), pair, (*sets, index))

    walk(counts, -1, ())
    return found


@pytest.mark.parametrize("numbered", [True, False])
def test_suit_splits_agree_with_brute_force(numbered: bool) -> None:
    rng = random.Random(7)
    width = 9 if numbered else 7
    for _ in range(400):
        counts = [0] * width
        for _ in range(rng.choice((2, 3, 5, 6, 8, 9, 11))):
            counts[rng.randrange(width)] += 1
        if max(counts) > 4:
            continue
        key = tuple(counts)
        assert set(_suit_splits(bytes(key), numbered)) == _brute_splits(key, numbered), key


def test_waits_agree_with_completing_each_tile() -> None:
    rng = random.Random(11)
    checked = 0
    while checked < 300:
        kinds = rng.sample(range(34), 6) if rng.random() < 0.3 else list(range(9 * rng.randrange(4), 34))[:9]
        counts = [0] * 34
        for _ in range(13):
            counts[rng.choice(kinds)] += 1
        if max(counts) > 4:
            continue
        checked += 1
        slow = set()
        for candidate in range(34):
            counts[candidate] += 1
            if _regular_readings(bytes(counts)):
                slow.add(candidate)
            counts[candidate] -= 1
        assert _waits(bytes(counts)) == slow


# --------------------------------------------------------------------------- exclusion principles


def test_implied_fans_are_not_counted_and_an_excluded_fan_excludes_nothing() -> None:
    # 四暗刻 不计碰碰和、不求人、门前清: the self-draw 不求人 had absorbed counts as 自摸 again.
    assert fans("111444888m888s5p", "5p", SELF_DRAW) == Counter(
        {"四暗刻": 1, "双同刻": 1, "幺九刻": 1, "无字": 1, "独听・单钓": 1, "自摸": 1}
    )


def test_account_once_allows_one_combination_fewer_than_the_sets() -> None:
    # 234567s234567p: 喜相逢 234, 喜相逢 567, 连六 s, 连六 p form a cycle; 套算一次 counts three.
    counted = fans("234567s234567p5m", "5m")
    assert counted["喜相逢"] + counted["连六"] == 3
    assert counted == Counter({"门前清": 1, "平和": 1, "断幺": 1, "喜相逢": 2, "连六": 1, "独听・单钓": 1})


def test_a_set_cannot_form_the_same_fan_twice() -> None:
    # 234s223344567p: 234s makes 喜相逢 with either 234p but may count it once (不得相同).
    assert fans("234s223344567p1m", "1m") == Counter(
        {"门前清": 1, "平和": 1, "一般高": 1, "喜相逢": 1, "连六": 1, "独听・单钓": 1}
    )


def test_sets_of_a_combination_are_not_split_to_form_more() -> None:
    # 一色四步高 123 345 567 789: the first and last chow are 老少副, but 不拆移 forbids it.
    assert fans("1233455677899p", "9p", SELF_DRAW)["老少副"] == 0


def test_pure_shifted_chows_and_a_short_straight_beside_them() -> None:
    # The rule book: 123 234 345 + 567, 只计一色三步高×1, [234p] [567p] 可加计连六.
    assert fans("12334567p11z", "5p", SELF_DRAW, "chi:234p") == Counter(
        {"一色三步高": 1, "混一色": 1, "连六": 1, "自摸": 1}
    )


def test_pungs_used_by_wind_and_dragon_fans_score_no_terminal_pung() -> None:
    north_north = WinContext(winner=0, dealer=0, discarder=1, round_wind=NORTH, seat_wind=NORTH)
    # 三风刻 holds E S W: none of the three is a 幺九刻; the 99m pung is.
    assert fans("99m55p333z", "9m", SELF_DRAW._replace(round_wind=NORTH, seat_wind=NORTH), "pon:111z", "pon:222z") == (
        Counter({"三风刻": 1, "碰碰和": 1, "双暗刻": 1, "幺九刻": 1, "缺一门": 1, "自摸": 1})
    )
    # One pung is both round and seat wind: 圈风刻 and 门风刻, no 幺九刻.
    counted = fans("234567m66789s44z", "4z", north_north)
    assert (counted["圈风刻"], counted["门风刻"], counted["幺九刻"]) == (1, 1, 0)


def test_seat_wind_follows_the_seats_unless_given() -> None:
    west_seat = WinContext(winner=2, dealer=0, discarder=1)
    assert fans("123m456p789s11m33z", "3z", west_seat)["门风刻"] == 1
    assert fans("123m456p789s11m33z", "3z", west_seat._replace(seat_wind=SOUTH))["门风刻"] == 0
    assert fans("123m456p789s11m33z", "3z", west_seat._replace(round_wind=WEST))["圈风刻"] == 1


# --------------------------------------------------------------------------- concealed pungs and kongs


def test_a_pung_completed_by_a_discard_is_not_concealed() -> None:
    # 11m + 1m from a discard completes the pung: only 222p and 333s stay concealed.
    assert fans("11m222p333s456s77s", "1m")["双暗刻"] == 1
    assert fans("11m222p333s456s77s", "1m", SELF_DRAW)["三暗刻"] == 1


def test_a_discard_that_also_fits_a_chow_leaves_the_pung_concealed() -> None:
    # The rule book's 三暗刻 example: 1156667m222s888p, 6m from a discard; 6m reads as 567m.
    assert fans("1156667m222s888p", "6m")["三暗刻"] == 1


def test_kongs_and_concealed_pungs() -> None:
    # One melded and one concealed kong: 明暗杠 (5), not 明杠 + 暗杠.
    counted = fans("56m111s33z", "7m", DISCARD, "open_kan:1111z", "closed_kan:2222z")
    assert counted["明暗杠"] == 1 and counted["明杠"] == counted["暗杠"] == 0
    # Two concealed kongs: 双暗杠, which does not count 双暗刻 (a third concealed pung makes 三暗刻).
    assert fans("6789p", "9p", DISCARD, "closed_kan:5555z", "closed_kan:1111s", "chi:345m")["双暗刻"] == 0
    assert fans("6789p", "9p", DISCARD, "closed_kan:5555z", "closed_kan:1111s", "chi:345m")["双暗杠"] == 1


# --------------------------------------------------------------------------- waits


@pytest.mark.parametrize(
    ("concealed", "win", "wait"),
    [
        ("12s123m456m789m55p", "3s", "独听・边张"),
        ("1233s456m789m123p", "3s", "独听・边张"),  # 1233s waits 3s only: 12 + 33
        ("13m456m789p123s55p", "2m", "独听・嵌张"),
        ("123m456m789p123s4z", "4z", "独听・单钓"),
    ],
)
def test_a_unique_wait_scores_its_kind(concealed: str, win: str, wait: str) -> None:
    assert fans(concealed, win)[wait] == 1


@pytest.mark.parametrize(
    ("concealed", "win"),
    [
        ("5677999s123m456p", "8s"),  # waits 4s 7s 8s: 8s is no closed wait
        ("4444666s123m456p", "5s"),  # waits 4s (a fifth copy, counted formally) and 5s
        ("3456m123p456p789s", "3m"),  # waits 3m and 6m
    ],
)
def test_a_hand_waiting_on_several_tiles_scores_no_wait(concealed: str, win: str) -> None:
    counted = fans(concealed, win)
    assert not {"独听・边张", "独听・嵌张", "独听・单钓"} & set(counted)


# --------------------------------------------------------------------------- situations


def test_last_copy_needs_no_other_copy_held_and_follows_the_melds() -> None:
    assert fans("123p456p789s12m11p", "3m", DISCARD._replace(last_copy=True))["和绝张"] == 1
    assert fans("333m456p789s12m11p", "3m", DISCARD._replace(last_copy=True))["和绝张"] == 0
    # The winner's own pung shows the other three copies: the winning tile is the last.
    assert fans("67m678s66z", "8m", SELF_DRAW, "chi:123p", "pon:888m")["和绝张"] == 1


def test_situational_fans_replace_the_self_draw() -> None:
    last = fans("123456789m123p5s", "5s", SELF_DRAW._replace(last_tile=True))
    assert last["妙手回春"] == 1 and last["自摸"] == 0 and last["不求人"] == 1
    kong = fans("456789m123p5s", "5s", SELF_DRAW._replace(kong_replacement=True), "open_kan:1111m")
    assert kong["杠上开花"] == 1 and kong["自摸"] == 0
    robbed = fans("456789m11p46s", "5s", DISCARD._replace(robbed_kong=True, last_copy=True), "chi:123m")
    assert robbed["抢杠和"] == 1 and robbed["和绝张"] == 0
    assert fans("123456789m123p5s", "5s", DISCARD._replace(last_tile=True))["海底捞月"] == 1


def test_special_forms() -> None:
    assert fans("19m19s119p123456z", "7z", SELF_DRAW) == Counter({"十三幺": 1, "自摸": 1})
    assert fans("14m25s369p123456z", "7z", SELF_DRAW) == Counter({"七星不靠": 1, "自摸": 1})
    assert fans("369m25s147p23456z", "8s") == Counter({"全不靠": 1, "组合龙": 1})
    assert fans("258m1478s369p", "8s", DISCARD, "chi:234p") == Counter({"组合龙": 1, "平和": 1, "独听・单钓": 1})
    assert fans("2233455667788s", "4s") == Counter({"连七对": 1, "断幺": 1})
    assert fans("1112345678999m", "9m", SELF_DRAW) == Counter({"九莲宝灯": 1, "清龙": 1, "四归一": 1, "自摸": 1})


def test_the_reading_worth_more_counts() -> None:
    # Seven pairs (24 + 无字) beats 123m 123m 456p 456p 77s read as sets.
    assert fans("112233m445566p7s", "7s") == Counter({"七对": 1, "无字": 1})
    # 11223355778899p: 一色双龙会 (64, which does not count 七对 or 清一色) beats seven pairs.
    assert fans("1122335577889p", "9p") == Counter({"一色双龙会": 1, "门前清": 1})


def test_chicken_hand_when_nothing_else_counts() -> None:
    assert fans("56s678p33z", "7s", DISCARD, "chi:123m", "chi:345m") == Counter({"无番和": 1})


def test_count_fans_refuses_a_hand_that_does_not_win() -> None:
    with pytest.raises(NotAWinningHand):
        count_fans(hand_of("123456789m123p56s"), tile("6s"), DISCARD)


# --------------------------------------------------------------------------- score_mcr


def test_payments_on_a_discard_and_on_a_self_draw() -> None:
    hand = hand_of("123456789m123p55s")
    on_discard = score_mcr(hand, 8, MCR, WinContext(winner=1, dealer=0, discarder=3))
    assert on_discard.fan == 21 and on_discard.flowers == 0
    assert on_discard.per_payer == ((0, 8), (2, 8), (3, 29))
    assert on_discard.payments == (-8, 45, -8, -29) and sum(on_discard.payments) == 0
    drawn = score_mcr(hand, 8, MCR, WinContext(winner=2, dealer=0, flowers=3))
    assert drawn.fan == 23 and drawn.flowers == 3
    assert drawn.per_payer == ((0, 34), (1, 34), (3, 34)) and drawn.payments == (-34, -34, 102, -34)
    assert drawn.fans[-1] == Fan("Flower Tiles", "花牌", 1, 3)
    assert sum(f.fan * f.count for f in drawn.fans) == drawn.fan + drawn.flowers


def test_flowers_do_not_count_toward_the_floor() -> None:
    hand = hand_of("234567m345p22p", "chi:678s")
    assert fan_total(hand, 13, DISCARD) == 5 < MINIMUM_FAN
    with pytest.raises(BelowMinimumFan, match="worth 5 fans .* at least 8") as raised:
        score_mcr(hand, 13, MCR, DISCARD._replace(flowers=8))
    assert raised.value.code == "below_minimum_fan"


def test_exactly_eight_fans_win() -> None:
    result = score_mcr(hand_of("56s678p33z7s", "chi:123m", "chi:345m"), tile("7s"), MCR, DISCARD)
    assert result.fan == MINIMUM_FAN and result.fans == (Fan("Chicken Hand", "无番和", 8, 1),)


@pytest.mark.parametrize(
    ("hand", "win", "context", "field"),
    [
        ("123456789m123p55s", "5s", WinContext(winner=4, dealer=0), "winner"),
        ("123456789m123p55s", "5s", WinContext(winner=0, dealer=0, discarder=0), "discarder"),
        ("123456789m123p55s", "6s", DISCARD, "win_tile"),
        ("123456789m123p55s", "5s", DISCARD._replace(round_wind=31), "round_wind"),
        ("123456789m123p55s", "5s", DISCARD._replace(seat_wind=0), "seat_wind"),
        ("123456789m123p55s", "5s", DISCARD._replace(flowers=9), "flowers"),
        ("123456789m123p55s", "5s", DISCARD._replace(flowers=-1), "flowers"),
        ("123456789m123p55s", "5s", SELF_DRAW._replace(kong_replacement=True), "kong_replacement"),
        ("123456789m123p55s", "5s", DISCARD._replace(kong_replacement=True), "kong_replacement"),
        ("123456789m123p55s", "5s", SELF_DRAW._replace(robbed_kong=True), "robbed_kong"),
        ("123456789m123p55s", "5s", DISCARD._replace(robbed_kong=True), "robbed_kong"),
        ("123456789m123p55s", "2p", DISCARD._replace(robbed_kong=True, last_tile=True), "last_tile"),
        ("123456789m123p55s", "5s", DISCARD._replace(last_copy=True), "last_copy"),
    ],
)
def test_impossible_situations_name_their_field(hand: str, win: str, context: WinContext, field: str) -> None:
    with pytest.raises(InvalidWinContext) as raised:
        score_mcr(hand_of(hand), tile(win), MCR, context)
    assert raised.value.field == field


def test_score_mcr_checks_the_tile_count_and_the_shape() -> None:
    with pytest.raises(WrongTileCount):
        score_mcr(hand_of("123456789m123p5s"), tile("5s"), MCR, DISCARD)
    with pytest.raises(NotAWinningHand):
        score_mcr(hand_of("123456789m123p56s"), tile("6s"), MCR, DISCARD)


def test_fan_total_is_the_sum_of_count_fans_on_every_kind_of_hand() -> None:
    rng = random.Random(3)
    winds = (EAST, SOUTH, WEST, NORTH)
    for concealed, win in [
        ("123456789m123p55s", "5s"),
        ("111444888m888s55p", "5p"),
        ("19m19s119p1234567z", "7z"),
        ("22334455667788s", "4s"),
        ("11223355667788p", "8p"),
    ]:
        for round_wind, seat_wind, discarder in product(winds, winds, (None, 1)):
            context = WinContext(0, rng.randrange(4), discarder, round_wind=round_wind, seat_wind=seat_wind)
            hand = hand_of(concealed)
            counted = count_fans(hand, tile(win), context)
            assert fan_total(hand, tile(win), context) == sum(f.fan * f.count for f in counted)


# --------------------------------------------------------------------------- properties on random wins


@pytest.fixture(scope="module")
def random_wins() -> list[tuple[Hand, Tile, WinContext]]:
    from mcr_situations import situations

    return [(case.hand, case.win_tile, case.context) for case in situations(4242, 3000)]


def test_no_fan_is_counted_beside_a_fan_that_excludes_it(random_wins: list[tuple[Hand, Tile, WinContext]]) -> None:
    excluded_by = {FAN_TABLE[fan][1]: {FAN_TABLE[other][1] for other in others} for fan, others in _EXCLUDES}
    for hand, win_tile, context in random_wins:
        names = {f.chinese for f in count_fans(hand, win_tile, context)}
        for name in names & set(excluded_by):
            assert not names & excluded_by[name], (name, names)
        assert len(names & {"独听・边张", "独听・嵌张", "独听・单钓"}) <= 1
        assert "无番和" not in names or names == {"无番和"}


def test_payments_balance_and_the_floor_holds(random_wins: list[tuple[Hand, Tile, WinContext]]) -> None:
    scored = refused = 0
    for hand, win_tile, context in random_wins:
        try:
            result = score_mcr(hand, win_tile, MCR, context)
        except BelowMinimumFan:
            refused += 1
            assert fan_total(hand, win_tile, context) < MINIMUM_FAN
            continue
        scored += 1
        assert sum(result.payments) == 0 and result.fan >= MINIMUM_FAN
        assert result.payments[context.winner] == sum(pays for _, pays in result.per_payer)
        assert result.fan == fan_total(hand, win_tile, context)
    assert scored > 2000 and refused > 100


def test_robbing_a_kong_of_a_tile_the_winner_shows_in_a_meld_is_impossible() -> None:
    hand = hand_of("456789m11p46s5s", "chi:345s")
    with pytest.raises(InvalidWinContext) as raised:
        score_mcr(hand, tile("5s"), MCR, DISCARD._replace(robbed_kong=True))
    assert raised.value.field == "robbed_kong"
    # count_fans reads the flag as the rule book does: no 抢杠和.
    assert "抢杠和" not in fans("456789m11p46s", "5s", DISCARD._replace(robbed_kong=True), "chi:345s")

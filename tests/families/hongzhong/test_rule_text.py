"""One test per statement of the rule text (app/core/families/hongzhong/rules_text.py), each
quoting it. The hand tests use the text's defaults unless they name an option."""

from __future__ import annotations

import pytest

from app.core.errors import InvalidMeld
from app.core.families.hongzhong.options import HongzhongOptions
from app.core.families.hongzhong.play import (
    may_chi,
    may_discard,
    may_pon,
    may_rob_kong,
    may_win_on_discard,
    next_dealer,
    robbing_seat,
    tiles_kept_back,
)
from app.core.families.hongzhong.rules_text import RULE_TEXT, SOURCE
from app.core.families.hongzhong.scoring import (
    bird_count,
    birds_to_draw,
    counted_hits,
    is_bird_hit,
    kong_payments,
    score_hongzhong,
)
from app.core.families.hongzhong.shape import TILE_KINDS, HongzhongShape, hand_rules
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.tiles import RED, parse_mpsz
from app.core.value.scoring_context import InvalidWinContext, WinContext

TEXT = HongzhongOptions()
SELF_DRAW = WinContext(winner=0, dealer=0)


def hand(tiles: str, *melds: tuple[str, str]) -> Hand:
    return Hand.from_tiles(parse_mpsz(tiles), [Meld.of(kind, parse_mpsz(meld)) for kind, meld in melds])


def test_every_statement_has_a_test() -> None:
    """Each key of RULE_TEXT is quoted by one test of this module, and the source is the pinned page."""
    names = {name.removeprefix("test_") for name in globals() if name.startswith("test_")}
    assert set(RULE_TEXT) <= names
    assert "4bd76ef448fd1cdc00c93ce3674a8fb3562566bc" in SOURCE.url


def test_tiles() -> None:
    """红中麻将共112张牌：包括1-9饼、1-9条、1-9万各4张，外加4张红中。"""
    rules = hand_rules()
    assert rules.tile_total == 112
    assert TILE_KINDS == (*range(27), RED)
    assert set(rules.absent_tiles) == set(range(27, 33))


def test_wildcard() -> None:
    """红中麻将特色是以红中为万能牌又称‘百搭’牌: 红中 stands for any tile, in any group."""
    complete = parse_mpsz("123m456p789s11199s")
    shape = HongzhongShape()
    for index in range(len(complete)):
        replaced = [*complete[:index], RED, *complete[index + 1 :]]
        assert shape.is_win(Hand.from_tiles(replaced)), replaced
    # With melds: 1m 中 中 a set (1m1m1m or 1m2m3m) and 4m 中 the pair (4m4m).
    assert shape.is_win(hand("14m777z", ("pon", "222s"), ("pon", "333s"), ("pon", "444s")))
    assert not shape.is_win(hand("149m77z", ("pon", "222s"), ("pon", "333s"), ("pon", "444s")))


def test_no_chi() -> None:
    """打出的牌，其他玩家可进行碰、杠，下家不能吃"""
    assert hand_rules().chi_allowed is False
    assert may_chi(TEXT) is False
    assert may_pon(parse_mpsz("5m")[0], TEXT) is True
    with pytest.raises(InvalidMeld):
        score_hongzhong(hand("123m456p11s99s7z", ("chi", "789s")), 26, TEXT, SELF_DRAW)


def test_red_discard() -> None:
    """红中牌可打出，但不能辅助其他牌来碰、杠"""
    assert may_discard(RED, TEXT) is True
    assert may_discard(RED, HongzhongOptions(red_discardable=False)) is False
    assert may_pon(RED, TEXT) is False
    with pytest.raises(InvalidMeld):
        score_hongzhong(hand("123m456p789s11s", ("pon", "777z")), 18, TEXT, SELF_DRAW)


def test_shape() -> None:
    """胡牌时手里要有一个对子，剩余牌必须是‘一句话’或‘一坎牌’"""
    shape = HongzhongShape(HongzhongOptions(seven_pairs=False))
    assert shape.is_win(hand("123m456p789s11122s"))  # four sets and the pair 22s
    assert not shape.is_win(hand("123m456p789s11124s"))  # no way to a pair and four sets
    assert not shape.is_win(hand("1133557799m1199p"))  # pairs only: no sets (seven pairs is off here)


def test_four_red() -> None:
    """摸到四张红中，自动胡牌，胡牌后可正常奖码"""
    four = hand("147m258p369s17777z".replace("17777z", "1m7777z"))
    assert HongzhongShape().is_win(four)
    assert not HongzhongShape(HongzhongOptions(four_red_wins=False)).is_win(four)
    # 正常奖码: birds as for any hand holding 红中.
    result = score_hongzhong(four, RED, TEXT, SELF_DRAW, birds=parse_mpsz("5m6m"))
    assert result.form == "four_red"
    assert bird_count(TEXT, holds_red=True) == TEXT.birds
    assert result.hits == 1


def test_win_ways() -> None:
    """胡牌只能通过自摸和抢杠胡两种方式"""
    ready = hand("123m456p789s1199s")
    assert may_win_on_discard(ready, parse_mpsz("9s")[0], TEXT) is False
    with pytest.raises(InvalidWinContext) as refused:
        score_hongzhong(hand("123m456p789s11999s"), 26, TEXT, WinContext(winner=0, dealer=0, discarder=2))
    assert refused.value.field == "discarder"
    assert score_hongzhong(hand("123m456p789s11999s"), 26, TEXT, SELF_DRAW).payments == (6, -2, -2, -2)


def test_rob_kong() -> None:
    """A玩家选择公杠时，此时B玩家可胡这张牌且手中无红中时，则B玩家才可以选择‘抢杠胡’"""
    nine = parse_mpsz("9s")[0]
    assert may_rob_kong(hand("123m456p789s1199s"), nine, TEXT) is True
    assert may_rob_kong(hand("123m456p789s1199s7z"), nine, TEXT) is False  # holds a 红中
    robbed = WinContext(winner=1, dealer=0, discarder=0, robbed_kong=True)
    with pytest.raises(InvalidWinContext):
        score_hongzhong(hand("123m456p789s119s77z"), nine, TEXT, robbed)
    assert score_hongzhong(hand("123m456p789s11999s"), nine, TEXT, robbed).form == "regular"


def test_rob_kong_one_winner() -> None:
    """抢杠胡没有一炮通吃，以杠牌玩家下手顺序优先抢杠胡的玩家胡牌"""
    assert robbing_seat(0, [2, 3]) == 2
    assert robbing_seat(2, [1, 3]) == 3
    assert robbing_seat(3, [1, 2]) == 1
    assert robbing_seat(1, []) is None


def test_rob_kong_liability() -> None:
    """被抢杠胡的玩家包赔，包括胡牌后的奖码，但不包括当局胡牌前杠牌的输赢"""
    robbed = WinContext(winner=2, dealer=0, discarder=0, robbed_kong=True)
    # No 红中: four birds; 1m hits, the rest miss: 2 + 2 from each of three, all paid by seat 0.
    result = score_hongzhong(hand("123m456p789s11999s"), 26, TEXT, robbed, birds=parse_mpsz("1m2m3m4m"))
    assert result.share == 4
    assert result.payments == (-12, 0, 12, 0)
    assert result.per_payer == ((0, 12),)
    # Kongs made earlier in the hand are paid apart, as they were (the kong robbed never was one).
    assert kong_payments(MeldKind.CLOSED_KAN, 1, TEXT) == (-2, 6, -2, -2)


def test_seven_pairs() -> None:
    """可胡7对（创建房间时需勾选），胡7对时红中不能作为万能牌使用"""
    natural = hand("1133557799m11p77z")  # 77z: two 红中 as a plain pair
    wild = hand("1122334455m66p8s7z")  # would need 7z to stand for 8s
    assert HongzhongShape().is_win(natural)
    assert not HongzhongShape().is_win(wild)
    assert HongzhongShape(HongzhongOptions(wild_seven_pairs=True)).is_win(wild)
    assert not HongzhongShape(HongzhongOptions(seven_pairs=False)).is_win(natural)
    assert score_hongzhong(natural, RED, TEXT, SELF_DRAW).form == "seven_pairs"


def test_bird_count() -> None:
    """当胡牌玩家手中有红中时，奖码数为n；当胡牌玩家手中没有红中时，额外奖励两张码,即奖码数为n+2"""
    for birds in (2, 4, 6):
        options = HongzhongOptions(birds=birds)
        assert bird_count(options, holds_red=True) == birds
        assert bird_count(options, holds_red=False) == birds + 2
    with pytest.raises(InvalidWinContext) as refused:
        score_hongzhong(hand("123m456p789s1199s7z"), 26, TEXT, SELF_DRAW, birds=parse_mpsz("2m3m4m"))
    assert refused.value.field == "birds"
    assert score_hongzhong(hand("123m456p789s11999s"), 26, TEXT, SELF_DRAW, birds=parse_mpsz("2m3m4m6m")).hits == 4


def test_bird_short() -> None:
    """剩余牌数不够时，有几张奖几张"""
    assert birds_to_draw(TEXT, holds_red=False, wall_left=1) == 1
    assert birds_to_draw(TEXT, holds_red=False, wall_left=10) == 4
    assert birds_to_draw(TEXT, holds_red=True, wall_left=0) == 0
    # A win may be scored with fewer birds than asked when the wall ran short.
    assert score_hongzhong(hand("123m456p789s11999s"), 26, TEXT, SELF_DRAW, birds=parse_mpsz("5m")).hits == 1


@pytest.mark.parametrize("tile", TILE_KINDS)
def test_bird_hit(tile: int) -> None:
    """当奖码的牌面为红中,1,5,9时即为中码"""
    expected = tile == RED or tile % 9 in (0, 4, 8)
    assert all(is_bird_hit(tile, TEXT, winner=winner, dealer=0) == expected for winner in range(4))


def test_birds_kept() -> None:
    """创建房间时选择奖码m个，那么倒数第m+1张被摸后(最后一张不打出)，仍无人胡牌，则流局"""
    assert [tiles_kept_back(HongzhongOptions(birds=m)) for m in (2, 4, 6)] == [2, 4, 6]


def test_self_draw_pays() -> None:
    """自摸胡牌，赢每个玩家2*底分"""
    result = score_hongzhong(hand("123m456p789s1199s7z"), 26, TEXT, WinContext(winner=3, dealer=1))
    assert result.payments == (-2, -2, -2, 6)


def test_four_red_pays() -> None:
    """摸到四张红中胡牌，赢每个玩家2*底分 (喜分 off here: it is the next statement's)"""
    options = HongzhongOptions(four_red_bonus=0)
    result = score_hongzhong(hand("147m258p369s1m7777z"), RED, options, WinContext(winner=1, dealer=0))
    assert result.payments == (-2, 6, -2, -2)


def test_closed_kong_pays() -> None:
    """暗杠，赢每个玩家2*底分"""
    assert kong_payments(MeldKind.CLOSED_KAN, 2, TEXT) == (-2, -2, 6, -2)


def test_open_kong_pays() -> None:
    """别人放杠，赢放杠者3*底分"""
    assert kong_payments(MeldKind.OPEN_KAN, 2, TEXT, feeder=1) == (0, -3, 3, 0)


def test_added_kong_pays() -> None:
    """自己摸的明杠（公杠），三家出，赢每个玩家1*底分"""
    assert kong_payments(MeldKind.ADDED_KAN, 0, TEXT) == (3, -1, -1, -1)


def test_bird_pays() -> None:
    """每中一张码，赢每个玩家2*底分"""
    ready = hand("123m456p789s1199s7z")
    no_hit = score_hongzhong(ready, 26, HongzhongOptions(no_hit_counts_all=False), SELF_DRAW, birds=parse_mpsz("2m3m"))
    one_hit = score_hongzhong(ready, 26, TEXT, SELF_DRAW, birds=parse_mpsz("2m5m"))
    two_hits = score_hongzhong(ready, 26, TEXT, SELF_DRAW, birds=parse_mpsz("9p7z"))
    assert [r.share for r in (no_hit, one_hit, two_hits)] == [2, 4, 6]


def test_seven_pairs_pays() -> None:
    """胡七对，赢每个玩家2*底分"""
    result = score_hongzhong(hand("1133557799m11p77z"), RED, TEXT, SELF_DRAW)
    assert [(fan.name, fan.fan) for fan in result.fans][0] == ("qi_dui", 2)
    assert result.payments == (6, -2, -2, -2)


def test_four_red_bonus() -> None:
    """玩家胡牌时，手中有4张红中时，额外赢另外三家每家5*底分"""
    result = score_hongzhong(hand("147m258p369s1m7777z"), RED, TEXT, SELF_DRAW)
    assert ("xi_fen", 5) in [(fan.name, fan.fan) for fan in result.fans]
    assert result.payments == (21, -7, -7, -7)


def test_no_hit_all_hit() -> None:
    """如果一个都没中，则当全中处理"""
    assert counted_hits(parse_mpsz("2m3m6p7s"), TEXT, winner=0, dealer=0) == 4
    assert counted_hits(parse_mpsz("2m3m6p7s"), HongzhongOptions(no_hit_counts_all=False), winner=0, dealer=0) == 0
    assert counted_hits(parse_mpsz("2m5m6p7s"), TEXT, winner=0, dealer=0) == 1


def test_dealer() -> None:
    """上局胡牌的玩家为该局庄家，若本局和牌（流局），则由最后摸牌的人做庄"""
    assert next_dealer(3, last_drawer=1) == 3
    assert next_dealer(None, last_drawer=1) == 1

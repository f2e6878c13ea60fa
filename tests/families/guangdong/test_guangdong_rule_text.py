"""One test per statement of the rule texts (app/core/families/guangdong/rules_text.py), each
quoting its statement.  The main text: 星辰广东麻将's 推倒胡 page,
http://m.tsave.cn/game_dbCBg2OLVfOhgjMZ/art_JuKHgDTeB_ujgzccozY.html (2018-01-11); the fan list
(option ``fan_list``): maque.games' TuiDaoHu rule, https://maque.games/post/323/.
"""

from __future__ import annotations

import pytest

from app.core.errors import InvalidMeld
from app.core.families.guangdong.options import GhostMode, GuangdongOptions
from app.core.families.guangdong.payments import (
    horse_count,
    horse_hits,
    horse_seat,
    horse_share,
    kong_payments,
)
from app.core.families.guangdong.play import Claim, claims
from app.core.families.guangdong.rules_text import FAN_LIST_TEXT, RULE_TEXT, SOURCE
from app.core.families.guangdong.scoring import DiscardWinNotAllowed, TooManyHorses, score_guangdong
from app.core.families.guangdong.tiles import hand_rules
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.tiles import parse_mpsz, parse_tile
from app.core.value.scoring_context import WinContext

DEFAULT = GuangdongOptions()
NO_GHOST = GuangdongOptions(ghost=GhostMode.NONE)
WHITE_GHOST = GuangdongOptions(ghost=GhostMode.WHITE)
WHITE = parse_tile("5z")


def hand(text: str, *melds: tuple[str, str]) -> Hand:
    return Hand.from_tiles(parse_mpsz(text), [Meld.of(kind, parse_mpsz(tiles)) for kind, tiles in melds])


def self_draw(winner: int = 1, dealer: int = 0, **situation: object) -> WinContext:
    return WinContext(winner=winner, dealer=dealer, **situation)  # type: ignore[arg-type]


def test_every_statement_has_a_test():
    tested = {name.removeprefix("test_") for name in globals() if name.startswith("test_")}
    assert set(RULE_TEXT) <= tested, sorted(set(RULE_TEXT) - tested)
    assert set(FAN_LIST_TEXT) <= tested, sorted(set(FAN_LIST_TEXT) - tested)
    assert all(statement.source == SOURCE for statement in RULE_TEXT.values())


def test_self_draw_only():
    """只能自摸胡牌,不能胡其他家的牌: a discard cannot be won on (unless the room sets discard_wins)."""
    win = hand("123m456p789s111z55s")
    with pytest.raises(DiscardWinNotAllowed):
        score_guangdong(win, parse_tile("5s"), WinContext(winner=1, dealer=0, discarder=2), NO_GHOST, ghost=None)
    allowed = GuangdongOptions(ghost=GhostMode.NONE, discard_wins=True)
    score = score_guangdong(win, parse_tile("5s"), WinContext(winner=1, dealer=0, discarder=2), allowed, ghost=None)
    assert score.payments == (0, 1, -1, 0)
    assert not DEFAULT.discard_wins and Claim.DISCARD_WIN not in claims(DEFAULT)


def test_no_chi():
    """只能碰和杠,不能吃: no chi call; pon and kongs are declared."""
    assert not hand_rules(DEFAULT, WHITE).chi_allowed
    assert claims(DEFAULT) >= {Claim.PON, Claim.OPEN_KAN} and Claim.CHI not in claims(DEFAULT)
    with pytest.raises(InvalidMeld):
        score_guangdong(hand("456p789s111z55s", ("chi", "123m")), parse_tile("5s"), self_draw(), NO_GHOST, ghost=None)
    pon = score_guangdong(hand("456p789s111z55s", ("pon", "111m")), parse_tile("5s"), self_draw(), NO_GHOST, ghost=None)
    assert pon.payments == (-1, 3, -1, -1)


def test_tiles():
    """推倒胡的张数一共有136张牌: 136 tiles, no flowers by default."""
    assert DEFAULT.tile_total == 136 and not DEFAULT.flowers
    assert hand_rules(DEFAULT, WHITE).tile_total == 136


def test_concealed_kong():
    """暗杠:每个人2倍底分(2番): each other seat pays the declarer 2."""
    assert kong_payments(MeldKind.CLOSED_KAN, declarer=2, options=DEFAULT) == (-2, -2, 6, -2)


def test_exposed_kong():
    """点杠:放杠者3倍底分(3番): the seat that discarded the tile pays 3."""
    assert kong_payments(MeldKind.OPEN_KAN, declarer=0, options=DEFAULT, feeder=3) == (3, 0, 0, -3)


def test_added_kong():
    """补杠:每个人1倍底分(1番): each other seat pays 1."""
    assert kong_payments(MeldKind.ADDED_KAN, declarer=1, options=DEFAULT) == (-1, 3, -1, -1)


@pytest.mark.parametrize(
    "text",
    [
        "123m456p789s111z55s",  # sets and a pair
        "11223344556677z",  # seven pairs
        "19m19p19s12345677z",  # thirteen orphans
        "11112345678999m",  # one suit
        "111m222p333s444z55z",  # four pungs
    ],
)
def test_ping_hu(text):
    """普通自摸胡牌都叫平胡,算1番;(无论胡型): every shape is a 平胡 of 1, from each payer."""
    win = hand(text)
    score = score_guangdong(win, parse_tile(text[-2:]), self_draw(), NO_GHOST, ghost=None)
    assert [fan.name for fan in score.fans] == ["ping_hu"]
    assert score.hand_points == 1 and score.payments == (-1, 3, -1, -1)


def test_wu_gui():
    """无鬼:X2,胡牌时手中无鬼牌: a win holding no ghost doubles; one holding a ghost does not."""
    without = score_guangdong(hand("123m456p789s111z55s"), parse_tile("5s"), self_draw(), WHITE_GHOST, ghost=WHITE)
    assert [fan.name for fan in without.fans] == ["ping_hu", "wu_gui"] and without.hand_points == 2
    with_one = score_guangdong(hand("123m456p789s111z5s5z"), parse_tile("5s"), self_draw(), WHITE_GHOST, ghost=WHITE)
    assert [fan.name for fan in with_one.fans] == ["ping_hu"] and with_one.hand_points == 1
    # A room without ghosts has no 无鬼 to count.
    plain = score_guangdong(hand("123m456p789s111z55s"), parse_tile("5s"), self_draw(), NO_GHOST, ghost=None)
    assert plain.hand_points == 1


def test_gang_kai():
    """杠开:X2: a self-draw on a kong's replacement doubles."""
    win = hand("123m456p789s55s", ("closed_kan", "1111z"))
    score = score_guangdong(win, parse_tile("5s"), self_draw(kong_replacement=True), NO_GHOST, ghost=None)
    assert [fan.name for fan in score.fans] == ["ping_hu", "gang_kai"] and score.hand_points == 2
    assert score.payments == (-2, 6, -2, -2)


def test_si_gui():
    """满鬼:6番,手上有4张鬼牌,可直接胡牌: four ghosts win at once, whatever the rest, worth 6."""
    four = hand("159m159p159s1z5555z")  # nothing but the ghosts fits
    assert Checker(hand_rules(WHITE_GHOST, WHITE)).is_win(four)  # the held form: nothing else fits
    score = score_guangdong(four, WHITE, self_draw(), WHITE_GHOST, ghost=WHITE)
    assert [fan.name for fan in score.fans] == ["si_gui"] and score.hand_points == 6
    assert score.payments == (-6, 18, -6, -6)


def test_qiang_gang():
    """抢杠:算抢杠者自摸,被抢杠者包牌: robbing a kong is the robber's self-draw, and the robbed
    seat pays all three shares (even in a self-draw-only room)."""
    win = hand("123m456p789s111z55s")
    robbed = WinContext(winner=1, dealer=0, discarder=3, robbed_kong=True)
    score = score_guangdong(win, parse_tile("5s"), robbed, NO_GHOST, ghost=None)
    assert score.payments == (0, 3, 0, -3) and score.liable == 3
    assert [fan.name for fan in score.fans] == ["ping_hu", "qiang_gang"]
    assert Claim.ROB_KONG in claims(DEFAULT)


def test_horses_after_hand():
    """打完一盘后,推倒胡要从剩余的牌中进行抓马操作: the horses are drawn after the win, so they
    are given with the finished hand, as many as that hand draws and no more."""
    win = hand("123m456p789s111z5s5z")  # holds a ghost: four horses
    score = score_guangdong(win, parse_tile("5s"), self_draw(), WHITE_GHOST, ghost=WHITE, horses=parse_mpsz("2m6p1z3s"))
    assert score.horse_hits == 2
    with pytest.raises(TooManyHorses):
        score_guangdong(win, parse_tile("5s"), self_draw(), WHITE_GHOST, ghost=WHITE, horses=parse_mpsz("2m6p1z3s4s"))


def test_horse_count():
    """有鬼抓4马、无鬼抓6马: four horses for a winner holding a ghost, six for one holding none."""
    assert horse_count(DEFAULT, ghost=WHITE, ghosts_held=1) == 4
    assert horse_count(DEFAULT, ghost=WHITE, ghosts_held=0) == 6
    six = score_guangdong(
        hand("123m456p789s111z55s"),
        parse_tile("5s"),
        self_draw(),
        WHITE_GHOST,
        ghost=WHITE,
        horses=parse_mpsz("2m2m2m2m6p6p"),
    )
    assert six.horse_hits == 6


def _named(text: str, dealer: int) -> set[int]:
    return {horse_seat(tile, dealer) for tile in parse_mpsz(text)}


def test_horse_dealer():
    """庄家:数字(任意筒索万)1、5、9和东风: these name the dealer."""
    for dealer in range(4):
        assert _named("159m159p159s1z", dealer) == {dealer}


def test_horse_next():
    """下家:数字(任意筒索万)2、6、南风、红中: these name the dealer's next seat."""
    for dealer in range(4):
        assert _named("26m26p26s27z", dealer) == {(dealer + 1) % 4}


def test_horse_opposite():
    """对家:数字(任意筒索万)3、7、西风、发财: these name the seat across from the dealer."""
    for dealer in range(4):
        assert _named("37m37p37s36z", dealer) == {(dealer + 2) % 4}


def test_horse_previous():
    """上家:数字(任意筒索万)4、8、北风、白板: these name the seat before the dealer."""
    for dealer in range(4):
        assert _named("48m48p48s45z", dealer) == {(dealer + 3) % 4}


def test_ghost_wild():
    """可以当做其他万能牌使用: a ghost stands for any tile."""
    checker = Checker(hand_rules(WHITE_GHOST, WHITE))
    for text in ("123m456p789s111z5s5z", "123m456p789s11z55s5z", "12m456p789s111z55s5z", "1234567m55z111z22z"):
        assert checker.is_win(hand(text)), text
    assert not checker.is_win(hand("124m456p789s111z55s"))


def test_settlement():
    """平胡(1番)+马数*平胡番数+杠分的输赢: a payer pays the hand and the hand again per horse hit;
    the kongs are settled beside it."""
    win = hand("123m456p789s55s", ("closed_kan", "1111z"))
    score = score_guangdong(
        win, parse_tile("5s"), self_draw(winner=2, dealer=0), NO_GHOST, ghost=None, horses=parse_mpsz("3m7p2s5z")
    )
    assert score.horse_hits == horse_hits(parse_mpsz("3m7p2s5z"), seat=2, dealer=0) == 2
    assert score.share == horse_share(1, 2, NO_GHOST) == 3
    kong = kong_payments(MeldKind.CLOSED_KAN, declarer=2, options=NO_GHOST)
    total = [a + b for a, b in zip(score.payments, kong, strict=True)]
    assert total == [-5, -5, 15, -5]


LIST_ON = GuangdongOptions(ghost=GhostMode.NONE, fan_list=True)


def test_two_kinds():
    """There are two king of hands: Chicken Hand and Big Hand, worth 1 and 2 points respectively."""
    chicken = score_guangdong(hand("123m456p789s111z55s"), parse_tile("5s"), self_draw(), LIST_ON, ghost=None)
    big = score_guangdong(hand("11223344556677z"), parse_tile("7z"), self_draw(), LIST_ON, ghost=None)
    assert chicken.hand_points == 1 and big.hand_points == 2
    # Two big hands at once are still one big hand (a flush of seven pairs).
    both = score_guangdong(hand("11223344556699m"), parse_tile("9m"), self_draw(), LIST_ON, ghost=None)
    assert {fan.name for fan in both.fans} == {"qing_yi_se", "qi_dui"} and both.hand_points == 2


@pytest.mark.parametrize(
    ("name", "text", "melds", "situation"),
    [
        ("tian_hu", "123m456p789s111z55s", (), {"winner": 0, "dealer": 0, "first_turn": True}),
        ("di_hu", "123m456p789s111z55s", (), {"winner": 2, "dealer": 0, "first_turn": True}),
        ("qing_yi_se", "12345678999m", (("pon", "111m"),), {}),
        ("zi_yi_se", "11122233355z", (("pon", "777z"),), {}),
        ("si_an_ke", "111m222p333s444z55z", (), {}),
        (
            "si_gang",
            "55z",
            (("open_kan", "1111m"), ("closed_kan", "2222p"), ("added_kan", "3333s"), ("open_kan", "4444z")),
            {},
        ),
        ("da_san_yuan", "555666777z123m99p", (), {}),
        ("da_si_xi", "111222333z99p", (("pon", "444z"),), {}),
        ("xiao_si_xi", "111222333z44z", (("pon", "999m"),), {}),
        ("qi_dui", "11m22p33s44z5566z77z", (), {}),
        ("shi_san_yao", "19m19p19s12345677z", (), {}),
    ],
)
def test_big_hands(name, text, melds, situation):
    """Big Hand includes: bless of heaven, bless of earch, full flash, all honors, four concealed
    triplets, four kongs, big three dragons, big four winds, small four winds, seven pairs, and 13 orphans."""
    win = hand(text, *melds)
    context = WinContext(**({"winner": 1, "dealer": 0} | situation))
    score = score_guangdong(win, parse_tile(text[-2:]), context, LIST_ON, ghost=None)
    assert name in [fan.name for fan in score.fans], score.fans
    assert score.hand_points == 2
    off = score_guangdong(win, parse_tile(text[-2:]), context, NO_GHOST, ghost=None)
    assert [fan.name for fan in off.fans] == ["ping_hu"]

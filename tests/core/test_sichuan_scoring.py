"""Sichuan scoring (app/core/value/sichuan_scoring.py) against an oracle written here from the
rule text, the rule text's own statements, and hand-computed checks with explicit options.

The rule text (docs/sichuan.md): the 血战到底 rule screen of the scmj client in
QuiQiJingFeng/M2_CLIENT, cocosstudio/games/scmj/landscape/GameRuleLayer.csd,
https://github.com/QuiQiJingFeng/M2_CLIENT/blob/260b9d781931bc4641d7aa97a0319d60d5b558f5/cocosstudio/games/scmj/landscape/GameRuleLayer.csd
It states each pattern as a multiplier (x1 .. x256): the oracle below keeps those
multipliers as written and takes their base-2 logarithm, so that a slip in the scorer's own
fan table shows.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sichuan_deals import Deal, random_deal, random_situation

from app.core.errors import NotAWinningHand, VoidSuitHeld, WrongTileCount
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import RuleProfile, rule_profile
from app.core.shape.tiles import parse_mpsz
from app.core.value.scoring import score
from app.core.value.scoring_context import InvalidWinContext, WinContext
from app.core.value.sichuan_scoring import RULE_TEXT, SichuanScore, score_sichuan

SOURCE = (
    "https://github.com/QuiQiJingFeng/M2_CLIENT/blob/260b9d781931bc4641d7aa97a0319d60d5b558f5/"
    "cocosstudio/games/scmj/landscape/GameRuleLayer.csd"
)
SICHUAN = rule_profile("sichuan")

# --- the oracle -------------------------------------------------------------------------

#: The rule text's 基本番 as it writes them: multiplier, and 根 the pattern already counts.
TEXT_PATTERNS: dict[str, tuple[int, int]] = {
    "ping_hu": (1, 0),  # 【平胡】x1
    "dui_dui_hu": (2, 0),  # 【对对胡】x2
    "qing_yi_se": (4, 0),  # 【清一色】x4
    "dai_yao_jiu": (4, 0),  # 【带幺九】x4
    "qi_dui": (4, 0),  # 【七对】x4
    "jin_gou_diao": (4, 0),  # 【金钩钓】x4
    "qing_dui": (8, 0),  # 【清对】x8
    "jiang_dui": (8, 0),  # 将对：由2/5/8组成的对对胡，x8
    "long_qi_dui": (16, 1),  # 【龙七对】x16 ... 同时减1根
    "qing_qi_dui": (16, 0),  # 【清七对】x16
    "qing_yao_jiu": (16, 0),  # 【清幺九】x16
    "jiang_jin_gou_diao": (16, 0),  # 【将金钩钓】x16
    "qing_jin_gou_diao": (16, 0),  # 【清金钩钓】x16
    "tian_hu": (32, 0),  # 【天胡】x32
    "di_hu": (32, 0),  # 【地胡】x32
    "qing_long_qi_dui": (32, 1),  # 【清龙七对】x32 ... 算番时减1根
    "shi_ba_luo_han": (64, 4),  # 【十八罗汉】x64 ... 不计4根
    "qing_shi_ba_luo_han": (256, 4),  # 【清十八罗汉】x256 ... 4根
}


def _suit(tile: int) -> int:
    return tile // 9


def _number(tile: int) -> int:
    return tile % 9 + 1


def _regular_readings(counts: list[int], pair: int | None = None) -> Iterator[tuple[int, list[tuple[int, ...]]]]:
    """Every way to split ``counts`` into one pair and sets (pungs and chows within a suit)."""
    first = next((tile for tile in range(27) if counts[tile]), None)
    if first is None:
        if pair is not None:
            yield pair, []
        return
    if pair is None and counts[first] >= 2:
        counts[first] -= 2
        yield from _regular_readings(counts, first)
        counts[first] += 2
    if counts[first] >= 3:
        counts[first] -= 3
        for found_pair, sets in _regular_readings(counts, pair):
            yield found_pair, [(first,) * 3, *sets]
        counts[first] += 3
    if first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for tile in (first, first + 1, first + 2):
            counts[tile] -= 1
        for found_pair, sets in _regular_readings(counts, pair):
            yield found_pair, [(first, first + 1, first + 2), *sets]
        for tile in (first, first + 1, first + 2):
            counts[tile] += 1


def oracle_patterns(concealed: list[int], melds: list[tuple[str, int]]) -> set[str]:
    """Every pattern any reading makes, from the text's definitions."""
    everything = Counter(concealed) + Counter(tile for kind, tile in melds for _ in range(4 if "kan" in kind else 3))
    pure = len({_suit(tile) for tile in everything}) == 1
    all_258 = all(_number(tile) in (2, 5, 8) for tile in everything)
    counts = [0] * 27
    for tile in concealed:
        counts[tile] += 1
    found: set[str] = set()
    for pair, sets in _regular_readings(counts):
        groups = sets + [(tile,) * 3 for _, tile in melds]
        if len(groups) != 4:
            continue
        pungs = all(len(set(group)) == 1 for group in groups)
        terminals = _number(pair) in (1, 9) and all(any(_number(t) in (1, 9) for t in group) for group in groups)
        golden = len(melds) == 4  # 其他牌都被用作碰牌、杠牌；手牌只剩下唯一的一张牌
        found.add("ping_hu")
        if pungs:
            found.add("dui_dui_hu")
        if pure:
            found.add("qing_yi_se")
        if terminals:
            found.add("dai_yao_jiu")
        if golden:
            found.add("jin_gou_diao")
        if pure and pungs:
            found.add("qing_dui")
        if pungs and all_258:
            found.add("jiang_dui")
        if pure and terminals:
            found.add("qing_yao_jiu")
        if golden and all_258:
            found.add("jiang_jin_gou_diao")
        if golden and pure:
            found.add("qing_jin_gou_diao")
        if golden and all("kan" in kind for kind, _ in melds):
            found.add("shi_ba_luo_han")
            if pure:
                found.add("qing_shi_ba_luo_han")
    held = Counter(concealed)
    if not melds and len(concealed) == 14 and all(count % 2 == 0 for count in held.values()):
        found.add("qi_dui")
        quad = any(count == 4 for count in held.values())
        if pure:
            found.add("qing_qi_dui")
        if quad:
            found.add("long_qi_dui")
        if pure and quad:
            found.add("qing_long_qi_dui")
    return found


class Expected(NamedTuple):
    fan: int
    best_patterns: set[str]
    per_payer: dict[int, int]


def oracle(
    concealed: list[int], melds: list[tuple[str, int]], rules: RuleProfile, context: WinContext
) -> Expected | None:
    """What the text says the win is worth and who pays; None when it is no win."""
    patterns = oracle_patterns(concealed, melds)
    if not patterns:
        return None
    everything = Counter(concealed) + Counter(tile for kind, tile in melds for _ in range(4 if "kan" in kind else 3))
    gens = sum(1 for count in everything.values() if count == 4)
    self_draw = context.discarder is None
    as_discard = self_draw and context.kong_feeder is not None and rules.kong_flower == "discard"
    if context.first_turn and rules.heaven_earth:
        patterns.add("tian_hu" if context.winner == context.dealer else "di_hu")
    extras = (
        int(context.kong_replacement)
        + int(context.after_kong)
        + int(context.robbed_kong)
        + int(self_draw and not as_discard and rules.self_draw_bonus == "fan")
    )
    if rules.menqing_duanyao:
        extras += int(self_draw and not as_discard and not melds)
        extras += int(all(_number(tile) not in (1, 9) for tile in everything))

    def fans_of(name: str) -> int:
        multiplier, absorbed = TEXT_PATTERNS[name]
        return int(math.log2(multiplier)) + max(0, gens - absorbed) + extras

    fan = max(fans_of(name) for name in patterns)
    best = {name for name in patterns if fans_of(name) == fan}
    each = 2 ** min(fan, rules.max_fan)
    seats = range(4) if context.in_hand is None else context.in_hand
    if not self_draw:
        assert context.discarder is not None
        per_payer = {context.discarder: each}
    elif as_discard:
        assert context.kong_feeder is not None
        per_payer = {context.kong_feeder: each}
    else:
        bonus = 1 if rules.self_draw_bonus == "base" else 0
        per_payer = {seat: each + bonus for seat in seats if seat != context.winner}
    return Expected(fan, best, per_payer)


def check_against_oracle(deal: Deal, win_tile: int, rules: RuleProfile, context: WinContext) -> SichuanScore:
    expected = oracle(deal.concealed, deal.melds, rules, context)
    assert expected is not None, deal
    result = score_sichuan(deal.hand(), win_tile, rules, context)
    assert result.fan == expected.fan, (deal, context, result.fans)
    assert result.fan == sum(f.fan * f.count for f in result.fans)
    assert result.fans[0].name in expected.best_patterns, (deal, result.fans, expected.best_patterns)
    assert dict(result.per_payer) == expected.per_payer, (deal, context, result)
    assert result.multiplier == 2 ** min(expected.fan, rules.max_fan)
    assert sum(result.payments) == 0
    return result


def test_the_scorer_agrees_with_the_oracle_on_thousands_of_random_wins() -> None:
    rng = random.Random(20251204)
    seen: Counter[str] = Counter()
    for _ in range(4000):
        deal = random_deal(rng)
        win_tile, rules, context = random_situation(rng, deal)
        seen[check_against_oracle(deal, win_tile, rules, context).fans[0].name] += 1
    # The random hands reach every hand pattern (heaven and earth through first_turn).
    assert set(seen) == set(TEXT_PATTERNS), seen


def test_the_oracle_reaches_the_rare_golden_hook_of_258() -> None:
    deal = Deal(parse_mpsz("88p"), [("pon", 1), ("open_kan", 4), ("pon", 7), ("closed_kan", 10)])
    result = check_against_oracle(deal, 16, SICHUAN, WinContext(winner=0, dealer=0, discarder=1))
    assert result.fans[0].name == "jiang_jin_gou_diao"


def test_the_oracle_and_the_scorer_refuse_the_same_incomplete_hands() -> None:
    rng = random.Random(7)
    for _ in range(500):
        deal = random_deal(rng)
        spoiled = list(deal.concealed)
        spoiled[rng.randrange(len(spoiled))] = rng.choice([tile for tile in range(27) if spoiled.count(tile) < 3])
        spoiled.sort()
        try:
            hand = Hand.from_tiles(spoiled, deal.hand().melds)
        except ValueError:
            continue
        context = WinContext(winner=0, dealer=0, discarder=1)
        suits = {tile // 9 for tile in spoiled} | {tile // 9 for _, tile in deal.melds}
        expected = oracle(spoiled, deal.melds, SICHUAN, context)
        if expected is None or len(suits) == 3:
            with pytest.raises(NotAWinningHand):
                score_sichuan(hand, spoiled[0], SICHUAN, context)
        else:
            assert score_sichuan(hand, spoiled[0], SICHUAN, context).fan == expected.fan


# --- properties ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_payments_sum_to_zero_and_the_multiplier_is_capped(seed: int) -> None:
    rng = random.Random(seed)
    deal = random_deal(rng)
    win_tile, rules, context = random_situation(rng, deal)
    result = score_sichuan(deal.hand(), win_tile, rules, context)
    assert sum(result.payments) == 0
    assert result.multiplier == 2 ** min(result.fan, rules.max_fan)
    assert result.payments[context.winner] == sum(pays for _, pays in result.per_payer) > 0
    assert all(seat != context.winner and pays > 0 for seat, pays in result.per_payer)
    if context.in_hand is not None:
        assert {seat for seat, _ in result.per_payer} <= set(context.in_hand)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(0, 2))
def test_a_hand_holding_its_void_suit_never_wins(seed: int, void_suit: int) -> None:
    rng = random.Random(seed)
    deal = random_deal(rng)
    held = {tile // 9 for tile in deal.concealed} | {tile // 9 for _, tile in deal.melds}
    win_tile, rules, context = random_situation(rng, deal)
    context = context._replace(void_suit=void_suit)
    if void_suit in held:
        with pytest.raises(VoidSuitHeld) as refused:
            score_sichuan(deal.hand(), win_tile, rules, context)
        assert refused.value.code == "void_suit_held"
    else:
        assert score_sichuan(deal.hand(), win_tile, rules, context).fan >= 0


# --- the rule text's statements, one hand each --------------------------------------------


def _score(
    text: str, win: str, melds: tuple[tuple[str, str], ...] = (), rules: RuleProfile = SICHUAN, **situation: Any
) -> SichuanScore:
    hand = Hand.from_tiles(parse_mpsz(text), [Meld.of(kind, parse_mpsz(tiles)) for kind, tiles in melds])
    context = WinContext(**({"winner": 0, "dealer": 0, "discarder": 1} | situation))
    return score_sichuan(hand, parse_mpsz(win)[0], rules, context)


def _named(result: SichuanScore) -> list[tuple[str, int, int]]:
    return [(f.name, f.fan, f.count) for f in result.fans]


# Each case: the text's words (from SOURCE, section 二、基本番型 unless noted), a hand that
# meets them, and the multiplier the text writes.  On a discard with no 根, the discarder
# pays exactly that multiplier.
TEXT_EXAMPLES = [
    ("【平胡】x1，四坎牌加一对将。", "123m456m789m234p55p", "5p", (), "ping_hu", 1),
    ("【对对胡】x2，四副刻字加一对将。", "111m333m777p999p55p", "5p", (), "dui_dui_hu", 2),
    ("【清一色】x4，玩家和牌的手牌全部都是一门花色。", "123456789m12355m", "5m", (), "qing_yi_se", 4),
    (
        "【带幺九】x4，玩家手牌中，全部是用1的连牌或者9的连牌组成的牌。",
        "123m789m111p789p99p",
        "9p",
        (),
        "dai_yao_jiu",
        4,
    ),
    ("【七对】x4，玩家的手牌全部是两张一对的，没有碰过和杠过。", "1133557799m2244p", "4p", (), "qi_dui", 4),
    (
        "【金钩钓】x4，玩家和牌时，其他牌都被用作碰牌、杠牌；手牌只剩下唯一的一张牌，不计对对胡。",
        "99p",
        "9p",
        (("pon", "111m"), ("pon", "333m"), ("pon", "777p"), ("pon", "444p")),
        "jin_gou_diao",
        4,
    ),
    ("【清对】x8，清一色的对对胡。", "111m333m666m999m22m", "2m", (), "qing_dui", 8),
    ("将对：由2/5/8组成的对对胡，x8（不计对对胡） (四、房间规则)", "222m555m888m222p55p", "5p", (), "jiang_dui", 8),
    (
        "【龙七对】x16，...并且有四张牌是一样的，叫龙七对。不再计七对，同时减1根。",
        "1111m335577m2244p",
        "4p",
        (),
        "long_qi_dui",
        16,
    ),
    ("【清七对】x16，玩家手上的牌是清一色的七对。不计清一色、七对。", "11335577992288m", "8m", (), "qing_qi_dui", 16),
    ("【清幺九】x16，清一色的幺九。", "123123123789m99m", "9m", (), "qing_yao_jiu", 16),
    (
        "【将金钩钓】x16，指金钩钓里手牌、碰牌、杠牌的牌必现是2、5、8。不计将对、金钩钓、对对胡。",
        "88p",
        "8p",
        (("pon", "222m"), ("pon", "555m"), ("pon", "888m"), ("pon", "555p")),
        "jiang_jin_gou_diao",
        16,
    ),
    (
        "【清金钩钓】x16，指金钩钓听牌时，胡牌时的牌型都为同一花色。不计清一色、金钩钓、对对胡。",
        "99s",
        "9s",
        (("pon", "111s"), ("pon", "333s"), ("pon", "555s"), ("pon", "777s")),
        "qing_jin_gou_diao",
        16,
    ),
    (
        "【清龙七对】x32，玩家手牌是清一色的龙七时，叫清龙七对。算番时减1根。",
        "11113355779922m",
        "2m",
        (),
        "qing_long_qi_dui",
        32,
    ),
    (
        "【十八罗汉】x64，在金钩钓里，若有四个杠...不计4根、金钩钓、对对胡。",
        "99p",
        "9p",
        (("open_kan", "1111m"), ("closed_kan", "3333m"), ("added_kan", "7777p"), ("open_kan", "4444p")),
        "shi_ba_luo_han",
        64,
    ),
    (
        "【清十八罗汉】x256，清一色的十八罗汉。不计清一色、金钩钓、对对胡、4根。",
        "99s",
        "9s",
        (("open_kan", "1111s"), ("closed_kan", "3333s"), ("added_kan", "5555s"), ("open_kan", "7777s")),
        "qing_shi_ba_luo_han",
        256,
    ),
]


@pytest.mark.parametrize(
    ("words", "hand", "win", "melds", "name", "multiplier"), TEXT_EXAMPLES, ids=[c[4] for c in TEXT_EXAMPLES]
)
def test_each_pattern_of_the_text_pays_its_multiplier(
    words: str, hand: str, win: str, melds: tuple[tuple[str, str], ...], name: str, multiplier: int
) -> None:
    uncapped = rule_profile("sichuan", max_fan=13)
    result = _score(hand, win, melds, uncapped)
    assert _named(result) == [(name, int(math.log2(multiplier)), 1)], words
    assert result.per_payer == ((1, multiplier),), words
    assert result.payments == (multiplier, -multiplier, 0, 0)


def test_heaven_and_earth_pay_x32() -> None:
    """【天胡】x32，打牌的过程中，庄家第一次摸完牌后，就胡牌 / 【地胡】x32，非庄家 ... 第一轮摸牌后就胡牌."""
    heaven = _score(
        "123m456m789m234p55p",
        "5p",
        discarder=None,
        first_turn=True,
        rules=rule_profile("sichuan", self_draw_bonus="fan"),
    )
    assert _named(heaven) == [("tian_hu", 5, 1), ("zi_mo", 1, 1)]
    earth = _score("123m456m789m234p55p", "5p", winner=2, discarder=None, first_turn=True)
    assert _named(earth)[0] == ("di_hu", 5, 1)
    with pytest.raises(InvalidWinContext):
        _score("123m456m789m234p55p", "5p", winner=2, first_turn=True)  # a discard is no first draw
    off = _score(
        "123m456m789m234p55p", "5p", discarder=None, first_turn=True, rules=rule_profile("sichuan", heaven_earth=False)
    )
    assert _named(off)[0] == ("ping_hu", 0, 1)


def test_only_the_largest_pattern_counts() -> None:
    """基本番：不重复计算，只计最大番型 — 天胡 (x32) over 清七对 (x16), not both."""
    result = _score("11335577992288m", "8m", discarder=None, first_turn=True)
    assert _named(result)[:1] == [("tian_hu", 5, 1)]
    assert result.fan == 5


def test_gen_is_four_of_a_kind_held_or_melded() -> None:
    """根，1番，手牌中有4张一样的牌即为1根: 1111m used as 111m + 123m, and a kong."""
    result = _score("1111m23m55m789p", "5m", (("open_kan", "4444p"),))
    assert _named(result) == [("ping_hu", 0, 1), ("gen", 1, 2)]
    assert result.per_payer == ((1, 4),)


def test_dragon_seven_pairs_count_a_second_quad_as_gen() -> None:
    """龙七对 ... 同时减1根: two quads, one taken by 龙七对, the other a 根."""
    result = _score("11113333m5577p99p", "9p")
    assert _named(result) == [("long_qi_dui", 4, 1), ("gen", 1, 1)]


def test_situational_fans_are_one_fan_each() -> None:
    """另加番：杠上花，1番 / 杠上炮，1番 / 抢杠胡，1番."""
    flower = _score("123m456m234p55p", "5p", (("open_kan", "9999m"),), discarder=None, kong_replacement=True)
    assert _named(flower) == [("ping_hu", 0, 1), ("gen", 1, 1), ("gang_shang_hua", 1, 1), ("zi_mo", 0, 1)]
    assert flower.per_payer == ((1, 5), (2, 5), (3, 5))  # 2**2 and one base a payer for the self-draw
    cannon = _score("123m456m789m234p55p", "5p", after_kong=True)
    assert _named(cannon) == [("ping_hu", 0, 1), ("gang_shang_pao", 1, 1)]
    robbed = _score("123m456m789m234p55p", "5p", robbed_kong=True)
    assert _named(robbed) == [("ping_hu", 0, 1), ("qiang_gang_hu", 1, 1)]


def test_kong_flower_fed_by_a_discard_pays_as_the_room_chose() -> None:
    """四、房间规则 3: 点杠花当自摸，则B按照自摸赢三家。点杠花当炮，则B按照点炮赢一家。"""
    melds = (("open_kan", "9999m"),)
    as_self_draw = _score("123m456m234p55p", "5p", melds, discarder=None, kong_replacement=True, kong_feeder=2)
    assert as_self_draw.per_payer == ((1, 5), (2, 5), (3, 5))
    as_discard = _score(
        "123m456m234p55p",
        "5p",
        melds,
        rule_profile("sichuan", kong_flower="discard"),
        discarder=None,
        kong_replacement=True,
        kong_feeder=2,
    )
    assert as_discard.per_payer == ((2, 4),)
    assert _named(as_discard) == [("ping_hu", 0, 1), ("gen", 1, 1), ("gang_shang_hua", 1, 1)]


def test_self_draw_mode_adds_a_base_or_a_fan() -> None:
    """四、房间规则 2: 可选择自摸模式：自摸不加倍、自摸+1倍或自摸乘2倍 (base: +1; fan: x2)."""
    base = _score("111m333m777p999p55p", "5p", discarder=None)
    assert base.per_payer == ((1, 3), (2, 3), (3, 3))  # 对对胡 x2, +1 each
    doubled = _score("111m333m777p999p55p", "5p", rules=rule_profile("sichuan", self_draw_bonus="fan"), discarder=None)
    assert doubled.per_payer == ((1, 4), (2, 4), (3, 4))
    assert doubled.payments == (12, -4, -4, -4)


def test_menqing_and_duanyao_when_the_room_opens_them() -> None:
    """四、房间规则 (2) 3、【门清】胡牌时没有碰杠，自摸胡牌，则额外x2倍。4、【断幺九】胡牌时，没有1、9，则额外x2倍。"""
    opened = rule_profile("sichuan", menqing_duanyao=True)
    closed_self_draw = _score("234m456m678m345p55p", "5p", rules=opened, discarder=None)
    assert _named(closed_self_draw) == [("ping_hu", 0, 1), ("zi_mo", 0, 1), ("men_qing", 1, 1), ("duan_yao", 1, 1)]
    assert closed_self_draw.per_payer == ((1, 5), (2, 5), (3, 5))
    on_a_discard = _score("234m456m678m345p55p", "5p", rules=opened)
    assert _named(on_a_discard) == [("ping_hu", 0, 1), ("duan_yao", 1, 1)]
    with_a_pon = _score("234m345m345p55p", "5p", (("pon", "777m"),), opened, discarder=None)
    assert [f.name for f in with_a_pon.fans] == ["ping_hu", "zi_mo", "duan_yao"]


# --- hand-computed checks with explicit options ---------------------------------------------


def test_hand_computed_payments_with_explicit_options() -> None:
    # 清对 (3) + 根 for the 1111m kong (1) = 4 fans; capped at 3: 8 a payer.
    hand = ("333m666m999m22m", "2m", (("open_kan", "1111m"),))
    capped = _score(*hand, rule_profile("sichuan", max_fan=3), discarder=3)
    assert (capped.fan, capped.multiplier, capped.payments) == (4, 8, (8, 0, 0, -8))
    # The same self-drawn with two seats still in (seat 1 has won): each pays 8 + 1 base.
    drawn = _score(*hand, rule_profile("sichuan", max_fan=3), discarder=None, in_hand=(0, 2, 3))
    assert drawn.payments == (18, 0, -9, -9)
    # 自摸加番: 5 fans, capped at 4: 16 a payer; uncapped (13): 32.
    fan_mode = _score(*hand, rule_profile("sichuan", max_fan=4, self_draw_bonus="fan"), discarder=None)
    assert (fan_mode.fan, fan_mode.multiplier, fan_mode.payments) == (5, 16, (48, -16, -16, -16))
    wide = _score(*hand, rule_profile("sichuan", max_fan=13, self_draw_bonus="fan"), discarder=None)
    assert wide.payments == (96, -32, -32, -32)
    # 门清/断幺九 open: a closed all-simples self-draw, 对对胡 1 + 门清 1 + 断幺九 1 + 自摸加底.
    simple = _score(
        "222m444m666m333p55p", "5p", rules=rule_profile("sichuan", menqing_duanyao=True, max_fan=2), discarder=None
    )
    assert (simple.fan, simple.multiplier, simple.per_payer) == (3, 4, ((1, 5), (2, 5), (3, 5)))


def test_the_default_options_follow_the_text() -> None:
    assert "M2_CLIENT" in RULE_TEXT and SOURCE in RULE_TEXT
    # 查花猪：花猪赔给非花猪玩家封顶倍数（x64）: the cap is x64, 6 fans.
    assert (SICHUAN.max_fan, SICHUAN.self_draw_bonus, SICHUAN.kong_flower) == (6, "base", "self_draw")
    assert (SICHUAN.heaven_earth, SICHUAN.menqing_duanyao, SICHUAN.exchange_three, SICHUAN.bloody_river) == (
        True,
        False,
        True,
        False,
    )


# --- refusals ----------------------------------------------------------------------------------


def test_refusals() -> None:
    with pytest.raises(VoidSuitHeld):
        _score("123m456m789m234p55p", "5p", void_suit=1)
    with pytest.raises(NotAWinningHand):
        _score("123m456m789s234p55p", "5p")  # three suits: 缺一门 is not met
    with pytest.raises(NotAWinningHand):
        _score("123m456m789m234p56p", "5p")
    with pytest.raises(WrongTileCount):
        _score("123m456m789m55p", "5p")
    with pytest.raises(InvalidWinContext):
        _score("123m456m789m234p55p", "5p", kong_replacement=True, discarder=None)  # no kong
    with pytest.raises(InvalidWinContext):
        _score("123m456m789m234p55p", "5p", after_kong=True, discarder=None)
    with pytest.raises(InvalidWinContext):
        _score("123m456m789m234p55p", "5p", in_hand=(0, 2, 3))  # the discarder has left
    with pytest.raises(InvalidWinContext):
        _score(
            "123m456m234p55p", "5p", (("closed_kan", "9999m"),), discarder=None, kong_replacement=True, kong_feeder=2
        )
    with pytest.raises(InvalidWinContext):
        _score("123m456m789m234p55p", "5p", void_suit=3)
    with pytest.raises(ValueError, match="chi"):
        _score("456m789m234p55p", "5p", (("chi", "123m"),))


def test_score_dispatches_sichuan() -> None:
    hand = Hand.from_tiles(parse_mpsz("111m333m777p999p55p"))
    result = score(hand, parse_mpsz("5p")[0], SICHUAN, WinContext(winner=0, dealer=0, discarder=1))
    assert isinstance(result, SichuanScore) and result.fan == 1

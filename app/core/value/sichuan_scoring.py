"""Sichuan bloody rules (血战到底 / 血流成河): the fan table, 根, the cap and who pays.

The fan table follows one published rule screen (docs/sichuan.md names it and its options):
a win counts exactly one hand pattern (基本番, "不重复计算，只计最大番型": the largest that
applies, not a sum), then one fan for each 根 and each situational fan, and pays
``2 ** min(fan, max_fan)`` base points per payer.

========================  ======  ==============================================================
pattern                   fan     what
========================  ======  ==============================================================
平胡 ping_hu              0       four sets and a pair
对对胡 dui_dui_hu         1       four pungs (or kongs) and a pair
清一色 qing_yi_se         2       one suit
带幺九 dai_yao_jiu        2       every set and the pair hold a 1 or a 9
七对 qi_dui               2       seven pairs, no melds
金钩钓 jin_gou_diao       2       four melded pungs/kongs, the pair waited on alone
清对 qing_dui             3       清一色 对对胡
将对 jiang_dui            3       对对胡 of 2s, 5s and 8s only
龙七对 long_qi_dui        4       七对 holding four of a kind (that quad is not also a 根)
清七对 qing_qi_dui        4       清一色 七对
清幺九 qing_yao_jiu       4       清一色 带幺九
将金钩钓                  4       金钩钓 of 2s, 5s and 8s only
清金钩钓                  4       清一色 金钩钓
天胡 / 地胡               5       the dealer's / another seat's win on its first draw
清龙七对                  5       清一色 龙七对 (its quad is not also a 根)
十八罗汉                  6       金钩钓 with four kongs (the four are not also 根)
清十八罗汉                8       清一色 十八罗汉
========================  ======  ==============================================================

根 (gen): one fan per kind of which the hand holds all four copies, concealed or melded,
kong or not.  Situational fans, one each: 杠上花 (a self-draw on a kong's replacement), 杠上炮
(a win on the discard made after a kong's replacement draw), 抢杠胡 (robbing an added kong),
自摸 (with ``self_draw_bonus="fan"``; with ``"base"`` it adds one base point per payer and no
fan), and with ``menqing_duanyao`` 门清 (no pon or kong, self-drawn) and 断幺九 (no 1 or 9).

A hand may be read several ways (111222333m as three pungs or three chows): the reading and
the pattern worth the most fans count.

>>> from app.core.shape.hand import Meld
>>> from app.core.shape.rules import rule_profile
>>> from app.core.shape.tiles import parse_mpsz
>>> hand = Hand.from_tiles(parse_mpsz("11123456789999m"))
>>> result = score_sichuan(hand, 8, rule_profile("sichuan"), WinContext(winner=0, dealer=0, discarder=2))
>>> [(f.name, f.fan, f.count) for f in result.fans], result.multiplier, result.payments
([('qing_yi_se', 2, 1), ('gen', 1, 1)], 8, (8, 0, -8, 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from app.core.errors import NotAWinningHand, VoidSuitHeld, WrongTileCount
from app.core.shape.decompose import regular_decompositions, seven_pairs_decompositions
from app.core.shape.hand import Hand, MeldKind
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import NUM_TILE_KINDS, Tile, counted, format_tile
from app.core.shape.void_suit import SUIT_NAMES
from app.core.value.mcr_scoring import Fan
from app.core.value.scoring_context import InvalidWinContext, WinContext, check_seats, check_win_tile

#: The published rule text the fan table and the option defaults follow (docs/sichuan.md).
RULE_TEXT: Final = (
    "血战到底 rule screen of the scmj (四川麻将) client in QuiQiJingFeng/M2_CLIENT, "
    "https://github.com/QuiQiJingFeng/M2_CLIENT/blob/260b9d781931bc4641d7aa97a0319d60d5b558f5/"
    "cocosstudio/games/scmj/landscape/GameRuleLayer.csd (see docs/sichuan.md)"
)
#: Fans a pattern or a situation is worth: (pinyin name, Chinese, fan).
PATTERNS: Final[dict[str, tuple[str, int]]] = {
    "ping_hu": ("平胡", 0),
    "dui_dui_hu": ("对对胡", 1),
    "qing_yi_se": ("清一色", 2),
    "dai_yao_jiu": ("带幺九", 2),
    "qi_dui": ("七对", 2),
    "jin_gou_diao": ("金钩钓", 2),
    "qing_dui": ("清对", 3),
    "jiang_dui": ("将对", 3),
    "long_qi_dui": ("龙七对", 4),
    "qing_qi_dui": ("清七对", 4),
    "qing_yao_jiu": ("清幺九", 4),
    "jiang_jin_gou_diao": ("将金钩钓", 4),
    "qing_jin_gou_diao": ("清金钩钓", 4),
    "tian_hu": ("天胡", 5),
    "di_hu": ("地胡", 5),
    "qing_long_qi_dui": ("清龙七对", 5),
    "shi_ba_luo_han": ("十八罗汉", 6),
    "qing_shi_ba_luo_han": ("清十八罗汉", 8),
}
#: The patterns of one suit (清一色 and the flushes built on it), for self-play's flush rate.
FLUSH_PATTERNS: Final = frozenset(
    {
        "qing_yi_se",
        "qing_dui",
        "qing_qi_dui",
        "qing_yao_jiu",
        "qing_jin_gou_diao",
        "qing_long_qi_dui",
        "qing_shi_ba_luo_han",
    }
)
EXTRAS: Final[dict[str, tuple[str, int]]] = {
    "gen": ("根", 1),
    "gang_shang_hua": ("杠上花", 1),
    "gang_shang_pao": ("杠上炮", 1),
    "qiang_gang_hu": ("抢杠胡", 1),
    "zi_mo": ("自摸", 1),
    "men_qing": ("门清", 1),
    "duan_yao": ("断幺九", 1),
}
#: 根 a pattern already counts in its own value (龙七对's quad, 十八罗汉's four kongs).
_GEN_ABSORBED: Final = {"long_qi_dui": 1, "qing_long_qi_dui": 1, "shi_ba_luo_han": 4, "qing_shi_ba_luo_han": 4}
_TERMINAL_NUMBERS: Final = frozenset({0, 8})
_JIANG_NUMBERS: Final = frozenset({1, 4, 7})  # 2, 5, 8
_FULL_CAPS: Final = bytes([4] * NUM_TILE_KINDS)


class SichuanScore(NamedTuple):
    """What a Sichuan win pays: net points per seat, who pays what, the fans and the multiplier."""

    payments: tuple[int, ...]
    per_payer: tuple[tuple[int, int], ...]
    #: The fans counted, before the cap.
    fan: int
    #: ``2 ** min(fan, max_fan)``: what each payer pays before a self-draw's extra base.
    multiplier: int
    #: The pattern, then 根, then the situational fans: MCR's :class:`Fan` with the pinyin name.
    fans: tuple[Fan, ...]


def hand_patterns(hand: Hand) -> list[str]:
    """Every pattern some reading of the complete ``hand`` (14 tiles, melds counted as 3) makes.

    Heaven and earth (天胡, 地胡) depend on the situation and are not listed.

    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand_patterns(Hand.from_tiles(parse_mpsz("11122233399m999p")))  # pungs, or chows with 1s
    ['ping_hu', 'dui_dui_hu', 'dai_yao_jiu']
    """
    everything = hand.all_counts()
    suits = {tile // 9 for tile, count in enumerate(everything) if count}
    pure = len(suits) == 1
    all_jiang = all(tile % 9 in _JIANG_NUMBERS for tile, count in enumerate(everything) if count)
    meld_sets = [meld.tiles[:3] for meld in hand.melds]
    golden_hook = len(hand.melds) == 4
    found: set[str] = set()
    readings, _ = regular_decompositions(hand.counts, _FULL_CAPS, (), 1 << 16)
    for reading in readings:
        assert reading.pair is not None
        sets = list(reading.melds) + meld_sets
        pungs = all(group[0] == group[-1] for group in sets)
        terminal_everywhere = reading.pair % 9 in _TERMINAL_NUMBERS and all(
            any(tile % 9 in _TERMINAL_NUMBERS for tile in group) for group in sets
        )
        found.add("ping_hu")
        if pure:
            found.add("qing_yi_se")
        if pungs:
            found.add("dui_dui_hu")
            if pure:
                found.add("qing_dui")
            if all_jiang:
                found.add("jiang_dui")
        if terminal_everywhere:
            found.add("dai_yao_jiu")
            if pure:
                found.add("qing_yao_jiu")
        if golden_hook:
            found.add("jin_gou_diao")
            if all_jiang:
                found.add("jiang_jin_gou_diao")
            if pure:
                found.add("qing_jin_gou_diao")
            if all(meld.kind.size == 4 for meld in hand.melds):
                found.add("qing_shi_ba_luo_han" if pure else "shi_ba_luo_han")
    if not hand.melds and hand.tile_count == 14:
        pairs, _ = seven_pairs_decompositions(hand.counts, (), quad_as_two=True, limit=1)
        if pairs:
            quads = any(count == 4 for count in hand.counts)
            found.add("qi_dui")
            if pure:
                found.add("qing_qi_dui")
            if quads:
                found.add("qing_long_qi_dui" if pure else "long_qi_dui")
    return sorted(found, key=list(PATTERNS).index)


def gen_count(hand: Hand) -> int:
    """根: the kinds of which the hand holds all four copies, concealed or melded.

    >>> from app.core.shape.hand import Meld
    >>> from app.core.shape.tiles import parse_mpsz
    >>> gen_count(Hand.from_tiles(parse_mpsz("1111m23m55p"), [Meld.of("pon", [9, 9, 9])]))
    1
    """
    return sum(1 for count in hand.all_counts() if count == 4)


def check_sichuan_hand(hand: Hand, rules: RuleProfile, void_suit: int | None) -> None:
    """Raise for a hand Sichuan rules cannot score: tiles the set lacks, chi melds, a wrong
    tile count, a tile of the void suit (:class:`VoidSuitHeld`) or, with no void suit
    declared, tiles of all three suits (:class:`NotAWinningHand`: 缺一门 is not met).
    """
    rules.check_tiles_exist((tile for tile, count in enumerate(hand.counts) if count), field="hand")
    for index, meld in enumerate(hand.melds):
        rules.check_meld_allowed(meld.kind, field=f"melds[{index}].kind")
        rules.check_tiles_exist(meld.tiles, field=f"melds[{index}].tiles")
    if hand.tile_count + 3 * len(hand.melds) != 14:
        raise WrongTileCount(
            f"a winning hand has 14 tiles with each meld counted as 3; got {hand.tile_count} concealed "
            f"with {counted(len(hand.melds), 'meld')}",
            field="hand",
        )
    everything = hand.all_counts()
    if void_suit is not None:
        held = [tile for tile in range(9 * void_suit, 9 * void_suit + 9) if everything[tile]]
        if held:
            raise VoidSuitHeld(
                f"the hand holds {''.join(format_tile(tile) for tile in held)} of its void suit "
                f"{SUIT_NAMES[void_suit]}; a hand wins only without its void suit (定缺)",
                field="hand" if any(hand.counts[tile] for tile in held) else "melds",
            )
    elif len({tile // 9 for tile, count in enumerate(everything) if count}) > 2:
        raise NotAWinningHand(
            "the hand holds tiles of all three suits; a Sichuan hand wins only without one suit (缺一门)",
            field="hand",
        )


def _check_context(hand: Hand, win_tile: Tile, rules: RuleProfile, context: WinContext) -> tuple[int, ...]:
    """Validate the situation; return the seats still in the hand."""
    check_seats(context, rules.seats)
    check_win_tile(hand.counts, win_tile)
    if context.void_suit is not None and not (type(context.void_suit) is int and 0 <= context.void_suit <= 2):
        raise InvalidWinContext(
            f"void_suit must be 0 (m), 1 (p) or 2 (s), got {context.void_suit!r}", field="void_suit"
        )
    in_hand = tuple(range(rules.seats)) if context.in_hand is None else tuple(context.in_hand)
    if len(set(in_hand)) != len(in_hand) or any(not (type(s) is int and 0 <= s < rules.seats) for s in in_hand):
        raise InvalidWinContext(f"in_hand must list distinct seats 0..{rules.seats - 1}", field="in_hand")
    if context.winner not in in_hand:
        raise InvalidWinContext("the winner must be among the seats still in the hand", field="in_hand")
    if context.discarder is not None and context.discarder not in in_hand:
        raise InvalidWinContext("the discarder must be among the seats still in the hand", field="in_hand")
    if context.kong_replacement and not any(meld.kind.size == 4 for meld in hand.melds):
        raise InvalidWinContext("kong_replacement needs a kong among the winner's melds", field="kong_replacement")
    if context.after_kong and context.discarder is None:
        raise InvalidWinContext("after_kong (杠上炮) is a win on a discard: discarder is needed", field="after_kong")
    if context.after_kong and context.robbed_kong:
        raise InvalidWinContext("a robbed kong is not a discard made after a kong", field="after_kong")
    feeder = context.kong_feeder
    if feeder is not None:
        if not (type(feeder) is int and 0 <= feeder < rules.seats) or feeder == context.winner:
            raise InvalidWinContext(f"kong_feeder must be another seat 0..{rules.seats - 1}", field="kong_feeder")
        if not context.kong_replacement:
            raise InvalidWinContext("kong_feeder names who fed a kong the winner drew after", field="kong_feeder")
        if not any(meld.kind is MeldKind.OPEN_KAN for meld in hand.melds):
            raise InvalidWinContext("kong_feeder needs an open kong among the winner's melds", field="kong_feeder")
        if feeder not in in_hand:
            raise InvalidWinContext("kong_feeder must be among the seats still in the hand", field="in_hand")
    if context.first_turn and context.discarder is not None:
        # The rule text's 天胡 and 地胡 are both wins on a seat's first draw (地胡: 第一轮摸牌后就胡牌).
        raise InvalidWinContext("a first-turn win (天胡, 地胡) is a self-draw on the first draw", field="first_turn")
    return in_hand


def _fan(name: str, count: int = 1) -> Fan:
    chinese, value = PATTERNS[name] if name in PATTERNS else EXTRAS[name]
    return Fan(name, chinese, value, count)


def _situational(hand: Hand, rules: RuleProfile, context: WinContext, self_draw: bool) -> list[Fan]:
    extras: list[Fan] = []
    if context.kong_replacement:
        extras.append(_fan("gang_shang_hua"))
    if context.after_kong:
        extras.append(_fan("gang_shang_pao"))
    if context.robbed_kong:
        extras.append(_fan("qiang_gang_hu"))
    if self_draw:
        extras.append(_fan("zi_mo") if rules.self_draw_bonus == "fan" else Fan("zi_mo", "自摸", 0, 1))
    if rules.menqing_duanyao:
        if self_draw and not hand.melds:
            extras.append(_fan("men_qing"))
        if not any(count and tile % 9 in _TERMINAL_NUMBERS for tile, count in enumerate(hand.all_counts())):
            extras.append(_fan("duan_yao"))
    return extras


def best_fans(hand: Hand, patterns: Sequence[str], extras: Sequence[Fan]) -> tuple[Fan, ...]:
    """The fans of the best pattern among ``patterns`` with its 根 and the ``extras``.

    The pattern worth the most fans once its own 根 are set aside counts (on a tie the larger
    pattern); 根 a pattern does not absorb are listed after it, then the extras.
    """
    gens = gen_count(hand)

    def total(name: str) -> tuple[int, int]:
        value = PATTERNS[name][1]
        return value + max(0, gens - _GEN_ABSORBED.get(name, 0)), value

    best = max(patterns, key=total)
    fans = [_fan(best)]
    left = max(0, gens - _GEN_ABSORBED.get(best, 0))
    if left:
        fans.append(_fan("gen", left))
    fans.extend(extras)
    return tuple(fans)


def score_sichuan(hand: Hand, win_tile: Tile, rules: RuleProfile, context: WinContext) -> SichuanScore:
    """Score a Sichuan win: the best pattern, 根, the situational fans, the cap and the payments.

    On a discard (or a robbed kong) the discarder pays; on a self-draw every other seat in
    ``context.in_hand`` pays, plus one base each with ``self_draw_bonus="base"``; a self-draw
    on the replacement of an open kong whose tile ``context.kong_feeder`` discarded pays, with
    ``kong_flower="discard"``, as a win on that seat's discard (no self-draw bonus).

    >>> from app.core.shape.hand import Meld
    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand = Hand.from_tiles(parse_mpsz("11123455567899p"))
    >>> result = score_sichuan(hand, 9, rule_profile("sichuan"), WinContext(winner=1, dealer=0))
    >>> [(f.name, f.fan) for f in result.fans], result.per_payer, result.payments
    ([('qing_yi_se', 2), ('zi_mo', 0)], ((0, 5), (2, 5), (3, 5)), (-5, 15, -5, -5))
    """
    in_hand = _check_context(hand, win_tile, rules, context)
    check_sichuan_hand(hand, rules, context.void_suit)
    patterns = hand_patterns(hand)
    if not patterns:
        raise NotAWinningHand(
            "the hand does not win under sichuan rules: not four sets and a pair nor seven pairs", field="hand"
        )
    self_draw = context.discarder is None
    feeder_pays = self_draw and context.kong_feeder is not None and rules.kong_flower == "discard"
    if context.first_turn and rules.heaven_earth:
        patterns = [*patterns, "tian_hu" if context.winner == context.dealer else "di_hu"]
    fans = best_fans(hand, patterns, _situational(hand, rules, context, self_draw and not feeder_pays))
    fan = sum(f.fan * f.count for f in fans)
    multiplier = 2 ** min(fan, rules.max_fan)
    if not self_draw:
        assert context.discarder is not None
        per_payer: tuple[tuple[int, int], ...] = ((context.discarder, multiplier),)
    elif feeder_pays:
        assert context.kong_feeder is not None
        per_payer = ((context.kong_feeder, multiplier),)
    else:
        owed = multiplier + (1 if rules.self_draw_bonus == "base" else 0)
        per_payer = tuple((seat, owed) for seat in sorted(in_hand) if seat != context.winner)
    payments = [0] * rules.seats
    for seat, pays in per_payer:
        payments[seat] -= pays
        payments[context.winner] += pays
    return SichuanScore(tuple(payments), per_payer, fan, multiplier, fans)

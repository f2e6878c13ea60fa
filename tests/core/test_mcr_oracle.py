"""Our MCR fans against PyMahjongGB 1.4.0 on 10,000 random wins.

Both sides get the same win (``mcr_situations``: every form, every meld kind,
flowers 0..8, every situational flag in the combinations that can happen, every
seat and round wind).  ``count_fans`` must list the same fans as PyMahjongGB,
each with the same value and count (flowers aside: ``count_fans`` leaves them
out, and ``score_mcr`` adds them as PyMahjongGB does).  Hands under 8 fans are
compared too: neither side has a floor in this question.

The comparison itself is checked: PyMahjongGB's own answers pass it, and
deliberately broken scorers (ours with a flag ignored, a meld misread, a
repeated fan counted once) are caught.
"""

from __future__ import annotations

import functools
import html
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Final

import pytest
from mcr_oracle import (
    FLOWER_NAME,
    Comparison,
    FanCounter,
    FanTable,
    compare,
    describe,
    fan_table,
    pymahjonggb_arguments,
    pymahjonggb_fans,
    total,
    without_flowers,
)
from mcr_situations import FORMS, WEIGHTS, Situation, situations

from app.core.errors import BelowMinimumFan
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import EAST, Tile, parse_mpsz
from app.core.value.mcr_scoring import FAN_TABLE, MINIMUM_FAN, check_mcr_context, count_fans, score_mcr
from app.core.value.scoring_context import WinContext

pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed (pip install -e '.[test]')")

SEED: Final = 12_000
COUNT: Final = 10_000
#: The share the self-checks use (the whole 10,000 compare in about 2 s: nothing here is slow).
QUICK: Final = 2_000
#: Each form, meld kind, flag, wind and flower count appears at least this often in the 10,000.
MIN_FEATURE: Final = 100
#: Each rarer combination (the last tile a kong's replacement, the last copy robbed or forced by one's own melds).
MIN_COMBINATION: Final = 20
#: Each of PyMahjongGB's fans appears at least this often in the 10,000.
MIN_FAN: Final = 10


@functools.cache
def _cases() -> tuple[Situation, ...]:
    return tuple(situations(SEED, COUNT))


@functools.cache
def _oracle() -> tuple[FanTable, ...]:
    return tuple(pymahjonggb_fans(s.hand, s.win_tile, s.context) for s in _cases())


def _failure(found: list[Comparison]) -> str:
    kinds = Counter(c.kind for c in found)
    lines = [f"{len(found)} disagreements in {len(kinds)} classes:"]
    for kind, count in kinds.most_common(10):
        example = next(c for c in found if c.kind == kind)
        case = example.situation
        lines.append(f"  {count} x {kind}\n    e.g. {describe(case.hand, case.win_tile, case.context)}")
    return "\n".join(lines)


# -- the generator against PyMahjongGB alone --


def test_pymahjonggb_accepts_every_situation_as_a_win() -> None:
    tables = _oracle()
    assert len(tables) == COUNT
    assert all(total(without_flowers(table)) >= 1 for table in tables)


def test_pymahjonggb_refuses_a_hand_that_is_not_a_win() -> None:
    """The acceptance above means something: PyMahjongGB raises on a non-winning hand."""
    hand = Hand.from_tiles([0, 1, 3, 9, 10, 11, 12, 13, 14, 18, 18, 18, 27, 28])
    with pytest.raises(TypeError, match="ERROR_NOT_WIN"):
        pymahjonggb_fans(hand, 28, WinContext(winner=0, dealer=0))


def test_situations_cover_every_form_meld_flag_wind_and_flower_count() -> None:
    seen: Counter[str] = Counter()
    for case in _cases():
        context = case.context
        seen[f"form {case.form}"] += 1
        seen.update(f"meld {meld.kind.value}" for meld in case.hand.melds)
        if case.form == "knitted_straight" and case.hand.melds:
            seen["knitted straight with a declared set"] += 1
        if case.form == "seven_pairs" and 4 in case.hand.counts:
            seen["seven pairs with a quad"] += 1
        seen["self-draw" if context.discarder is None else "discard"] += 1
        for flag in ("kong_replacement", "robbed_kong", "last_copy"):
            seen[flag] += getattr(context, flag)
        seen["last copy with a robbed kong"] += context.last_copy and context.robbed_kong
        shown = sum(meld.tiles.count(case.win_tile) for meld in case.hand.melds)
        seen["last copy shown three times in own melds"] += shown == 3
        if context.last_tile:
            seen["last tile, self-draw" if context.discarder is None else "last tile, discard"] += 1
            seen["last tile, kong replacement"] += context.kong_replacement
        seen["seat wind given" if context.seat_wind is not None else "seat wind derived"] += 1
        seen[f"seat {_seat(context)}"] += 1
        seen[f"round {context.round_wind}"] += 1
        seen[f"flowers {context.flowers}"] += 1
    wanted = [f"form {form}" for form in FORMS] + [f"meld {kind.value}" for kind in MeldKind]
    wanted += ["knitted straight with a declared set", "seven pairs with a quad", "self-draw", "discard"]
    wanted += ["kong_replacement", "robbed_kong", "last_copy", "last tile, self-draw", "last tile, discard"]
    wanted += ["seat wind given", "seat wind derived"] + [f"seat {w}" for w in range(EAST, EAST + 4)]
    wanted += [f"round {w}" for w in range(EAST, EAST + 4)] + [f"flowers {n}" for n in range(9)]
    assert {name: seen[name] for name in wanted if seen[name] < MIN_FEATURE} == {}
    combinations = [
        "last tile, kong replacement",
        "last copy with a robbed kong",
        "last copy shown three times in own melds",
    ]
    assert {name: seen[name] for name in combinations if seen[name] < MIN_COMBINATION} == {}


def _seat(context: WinContext) -> Tile:
    return context.seat_wind if context.seat_wind is not None else EAST + (context.winner - context.dealer) % 4


#: Every fan PyMahjongGB 1.4.0 can name: the 81 (花牌 among them) and its 5-fan 明暗杠.
PYMAHJONGGB_FANS: Final = (
    "大四喜 大三元 绿一色 九莲宝灯 四杠 连七对 十三幺 清幺九 小四喜 小三元 字一色 四暗刻 一色双龙会 一色四同顺 "
    "一色四节高 一色四步高 三杠 混幺九 七对 七星不靠 全双刻 清一色 一色三同顺 一色三节高 全大 全中 全小 清龙 "
    "三色双龙会 一色三步高 全带五 三同刻 三暗刻 全不靠 组合龙 大于五 小于五 三风刻 花龙 推不倒 三色三同顺 "
    "三色三节高 无番和 妙手回春 海底捞月 杠上开花 抢杠和 碰碰和 混一色 三色三步高 五门齐 全求人 双暗杠 双箭刻 "
    "全带幺 不求人 双明杠 和绝张 箭刻 圈风刻 门风刻 门前清 平和 四归一 双同刻 双暗刻 暗杠 断幺 一般高 喜相逢 "
    "连六 老少副 幺九刻 明杠 缺一门 无字 独听・边张 独听・嵌张 独听・单钓 自摸 花牌 明暗杠"
).split()


def test_situations_reach_every_fan() -> None:
    seen = Counter(name for table in _oracle() for name in table)
    assert len(PYMAHJONGGB_FANS) == 82
    assert {name: seen[name] for name in PYMAHJONGGB_FANS if seen[name] < MIN_FAN} == {}
    assert set(seen) <= set(PYMAHJONGGB_FANS)


def test_pymahjonggb_names_its_fans_as_we_do() -> None:
    """The tables are compared by Chinese name, so both libraries must spell all 82 alike."""
    assert {chinese for _name, chinese, _value in FAN_TABLE} == set(PYMAHJONGGB_FANS)


def test_every_situation_is_one_the_scorer_accepts() -> None:
    """The generator's flags are legal by the scorer's own check (seats, winds, flowers, kong and copy flags)."""
    for case in _cases():
        check_mcr_context(case.hand, case.win_tile, case.context)


def test_every_style_is_drawn() -> None:
    assert set(WEIGHTS) == {case.style for case in _cases()}


# -- our scorer against PyMahjongGB --


def test_count_fans_agrees_with_pymahjonggb_on_10000() -> None:
    found = compare(_cases(), count_fans)
    assert not found, _failure(found)


def test_score_mcr_adds_flowers_and_keeps_the_floor_as_pymahjonggb_counts() -> None:
    """``score_mcr`` against PyMahjongGB: the fans with 花牌 and the total, and the floor.

    At 8 fans or more the fans (花牌 included) and the total match PyMahjongGB's; under 8
    by PyMahjongGB's count (flowers not counted) ``score_mcr`` raises ``BelowMinimumFan``.
    """
    rules = rule_profile("mcr")
    checked = below = 0
    for case, theirs in zip(_cases(), _oracle(), strict=True):
        if total(without_flowers(theirs)) < MINIMUM_FAN:
            with pytest.raises(BelowMinimumFan):
                score_mcr(case.hand, case.win_tile, rules, case.context)
            below += 1
            continue
        score = score_mcr(case.hand, case.win_tile, rules, case.context)
        ours = {fan.chinese: (fan.fan, fan.count) for fan in score.fans}
        assert ours == theirs, describe(case.hand, case.win_tile, case.context)
        assert score.fan == total(without_flowers(theirs))
        assert score.flowers == theirs.get(FLOWER_NAME, (1, 0))[1]
        checked += 1
    assert checked > COUNT // 2 and below > COUNT // 20


# -- the comparison catches what it should --


def _echo(case_tables: dict[tuple[bytes, tuple[Meld, ...], Tile, WinContext], FanTable]) -> FanCounter:
    """A "scorer" that answers PyMahjongGB's own fans for the situations it was given."""

    def answer(hand: Hand, win_tile: Tile, context: WinContext) -> Iterable[tuple[str, str, int, int]]:
        table = case_tables[(hand.counts, hand.melds, win_tile, context)]
        return [("", name, value, count) for name, (value, count) in table.items()]

    return answer


def _echo_of_pymahjonggb(change: Callable[[FanTable], FanTable]) -> FanCounter:
    tables = {
        (case.hand.counts, case.hand.melds, case.win_tile, case.context): change(without_flowers(table))
        for case, table in zip(_cases()[:QUICK], _oracle(), strict=False)
    }
    return _echo(tables)


def _counted_once(table: FanTable) -> FanTable:
    return {name: (value, 1) for name, (value, _count) in table.items()}


def _without_self_draw(table: FanTable) -> FanTable:
    return {name: entry for name, entry in table.items() if name != "自摸"}


def test_comparison_passes_pymahjonggb_itself() -> None:
    assert compare(_cases()[:QUICK], _echo_of_pymahjonggb(dict)) == []


@pytest.mark.parametrize("change", [_counted_once, _without_self_draw], ids=["repeats_counted_once", "no_self_draw"])
def test_comparison_catches_a_wrong_fan_table(change: Callable[[FanTable], FanTable]) -> None:
    assert len(compare(_cases()[:QUICK], _echo_of_pymahjonggb(change))) >= 20


def _ignoring_last_copy(scorer: FanCounter) -> FanCounter:
    return lambda hand, win_tile, context: scorer(hand, win_tile, context._replace(last_copy=False))


def _added_kong_as_closed(scorer: FanCounter) -> FanCounter:
    def broken(hand: Hand, win_tile: Tile, context: WinContext) -> Iterable[tuple[str, str, int, int]]:
        melds = tuple(Meld(MeldKind.CLOSED_KAN, m.tiles) if m.kind is MeldKind.ADDED_KAN else m for m in hand.melds)
        return scorer(Hand(hand.counts, melds), win_tile, context)

    return broken


def _seat_wind_as_round_wind(scorer: FanCounter) -> FanCounter:
    return lambda hand, win_tile, context: scorer(hand, win_tile, context._replace(seat_wind=context.round_wind))


@pytest.mark.parametrize(
    "breaking",
    [_ignoring_last_copy, _added_kong_as_closed, _seat_wind_as_round_wind],
    ids=["last_copy_ignored", "added_kong_as_closed", "seat_wind_as_round_wind"],
)
def test_comparison_catches_a_broken_scorer(breaking: Callable[[FanCounter], FanCounter]) -> None:
    assert len(compare(_cases()[:QUICK], breaking(count_fans))) >= 10


def test_pymahjonggb_arguments_follow_its_conventions() -> None:
    """Dragons reversed (J1 中 is our Red), the winning tile left out of the hand, a closed kong offered by 0."""
    hand = Hand.from_tiles([9, 9, 31, 31, 31, 32, 32, 32], [Meld.of("closed_kan", [0] * 4), Meld.of("pon", [33] * 3)])
    packs, concealed, win, *_flags = pymahjonggb_arguments(hand, 31, WinContext(winner=0, dealer=0))
    assert packs == (("GANG", "W1", 0), ("PENG", "J1", 1))
    assert concealed == ("B1", "B1", "J3", "J3", "J2", "J2", "J2") and win == "J3"
    assert pymahjonggb_fans(hand, 31, WinContext(winner=0, dealer=0))["大三元"] == (88, 1)


# -- where the rule book's worked example and both calculators part --

TWO_TERMINAL_CHOWS_NOTE: Final = "所以上例只能算1个喜相逢（或者算2个喜相逢，那么就只能算1个老少副）"


def test_two_terminal_chows_example_reads_as_the_rule_text_allows(testdata: Path) -> None:
    """老少副's worked example: the book lists one reading, its note allows ours (PyMahjongGB's) too.

    Rule text (score_definition.xml, 老少副 Two Terminal Chows):

        【牌例】[123m]  [55789m12789s]自摸[3s]
        计：平和、喜相逢、老少副×2、缺一门、边张、自摸
        【注】1. 上例中的[123m]与[789m]构成老少副，[123s]与[789s]也构成老少副。
        2. 一般高、喜相逢、老少副、连六的计算需遵循「套算一次原则」，所以上例只能算1个喜相逢
        （或者算2个喜相逢，那么就只能算1个老少副）。

    Of the four pairings (two 老少副, two 喜相逢) the 套算一次 principle keeps three; the book
    keeps 老少副×2, PyMahjongGB and we keep 喜相逢×2.  Same total, and the note allows
    both, so this is no disagreement with the rule text (the only worked example where
    PyMahjongGB's fans differ from the book's 计 line).
    """
    rule_text = html.unescape((testdata / "mcr-fan-examples" / "score_definition.xml").read_text(encoding="utf-8"))
    assert TWO_TERMINAL_CHOWS_NOTE in rule_text
    hand = Hand.from_tiles(parse_mpsz("55789m123789s"), [Meld.of("chi", parse_mpsz("123m"))])
    context = WinContext(winner=1, dealer=0)
    ours = fan_table(count_fans(hand, parse_mpsz("3s")[0], context))
    assert ours == pymahjonggb_fans(hand, parse_mpsz("3s")[0], context)
    assert ours["喜相逢"] == (1, 2) and ours["老少副"] == (1, 1)
    book = {**ours, "喜相逢": (1, 1), "老少副": (1, 2)}
    assert total(book) == total(ours)

"""What a win was worth, in Tenhou's words, for the viewer: the table replays the game and scores it.

mjai events carry only the deltas of a win; Tenhou's viewer shows its fu, han, yaku and limit, and
the liable seat (pao). The writers ask :func:`hand_results` for them: the table machine plays the
log and scores each win with tenpai's riichi scoring. A log the table cannot follow gets none, and
the writers fall back to the points the deltas give. The readers never use any of this.

>>> [tenhou_yaku(name, han, seat_wind=1, round_wind=0) for name, han in [("riichi", 1), ("seat_wind", 1), ("dora", 2)]]
[(1, '立直(1飜)'), (11, '自風 南(1飜)'), (52, 'ドラ(2飜)')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from app.core.errors import TenpaiError
from app.core.shape.rules import rule_profile
from app.core.table.family import Family
from app.core.table.machine import HandResult, TableMachine
from app.core.value.riichi_scoring import RiichiScore

#: Tenhou's yaku numbers and names, by tenpai's yaku names (the winds are numbered by wind below).
_YAKU: Final = {
    "menzen_tsumo": (0, "門前清自摸和"),
    "riichi": (1, "立直"),
    "ippatsu": (2, "一発"),
    "chankan": (3, "槍槓"),
    "rinshan": (4, "嶺上開花"),
    "haitei": (5, "海底摸月"),
    "houtei": (6, "河底撈魚"),
    "pinfu": (7, "平和"),
    "tanyao": (8, "断幺九"),
    "iipeikou": (9, "一盃口"),
    "haku": (18, "役牌 白"),
    "hatsu": (19, "役牌 發"),
    "chun": (20, "役牌 中"),
    "double_riichi": (21, "両立直"),
    "chiitoitsu": (22, "七対子"),
    "chanta": (23, "混全帯幺九"),
    "ittsu": (24, "一気通貫"),
    "sanshoku": (25, "三色同順"),
    "sanshoku_doukou": (26, "三色同刻"),
    "sankantsu": (27, "三槓子"),
    "toitoi": (28, "対々和"),
    "sanankou": (29, "三暗刻"),
    "shousangen": (30, "小三元"),
    "honroutou": (31, "混老頭"),
    "ryanpeikou": (32, "二盃口"),
    "junchan": (33, "純全帯幺九"),
    "honitsu": (34, "混一色"),
    "chinitsu": (35, "清一色"),
    "tenhou": (37, "天和"),
    "chiihou": (38, "地和"),
    "daisangen": (39, "大三元"),
    "suuankou": (40, "四暗刻"),
    "suuankou_tanki": (41, "四暗刻単騎"),
    "tsuuiisou": (42, "字一色"),
    "ryuuiisou": (43, "緑一色"),
    "chinroutou": (44, "清老頭"),
    "chuuren": (45, "九蓮宝燈"),
    "junsei_chuuren": (46, "純正九蓮宝燈"),
    "kokushi": (47, "国士無双"),
    "kokushi_13": (48, "国士無双１３面"),
    "daisuushii": (49, "大四喜"),
    "shousuushii": (50, "小四喜"),
    "suukantsu": (51, "四槓子"),
    "dora": (52, "ドラ"),
    "ura_dora": (53, "裏ドラ"),
    "aka_dora": (54, "赤ドラ"),
    "nuki_dora": (52, "抜きドラ"),
}
_WINDS: Final = "東南西北"
#: Tenhou's limit number (the third value of an AGARI's ``ten``) and its name.
LIMITS: Final = {None: (0, ""), "mangan": (1, "満貫"), "haneman": (2, "跳満"), "baiman": (3, "倍満"),
                 "sanbaiman": (4, "三倍満"), "yakuman": (5, "役満")}  # fmt: skip


def tenhou_yaku(name: str, han: int, *, seat_wind: int, round_wind: int, yakuman: bool = False) -> tuple[int, str]:
    """Tenhou's number and text of one yaku (``seat_wind``/``round_wind`` 0-3 for the wind yaku)."""
    if name == "seat_wind":
        number, text = 10 + seat_wind, f"自風 {_WINDS[seat_wind]}"
    elif name == "round_wind":
        number, text = 14 + round_wind, f"場風 {_WINDS[round_wind]}"
    else:
        number, text = _YAKU.get(name, (-1, name))
    return number, f"{text}({'役満' if yakuman else f'{han}飜'})"


def hand_results(events: Sequence[Mapping[str, Any]], seats: int, family: Family) -> list[HandResult] | None:
    """Each hand's result as the table scores it, or None when the table cannot follow the log;
    ``family`` is the riichi family (Tenhou's formats carry riichi and sanma games)."""
    machine = TableMachine(rule_profile("riichi" if seats == 4 else "sanma"), family)
    try:
        for index, event in enumerate(events):
            machine.apply_object(event, index)
    except (TenpaiError, AssertionError, KeyError, IndexError, TypeError):
        return None
    return list(machine.results)


def win_score(result: HandResult | None, winner: int) -> RiichiScore | None:
    """The riichi score of ``winner``'s win in ``result``, if the table scored one."""
    if result is None:
        return None
    for win in result.wins:
        if win.winner == winner and isinstance(win.score, RiichiScore):
            return win.score
    return None


def liable_seat(result: HandResult | None, winner: int) -> int | None:
    """The seat liable (pao) for ``winner``'s win, if any."""
    if result is None:
        return None
    return next((win.liable for win in result.wins if win.winner == winner), None)


def honba_paid(honba: int, seats: int, *, ron: bool, first: bool) -> int:
    """The honba a win collects: 300 a honba (100 from each payer of a self-draw); none for the second
    winner of a double ron, as at Tenhou."""
    if not first:
        return 0
    return 100 * honba * (3 if ron else seats - 1)


def hand_value(score: RiichiScore, honba_points: int) -> int:
    """What the win is worth before honba and sticks (Tenhou's points in ``ten``)."""
    return sum(points for _, points in score.per_payer) - honba_points


def points_text(score: RiichiScore, value: int, *, dealer: bool, ron: bool, honba_points: int) -> str:
    """tenhou.net/6's line for a win's worth: ``30符1飜1000点``, ``満貫8000点``, ``700-1300点``, ``2000点∀``."""
    _, limit = LIMITS.get(score.limit, (0, ""))
    head = limit if limit else f"{score.fu}符{score.han}飜"
    if ron:
        return f"{head}{value}点"
    payments = sorted({points for _, points in score.per_payer})
    if dealer or len(payments) == 1:
        return f"{head}{payments[0] - honba_points // max(len(score.per_payer), 1)}点∀"
    return f"{head}{payments[0] - honba_points // len(score.per_payer)}-{payments[-1] - honba_points // len(score.per_payer)}点"


def yaku_list(score: RiichiScore, *, seat_wind: int, round_wind: int) -> list[tuple[int, int, str]]:
    """(Tenhou number, han, text) of every yaku of a win; a yakuman's han is 13 per yakuman."""
    han_of: dict[int, int] = {}
    text_of: dict[int, str] = {}
    for yaku in score.yaku:
        # Tenhou counts a north set aside (nuki dora) with the dora: one entry, the han added up.
        name = "dora" if yaku.name == "nuki_dora" else yaku.name
        number, _ = tenhou_yaku(name, yaku.han, seat_wind=seat_wind, round_wind=round_wind)
        han_of[number] = han_of.get(number, 0) + yaku.han
        _, text_of[number] = tenhou_yaku(
            name, han_of[number], seat_wind=seat_wind, round_wind=round_wind, yakuman=yaku.yakuman > 0
        )
    return [(number, han, text_of[number]) for number, han in han_of.items()]

"""The published rule texts the Guangdong 推倒胡 family follows, quoted statement by statement.

The rules follow **one** platform text, 星辰广东麻将's 推倒胡 page (:data:`SOURCE`): its rule
statements are quoted below, one short line each, and every one of them is a test
(``tests/families/guangdong/test_guangdong_rule_text.py``).  That text has no fan list (every win
is a 平胡 whatever its shape); the optional 推倒胡 fan list (``fan_list``) follows a second text,
maque.games' TuiDaoHu rule (:data:`FAN_LIST_SOURCE`), quoted the same way.  What both leave open
is an option of :class:`~app.core.families.guangdong.options.GuangdongOptions`, each with its
default and the reason for it.

>>> SOURCE.date, RULE_TEXT["wu_gui"].quote
('2018-01-11', '无鬼:X2,胡牌时手中无鬼牌')
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, NamedTuple


class RuleSource(NamedTuple):
    """Where a rule text was published: its address, its title and its date (None: undated)."""

    url: str
    title: str
    date: str | None


class RuleStatement(NamedTuple):
    """One statement of a rule text: the words quoted (a sentence or less) and the text they are from."""

    quote: str
    source: RuleSource


SOURCE: Final = RuleSource(
    "http://m.tsave.cn/game_dbCBg2OLVfOhgjMZ/art_JuKHgDTeB_ujgzccozY.html",
    "《星辰广东麻将》推倒胡规则和技巧详解",
    "2018-01-11",
)
"""The family's rule text: 星辰广东麻将's 推倒胡 rules page."""

FAN_LIST_SOURCE: Final = RuleSource("https://maque.games/post/323/", "TuiDaoHu Rule", None)
"""The text of the optional 推倒胡 fan list (the main text counts every shape as 平胡)."""


def _statements(source: RuleSource, quotes: Mapping[str, str]) -> Mapping[str, RuleStatement]:
    return MappingProxyType({key: RuleStatement(quote, source) for key, quote in quotes.items()})


RULE_TEXT: Final[Mapping[str, RuleStatement]] = _statements(
    SOURCE,
    {
        "self_draw_only": "只能自摸胡牌,不能胡其他家的牌",
        "no_chi": "只能碰和杠,不能吃",
        "tiles": "推倒胡的张数一共有136张牌",
        "concealed_kong": "暗杠:每个人2倍底分(2番)",
        "exposed_kong": "点杠:放杠者3倍底分(3番)",
        "added_kong": "补杠:每个人1倍底分(1番)",
        "ping_hu": "普通自摸胡牌都叫平胡,算1番;(无论胡型)",
        "wu_gui": "无鬼:X2,胡牌时手中无鬼牌",
        "gang_kai": "杠开:X2",
        "si_gui": "满鬼:6番,手上有4张鬼牌,可直接胡牌",
        "qiang_gang": "抢杠:算抢杠者自摸,被抢杠者包牌",
        "horses_after_hand": "打完一盘后,推倒胡要从剩余的牌中进行抓马操作",
        "horse_count": "有鬼抓4马、无鬼抓6马",
        "horse_dealer": "庄家:数字(任意筒索万)1、5、9和东风",
        "horse_next": "下家:数字(任意筒索万)2、6、南风、红中",
        "horse_opposite": "对家:数字(任意筒索万)3、7、西风、发财",
        "horse_previous": "上家:数字(任意筒索万)4、8、北风、白板",
        "ghost_wild": "可以当做其他万能牌使用",
        "settlement": "平胡(1番)+马数*平胡番数+杠分的输赢",
    },
)
"""The main text's statements, by key (each one is a test)."""

FAN_LIST_TEXT: Final[Mapping[str, RuleStatement]] = _statements(
    FAN_LIST_SOURCE,
    {
        "two_kinds": "There are two king of hands: Chicken Hand and Big Hand, worth 1 and 2 points respectively.",
        "big_hands": (
            "Big Hand includes: bless of heaven, bless of earch, full flash, all honors, four concealed "
            "triplets, four kongs, big three dragons, big four winds, small four winds, seven pairs, and 13 orphans."
        ),
    },
)
"""The fan list's statements (the option ``fan_list``), by key, quoted as written."""

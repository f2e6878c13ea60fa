"""The published rule text the hongzhong family follows, and the statements its tests quote.

The source is the 红中麻将 rule screen of the hzmj client of QuiQiJingFeng/M2_CLIENT: the
help page a player of that platform reads in the game (the same platform whose 血战到底
screen the ``sichuan`` preset follows). It was chosen because it states every part of the
game the family models: the 112 tiles, 红中 as the wildcard, pon and kong without chi, the
win (a pair and sets; four 红中 at once), the ways to win (self-draw and robbing a kong),
seven pairs as a room choice, the birds (奖码) and what each part of a win and each kong pays.

Each entry of :data:`RULE_TEXT` is one statement, quoted in a sentence or less, keyed by a
name; ``tests/families/hongzhong/test_rule_text.py`` has one test per entry that quotes it.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final, NamedTuple


class RuleSource(NamedTuple):
    """Where the rule text is published."""

    title: str
    url: str


SOURCE: Final = RuleSource(
    title="红中麻将 rule screen (hzmjRuleListLayer) of the hzmj client in QuiQiJingFeng/M2_CLIENT",
    url=(
        "https://github.com/QuiQiJingFeng/M2_CLIENT/blob/4bd76ef448fd1cdc00c93ce3674a8fb3562566bc/"
        "cocosstudio/games/hzmj/hzmjRuleListLayer.csd"
    ),
)

#: The statements the family follows, each quoted from :data:`SOURCE` (short: a sentence or
#: less). The options' defaults cite them by key (app/core/families/hongzhong/options.py).
RULE_TEXT: Final = MappingProxyType(
    {
        "tiles": "红中麻将共112张牌：包括1-9饼、1-9条、1-9万各4张，外加4张红中。",
        "wildcard": "红中麻将特色是以红中为万能牌又称‘百搭’牌",
        "no_chi": "打出的牌，其他玩家可进行碰、杠，下家不能吃",
        "red_discard": "红中牌可打出，但不能辅助其他牌来碰、杠",
        "shape": "胡牌时手里要有一个对子，剩余牌必须是‘一句话’或‘一坎牌’",
        "four_red": "摸到四张红中，自动胡牌，胡牌后可正常奖码",
        "win_ways": "胡牌只能通过自摸和抢杠胡两种方式",
        "rob_kong": "A玩家选择公杠时，此时B玩家可胡这张牌且手中无红中时，则B玩家才可以选择‘抢杠胡’",
        "rob_kong_one_winner": "抢杠胡没有一炮通吃，以杠牌玩家下手顺序优先抢杠胡的玩家胡牌",
        "rob_kong_liability": "被抢杠胡的玩家包赔，包括胡牌后的奖码，但不包括当局胡牌前杠牌的输赢",
        "seven_pairs": "可胡7对（创建房间时需勾选），胡7对时红中不能作为万能牌使用",
        "bird_count": "当胡牌玩家手中有红中时，奖码数为n；当胡牌玩家手中没有红中时，额外奖励两张码,即奖码数为n+2",
        "bird_short": "剩余牌数不够时，有几张奖几张",
        "bird_hit": "当奖码的牌面为红中,1,5,9时即为中码",
        "birds_kept": "创建房间时选择奖码m个，那么倒数第m+1张被摸后(最后一张不打出)，仍无人胡牌，则流局",
        "self_draw_pays": "自摸胡牌，赢每个玩家2*底分",
        "four_red_pays": "摸到四张红中胡牌，赢每个玩家2*底分",
        "closed_kong_pays": "暗杠，赢每个玩家2*底分",
        "open_kong_pays": "别人放杠，赢放杠者3*底分",
        "added_kong_pays": "自己摸的明杠（公杠），三家出，赢每个玩家1*底分",
        "bird_pays": "每中一张码，赢每个玩家2*底分",
        "seven_pairs_pays": "胡七对，赢每个玩家2*底分",
        "four_red_bonus": "玩家胡牌时，手中有4张红中时，额外赢另外三家每家5*底分",
        "no_hit_all_hit": "如果一个都没中，则当全中处理",
        "dealer": "上局胡牌的玩家为该局庄家，若本局和牌（流局），则由最后摸牌的人做庄",
    }
)

#: The room-rule panel of the same client (GameRuleLayer), which lists the choices a room makes:
#: the bird count (奖码数量) is one of 2, 4 or 6, the first ticked; seven pairs (可胡七对) is a
#: tick box, shown ticked.
ROOM_PANEL: Final = RuleSource(
    title="红中麻将 room-rule panel (GameRuleLayer) of the hzmj client in QuiQiJingFeng/M2_CLIENT",
    url=(
        "https://github.com/QuiQiJingFeng/M2_CLIENT/blob/260b9d781931bc4641d7aa97a0319d60d5b558f5/"
        "cocosstudio/games/hzmj/landscape/GameRuleLayer.csd"
    ),
)
#: The bird counts the room panel offers (its labels 2个, 4个, 6个).
BIRD_CHOICES: Final = (2, 4, 6)

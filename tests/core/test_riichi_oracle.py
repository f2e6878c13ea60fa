"""Our riichi scorer against the ``mahjong`` package (2.1.0) on 20,000 random wins.

Both sides get the same win (``riichi_situations``); ``mahjong`` is set to our
default rules (open tanyao, red fives, kazoe yakuman, no kiriage, double
yakuman, stacked yakuman, Tenhou's 30 fu open pinfu and 20 fu pinfu tsumo, no
renhou, daisharin, daichisei or paarenchan).  Han, fu, yaku (names mapped),
every payer's payment (honba in) and the riichi sticks must agree; so must
"no yaku".  No win is excluded: in a one-off run over 300,000 wins (and 20,000
under each option variant) the two never differed, so no ``mahjong`` defect
needs an exclusion predicate here.  Each option variant is checked on 2,000.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final

import pytest
from riichi_situations import EAST, Situation, random_situation

from app.core.shape.hand import MeldKind
from app.core.shape.rules import RuleProfile, rule_profile
from app.core.shape.tiles import format_tile
from app.core.value.riichi_scoring import NoYaku, RiichiScore, score_riichi
from app.core.value.scoring_context import WinContext

pytest.importorskip("mahjong", reason="the mahjong package is not installed (pip install -e '.[bench]')")
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules  # noqa: E402
from mahjong.meld import Meld as MahjongMeld  # noqa: E402

CHUNKS: Final = 10
PER_CHUNK: Final = 2000
CHUNK_SEED: Final = 11_000
RULES: Final = rule_profile("riichi")


def mahjong_options(rules: RuleProfile) -> OptionalRules:
    """mahjong's options for one of our rule profiles (yakuman stacking: mahjong always stacks)."""
    return OptionalRules(
        has_open_tanyao=rules.open_tanyao,
        has_aka_dora=rules.red_fives,
        has_double_yakuman=rules.double_yakuman,
        kazoe_limit=HandConstants.KAZOE_LIMITED if rules.kazoe_limit == "yakuman" else HandConstants.KAZOE_SANBAIMAN,
        kiriage=rules.kiriage,
        # Tenhou's fixed choices: an open hand without fu is 30 fu, pinfu tsumo 20 fu.
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        # Yaku and yakuman we do not have.
        renhou_as_yakuman=False,
        has_daisharin=False,
        has_daisharin_other_suits=False,
        has_sashikomi_yakuman=False,
        has_daichisei=False,
        paarenchan_needs_yaku=True,
        limit_to_sextuple_yakuman=True,
        is_three_player=False,
    )


RED_IDS: Final = {4: 16, 13: 52, 22: 88}
MELD_TYPES: Final = {
    MeldKind.CHI: (MahjongMeld.CHI, True),
    MeldKind.PON: (MahjongMeld.PON, True),
    MeldKind.OPEN_KAN: (MahjongMeld.KAN, True),
    MeldKind.CLOSED_KAN: (MahjongMeld.KAN, False),
    MeldKind.ADDED_KAN: (MahjongMeld.SHOUMINKAN, True),
}
#: mahjong's yaku names as ours (winds: ours say seat or round, not which wind).
YAKU_NAMES: Final = {
    "Menzen Tsumo": "menzen_tsumo",
    "Riichi": "riichi",
    "Double Riichi": "double_riichi",
    "Ippatsu": "ippatsu",
    "Chankan": "chankan",
    "Rinshan Kaihou": "rinshan",
    "Haitei Raoyue": "haitei",
    "Houtei Raoyui": "houtei",
    "Pinfu": "pinfu",
    "Tanyao": "tanyao",
    "Iipeiko": "iipeikou",
    "Yakuhai (haku)": "haku",
    "Yakuhai (hatsu)": "hatsu",
    "Yakuhai (chun)": "chun",
    "Sanshoku Doujun": "sanshoku",
    "Ittsu": "ittsu",
    "Chantai": "chanta",
    "Honroutou": "honroutou",
    "Toitoi": "toitoi",
    "San Ankou": "sanankou",
    "San Kantsu": "sankantsu",
    "Sanshoku Doukou": "sanshoku_doukou",
    "Chiitoitsu": "chiitoitsu",
    "Shou Sangen": "shousangen",
    "Honitsu": "honitsu",
    "Junchan": "junchan",
    "Ryanpeikou": "ryanpeikou",
    "Chinitsu": "chinitsu",
    "Kokushi Musou": "kokushi",
    "Kokushi Musou Juusanmen Matchi": "kokushi_13",
    "Chuuren Poutou": "chuuren",
    "Daburu Chuuren Poutou": "junsei_chuuren",
    "Suu Ankou": "suuankou",
    "Suu Ankou Tanki": "suuankou_tanki",
    "Daisangen": "daisangen",
    "Shousuushii": "shousuushii",
    "Dai Suushii": "daisuushii",
    "Ryuuiisou": "ryuuiisou",
    "Suu Kantsu": "suukantsu",
    "Tsuu Iisou": "tsuuiisou",
    "Chinroutou": "chinroutou",
    "Tenhou": "tenhou",
    "Chiihou": "chiihou",
    "Dora": "dora",
    "Aka Dora": "aka_dora",
    "Ura Dora": "ura_dora",
}
YAKU_NAMES.update({f"Yakuhai (seat wind {w})": "seat_wind" for w in ("east", "south", "west", "north")})
YAKU_NAMES.update({f"Yakuhai (round wind {w})": "round_wind" for w in ("east", "south", "west", "north")})


class _Ids:
    """Hands out 136-ids: a red five gets its red id, every other copy one of the three plain ids."""

    def __init__(self, red_fives: Sequence[int]) -> None:
        self.free = {tile: [4 * tile + k for k in range(4)] for tile in range(34)}
        # The first copy of a red five handed out is the red one (melds first, then the hand).
        self.red_left = set(red_fives)
        for tile, red in RED_IDS.items():
            if tile not in self.red_left:
                # A plain five takes the red id last: only a dora indicator may get it.
                self.free[tile].remove(red)
                self.free[tile].append(red)

    def take(self, tile: int) -> int:
        if tile in self.red_left:
            self.red_left.discard(tile)
            self.free[tile].remove(RED_IDS[tile])
            return RED_IDS[tile]
        return self.free[tile].pop(0)


def mahjong_inputs(situation: Situation, rules: RuleProfile = RULES) -> dict[str, Any]:
    """``estimate_hand_value`` keyword arguments for the same win."""
    hand, win_tile, context, _ = situation
    ids = _Ids(context.red_fives)
    melds = []
    meld_ids: list[int] = []
    for meld in hand.melds:
        kind, opened = MELD_TYPES[meld.kind]
        tiles = [ids.take(t) for t in meld.tiles]
        meld_ids += tiles
        melds.append(MahjongMeld(kind, tiles, opened=opened))
    concealed = [ids.take(t) for t in range(34) for _ in range(hand.counts[t])]
    win_id = next(t for t in concealed if t // 4 == win_tile)
    tsumo = context.discarder is None
    dealer_wins = context.winner == context.dealer
    config = HandConfig(
        is_tsumo=tsumo,
        is_riichi=context.riichi,
        is_daburu_riichi=context.double_riichi,
        is_ippatsu=context.ippatsu,
        is_rinshan=context.kong_replacement,
        is_chankan=context.robbed_kong,
        is_haitei=context.last_tile and tsumo,
        is_houtei=context.last_tile and not tsumo,
        is_tenhou=context.first_turn and dealer_wins,
        is_chiihou=context.first_turn and not dealer_wins,
        player_wind=EAST + (context.winner - context.dealer) % 4,
        round_wind=context.round_wind,
        tsumi_number=context.honba,
        kyoutaku_number=context.riichi_sticks,
        options=mahjong_options(rules),
    )
    return {
        "tiles": concealed + meld_ids,
        "win_tile": win_id,
        "melds": melds,
        "dora_indicators": [ids.take(t) for t in context.dora_indicators],
        "ura_dora_indicators": [ids.take(t) for t in context.ura_indicators],
        "config": config,
    }


def theirs(situation: Situation, rules: RuleProfile = RULES) -> dict[str, Any]:
    """mahjong's answer in our terms: no_yaku, or han, fu, yaku multiset, per-payer points and sticks."""
    kwargs = mahjong_inputs(situation, rules)
    result = HandCalculator.estimate_hand_value(**kwargs)
    if result.error == HandCalculator.ERR_NO_YAKU:
        return {"no_yaku": True}
    assert result.error is None, f"mahjong refused {describe(situation)}: {result.error}"
    context = situation.context
    opened = result.is_open_hand
    yaku = Counter()
    for item in result.yaku:
        yaku[(YAKU_NAMES[item.name], item.han_open if opened and item.han_open else item.han_closed)] += 1
    cost = result.cost
    pays = {}
    for seat in range(4):
        if seat == context.winner:
            continue
        if context.discarder is not None:
            if seat == context.discarder:
                pays[seat] = cost["main"] + cost["main_bonus"]
        elif seat == context.dealer:
            pays[seat] = cost["main"] + cost["main_bonus"]
        else:
            pays[seat] = cost["additional"] + cost["additional_bonus"]
    is_yakuman = any(item.is_yakuman for item in result.yaku)
    return {
        "han": result.han,
        "fu": 0 if is_yakuman else result.fu,
        "yaku": yaku,
        "per_payer": pays,
        "sticks": cost["kyoutaku_bonus"],
    }


def ours(situation: Situation, rules: RuleProfile = RULES) -> dict[str, Any]:
    """Our answer in the same shape."""
    try:
        score: RiichiScore = score_riichi(situation.hand, situation.win_tile, rules, situation.context)
    except NoYaku:
        return {"no_yaku": True}
    return {
        "han": score.han,
        "fu": score.fu,
        "yaku": Counter((y.name, y.han) for y in score.yaku),
        "per_payer": dict(score.per_payer),
        "sticks": score.riichi_sticks_won,
    }


def describe(situation: Situation) -> str:
    """A win in a form a reader can retype."""
    hand, win_tile, context, style = situation
    tiles = "".join(format_tile(t) for t in range(34) for _ in range(hand.counts[t]))
    melds = [(m.kind.value, "".join(format_tile(t) for t in m.tiles)) for m in hand.melds]
    return f"[{style}] hand {tiles} melds {melds} win {format_tile(win_tile)} {context}"


@functools.cache
def chunk(index: int) -> tuple[Situation, ...]:
    """The situations of one chunk (seeded, so every run checks the same wins)."""
    rng = random.Random(CHUNK_SEED + index)
    return tuple(random_situation(rng) for _ in range(PER_CHUNK))


Answer = Callable[[Situation, RuleProfile], dict[str, Any]]


def disagreements(
    situations: Sequence[Situation],
    rules: RuleProfile,
    *,
    mine_of: Answer | None = None,
    theirs_of: Answer | None = None,
) -> tuple[list[str], Counter[str]]:
    """Reports of the wins where the two scorers differ, and how many wins scored or had no yaku.

    ``mine_of`` and ``theirs_of`` default to this module's four-player answers (sanma passes its own).
    """
    found = []
    outcomes: Counter[str] = Counter()
    for situation in situations:
        mine, other = (mine_of or ours)(situation, rules), (theirs_of or theirs)(situation, rules)
        outcomes["no_yaku" if "no_yaku" in mine else "scored"] += 1
        if mine != other:
            found.append(f"{describe(situation)}\n  ours    {mine}\n  mahjong {other}")
    return found, outcomes


@pytest.mark.parametrize("index", [0, *(pytest.param(index, marks=pytest.mark.slow) for index in range(1, CHUNKS))])
def test_agrees_with_mahjong_package(index: int) -> None:
    found, outcomes = disagreements(chunk(index), RULES)
    assert not found, f"{len(found)} of {PER_CHUNK} differ:\n" + "\n".join(found[:8])
    # Both outcomes must be exercised, or the chunk proves little.
    assert outcomes["scored"] > PER_CHUNK // 2 and outcomes["no_yaku"] > PER_CHUNK // 50, outcomes


@pytest.mark.parametrize(
    "overrides",
    [
        {"kiriage": True},
        {"open_tanyao": False},
        {"red_fives": False},
        {"kazoe_limit": "sanbaiman"},
        {"double_yakuman": False},
    ],
    ids=lambda overrides: ",".join(f"{k}={v}" for k, v in overrides.items()),
)
def test_rule_options_agree_with_mahjong_package(overrides: dict[str, Any]) -> None:
    """Each scoring option mahjong also has, switched away from our default, on one chunk of wins."""
    found, _ = disagreements(chunk(0), rule_profile("riichi", **overrides))
    assert not found, f"{len(found)} of {PER_CHUNK} differ:\n" + "\n".join(found[:8])


def count_situation(seen: Counter[str], context: WinContext, *, seats: int) -> None:
    """Count what a compared win's situation exercises: who won how, flags, winds, bonuses."""
    tsumo = context.discarder is None
    dealer = context.winner == context.dealer
    seen[f"{'dealer' if dealer else 'non_dealer'}_{'tsumo' if tsumo else 'ron'}"] += 1
    for flag in ("riichi", "double_riichi", "ippatsu", "kong_replacement", "robbed_kong", "first_turn"):
        seen[flag] += bool(getattr(context, flag))
    seen["haitei" if tsumo else "houtei"] += context.last_tile
    seen[f"round_wind:{context.round_wind}"] += 1
    seen[f"seat_wind:{(context.winner - context.dealer) % seats}"] += 1
    seen["red_five"] += bool(context.red_fives)
    seen["honba"] += context.honba > 0
    seen["sticks"] += context.riichi_sticks > 0


def test_situations_cover_every_case() -> None:
    """The wins compared above reach every meld kind, flag, seat case and yaku (else agreement proves less)."""
    seen: Counter[str] = Counter()
    for index in range(CHUNKS):
        for situation in chunk(index):
            hand, _, context, _ = situation
            seen.update(f"meld:{meld.kind.value}" for meld in hand.melds)
            seen["closed" if not hand.has_open_meld else "open"] += 1
            count_situation(seen, context, seats=4)
            seen["dora_indicator"] += bool(context.dora_indicators)
            seen["ura_indicator"] += bool(context.ura_indicators)
            try:
                seen.update(f"yaku:{y.name}" for y in score_riichi(hand, situation.win_tile, RULES, context).yaku)
            except NoYaku:
                seen["no_yaku"] += 1
    wanted = [
        *(f"meld:{kind.value}" for kind in MeldKind),
        "closed",
        "open",
        "dealer_tsumo",
        "dealer_ron",
        "non_dealer_tsumo",
        "non_dealer_ron",
        "riichi",
        "double_riichi",
        "ippatsu",
        "kong_replacement",
        "robbed_kong",
        "first_turn",
        "haitei",
        "houtei",
        *(f"round_wind:{wind}" for wind in range(27, 31)),
        *(f"seat_wind:{seat}" for seat in range(4)),
        "red_five",
        "dora_indicator",
        "ura_indicator",
        "honba",
        "sticks",
        "no_yaku",
        *(f"yaku:{name}" for name in sorted(set(YAKU_NAMES.values()))),
    ]
    # Twenty of each at least: one lucky hit does not exercise a rule.
    rare = {name: seen[name] for name in wanted if seen[name] < 20}
    assert not rare, f"rarely or never reached: {rare}"

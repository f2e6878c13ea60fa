"""Hand-worked riichi scores: readings that compete, fu edge cases, rule options and payments.

Every expected value below is worked out in the comment above it from the
Tenhou rules the scorer follows (base points = fu x 2^(2 + han); a non-dealer
ron pays 4 x base, a dealer ron 6 x base; on a self-draw the dealer pays 2 x
base and others 1 x base, each rounded up to 100; honba add 300 a ron, 100 a
payer on a self-draw).  The seat is South (winner 1, dealer 0) in an East round
unless a case says otherwise.

No ``mahjong`` 2.1.0 defect needs pinning here: the random oracle
(``test_riichi_oracle.py``) found no win where it and we differ.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import parse_mpsz, parse_mpsz_with_red, parse_tile
from app.core.value.riichi_scoring import NoYaku, RiichiScore, score_riichi
from app.core.value.scoring_context import WinContext

RULES = rule_profile("riichi")


def score(
    text: str,
    win: str,
    melds: Sequence[tuple[str, str]] = (),
    rules=RULES,
    **situation,
) -> RiichiScore:
    """Score the concealed tiles ``text`` (winning tile included; ``0`` = red five) with ``melds``."""
    tiles, red = parse_mpsz_with_red(text)
    declared = []
    for kind, meld_text in melds:
        meld_tiles, meld_red = parse_mpsz_with_red(meld_text)
        declared.append(Meld.of(kind, meld_tiles))
        red += meld_red
    situation.setdefault("winner", 1)
    situation.setdefault("dealer", 0)
    if situation.pop("tsumo", False):
        situation["discarder"] = None
    else:
        situation.setdefault("discarder", 3)
    for field in ("dora_indicators", "ura_indicators"):
        if field in situation:
            situation[field] = tuple(parse_mpsz(situation[field]))
    context = WinContext(red_fives=tuple(sorted(red)), **situation)
    return score_riichi(Hand.from_tiles(tiles, declared), parse_tile(win), rules, context)


def names(result: RiichiScore) -> set[str]:
    return {y.name for y in result.yaku}


# -- competing readings ----------------------------------------------------------


def test_22334455m_ron_prefers_pinfu_iipeikou_over_the_tanki() -> None:
    # 2m pair + 345m 345m: 5m finishes a 34m two-sided wait -> pinfu, tanyao, iipeikou, 3 han 30 fu
    # (base 960, ron 3840 -> 3900).  The 5m pair reading (234m 234m, tanki) is 2 han 40 fu: 2600.
    result = score("22334455m234p678s", "5m")
    assert names(result) == {"pinfu", "tanyao", "iipeikou"}
    assert (result.han, result.fu, result.reading.pair, result.reading.wait) == (3, 30, 1, "ryanmen")
    assert result.per_payer == ((3, 3900),)


def test_22334455m_tsumo_is_pinfu_tsumo_at_20_fu() -> None:
    # Self-draw: menzen tsumo + pinfu + tanyao + iipeikou = 4 han 20 fu, base 1280: dealer 2560 -> 2600,
    # others 1300 (5200).  The tanki reading: 3 han 30 fu (20 + 2 tsumo + 2 tanki), base 960: 4000.
    result = score("22334455m234p678s", "5m", tsumo=True)
    assert names(result) == {"menzen_tsumo", "pinfu", "tanyao", "iipeikou"}
    assert (result.han, result.fu) == (4, 20)
    assert result.per_payer == ((0, 2600), (2, 1300), (3, 1300))


def test_111222333m_ron_reads_three_runs_for_iipeikou() -> None:
    # Ron on 3m: as triplets, 333m is finished by the discard (open), so only two concealed triplets
    # and no yaku at all.  As 123m x3 the hand has iipeikou; 3m closes 12m, an edge wait:
    # 20 + 10 closed ron + 2 penchan = 32 -> 40 fu.  1 han 40 fu: base 320, 1280 -> 1300.
    result = score("111222333m456p99s", "3m")
    assert names(result) == {"iipeikou"}
    assert (result.han, result.fu, result.reading.wait) == (1, 40, "penchan")
    assert result.per_payer == ((3, 1300),)


def test_111222333m_tsumo_reads_three_concealed_triplets() -> None:
    # Self-drawn, all three triplets are concealed: menzen tsumo + sanankou = 3 han; fu 20 + 2 tsumo
    # + 8 (111m, closed terminal) + 4 + 4 (222m, 333m closed simples) = 38 -> 40.  Base 1280:
    # 2600 / 1300.  (Runs: tsumo + iipeikou, 2 han 30 fu, base 480, only 2000.)
    result = score("111222333m456p99s", "3m", tsumo=True)
    assert names(result) == {"menzen_tsumo", "sanankou"}
    assert (result.han, result.fu) == (3, 40)
    assert result.per_payer == ((0, 2600), (2, 1300), (3, 1300))


def test_the_wait_worth_more_fu_is_chosen_kanchan_over_ryanmen() -> None:
    # 345m 456m with 5m drawn: a two-sided 34m wait or a closed 46m wait.  Fu: 20 + 2 tsumo + 8
    # (111p closed terminal) = 30 as ryanmen, 32 -> 40 as kanchan.  Riichi + tsumo 2 han 40 fu,
    # base 640: dealer 1280 -> 1300, others 700.  (30 fu would pay only 1000 / 500.)
    result = score("344556m111p789s99s", "5m", tsumo=True, riichi=True)
    assert names(result) == {"riichi", "menzen_tsumo"}
    assert (result.fu, result.reading.wait) == (40, "kanchan")
    assert result.per_payer == ((0, 1300), (2, 700), (3, 700))


def test_a_two_sided_reading_beats_an_edge_one_when_it_gives_pinfu() -> None:
    # 3m finishes 12m (edge, no yaku at all: 1m and 9p rule out tanyao) or 45m (two-sided: pinfu).
    result = score("123345m678p99p234s", "3m")
    assert names(result) == {"pinfu"}
    assert (result.han, result.fu, result.reading.wait) == (1, 30, "ryanmen")
    assert result.per_payer == ((3, 1000),)


def test_ryanpeikou_beats_seven_pairs() -> None:
    # 223344m 556677p 88s ron on 8s (tanki).  Seven pairs: chiitoitsu + tanyao, 3 han 25 fu = 3200.
    # Regular: ryanpeikou 3 + tanyao 1 = 4 han, fu 20 + 10 + 2 tanki = 32 -> 40: base 2560, a mangan.
    result = score("223344m556677p88s", "8s")
    assert names(result) == {"ryanpeikou", "tanyao"}
    assert (result.han, result.fu, result.limit) == (4, 40, "mangan")
    assert result.per_payer == ((3, 8000),)


def test_shanpon_ron_makes_sanankou_not_suuankou() -> None:
    # Ron on 8s, waiting on 88s or 55z: 888s counts as open.  Sanankou + toitoi = 4 han; fu 20 + 10
    # + 3 x 4 (closed simple triplets) + 2 (888s open) + 2 (haku pair) = 46 -> 50: base 3200, mangan.
    result = score("222m444p666s888s55z", "8s")
    assert names(result) == {"sanankou", "toitoi"}
    assert (result.han, result.fu, result.limit) == (4, 50, "mangan")
    # Drawn, the same wait is four concealed triplets: suuankou, a yakuman.
    drawn = score("222m444p666s888s55z", "8s", tsumo=True)
    assert names(drawn) == {"suuankou"} and drawn.yakuman_count == 1 and drawn.fu == 0
    assert drawn.per_payer == ((0, 16000), (2, 8000), (3, 8000))


# -- fu edge cases ------------------------------------------------------------------


def test_double_wind_pair_is_4_fu() -> None:
    # The dealer (East seat) in the East round with an East pair: 2 fu as seat wind + 2 as round wind.
    # Riichi ron, 6s finishes 78s (two-sided, but the pair bars pinfu): 20 + 10 + 4 = 34 -> 40.
    # Dealer ron 1 han 40 fu: 6 x 320 = 1920 -> 2000.
    result = score("234m567m345p678s11z", "6s", winner=0, dealer=0, discarder=2, riichi=True)
    assert names(result) == {"riichi"}
    assert result.fu == 40
    assert {(part.reason, part.fu) for part in result.fu_details} >= {("pair_seat_wind", 2), ("pair_round_wind", 2)}
    assert result.payments == (2000, 0, -2000, 0)


def test_open_hand_without_fu_is_scored_30() -> None:
    # Chi 234m, all runs, a plain pair, two-sided wait: 20 fu raw, which Tenhou scores as 30.
    # Open tanyao 1 han 30 fu: 4 x 240 = 960 -> 1000.
    result = score("567p345s678s22p", "5s", melds=[("chi", "234m")])
    assert names(result) == {"tanyao"}
    assert result.fu == 30 and ("open_pinfu", 10) in {(p.reason, p.fu) for p in result.fu_details}
    assert result.per_payer == ((3, 1000),)


def test_seven_pairs_is_25_fu_even_self_drawn() -> None:
    # Riichi + chiitoitsu ron: 3 han 25 fu, base 800, 3200.
    ron = score("11m33m55p77p99s22z66z", "2z", riichi=True)
    assert names(ron) == {"riichi", "chiitoitsu"} and (ron.han, ron.fu) == (3, 25)
    assert ron.per_payer == ((3, 3200),)
    # Self-drawn: no self-draw fu; 4 han 25 fu, base 1600: 3200 / 1600.
    drawn = score("11m33m55p77p99s22z66z", "2z", riichi=True, tsumo=True)
    assert (drawn.han, drawn.fu) == (4, 25)
    assert drawn.per_payer == ((0, 3200), (2, 1600), (3, 1600))


def test_closed_honor_kan_rinshan_is_3_han_60_fu() -> None:
    # Closed kan of chun (32 fu) keeps the hand closed: chun + menzen tsumo + rinshan = 3 han;
    # 20 + 2 tsumo + 32 = 54 -> 60 fu.  Base 1920: dealer 3840 -> 3900, others 2000 (7900).
    result = score("234m567p345s88s", "5s", melds=[("closed_kan", "7777z")], tsumo=True, kong_replacement=True)
    assert names(result) == {"chun", "menzen_tsumo", "rinshan"}
    assert (result.han, result.fu, result.limit) == (3, 60, None)
    assert result.per_payer == ((0, 3900), (2, 2000), (3, 2000))
    # With kiriage, 3 han 60 fu rounds up to mangan: 4000 / 2000.
    rounded = score(
        "234m567p345s88s",
        "5s",
        melds=[("closed_kan", "7777z")],
        rules=rule_profile("riichi", kiriage=True),
        tsumo=True,
        kong_replacement=True,
    )
    assert rounded.limit == "mangan" and rounded.per_payer == ((0, 4000), (2, 2000), (3, 2000))


def test_robbing_a_kong_with_pinfu() -> None:
    # 4m robbed from a kong finishes 23m (two-sided): chankan + tanyao + pinfu, 3 han 30 fu = 3900.
    result = score("234m567m345p678s22p", "4m", robbed_kong=True)
    assert names(result) == {"chankan", "tanyao", "pinfu"}
    assert (result.han, result.fu) == (3, 30) and result.per_payer == ((3, 3900),)


# -- rule options ---------------------------------------------------------------------


def test_kiriage_rounds_4_han_30_fu_up_to_mangan() -> None:
    # Riichi + pinfu + tanyao + dora (indicator 1m shows the 2m held) = 4 han 30 fu: base 1920,
    # ron 7680 -> 7700.  With kiriage it is a mangan: 8000.
    hand = ("234m567m345p678s66s", "8s")
    plain = score(*hand, riichi=True, dora_indicators="1m")
    assert (plain.han, plain.fu, plain.limit) == (4, 30, None) and plain.per_payer == ((3, 7700),)
    rounded = score(*hand, rules=rule_profile("riichi", kiriage=True), riichi=True, dora_indicators="1m")
    assert (rounded.han, rounded.fu, rounded.limit) == (4, 30, "mangan") and rounded.per_payer == ((3, 8000),)


def test_thirteen_han_is_a_counted_yakuman_or_a_sanbaiman() -> None:
    # 123m 123m 456m 789m 55m, riichi, self-drawn 9m (two-sided 78m): riichi 1 + menzen tsumo 1 +
    # pinfu 1 + iipeikou 1 + ittsu 2 + chinitsu 6 + dora 1 (indicator 3m: the 4m) = 13 han, 20 fu.
    hand = ("11223345556789m", "9m")
    counted = score(*hand, tsumo=True, riichi=True, dora_indicators="3m")
    assert names(counted) == {"riichi", "menzen_tsumo", "pinfu", "iipeikou", "ittsu", "chinitsu", "dora"}
    assert (counted.han, counted.fu, counted.limit, counted.yakuman_count) == (13, 20, "yakuman", 1)
    assert counted.per_payer == ((0, 16000), (2, 8000), (3, 8000))
    capped = score(
        *hand, rules=rule_profile("riichi", kazoe_limit="sanbaiman"), tsumo=True, riichi=True, dora_indicators="3m"
    )
    assert (capped.han, capped.limit, capped.yakuman_count) == (13, "sanbaiman", 0)
    assert capped.per_payer == ((0, 12000), (2, 6000), (3, 6000))


def test_double_yakuman_option() -> None:
    # Suuankou on a pair wait (tanki) is two yakuman: a non-dealer tsumo of 16000 base, 32000 / 16000.
    # With double_yakuman off it is one: 16000 / 8000.
    hand = ("111m333p555s777s11z", "1z")
    double = score(*hand, tsumo=True)
    assert [(y.name, y.yakuman) for y in double.yaku] == [("suuankou_tanki", 2)]
    assert (double.han, double.yakuman_count) == (26, 2) and double.per_payer == ((0, 32000), (2, 16000), (3, 16000))
    single = score(*hand, rules=rule_profile("riichi", double_yakuman=False), tsumo=True)
    assert [(y.name, y.yakuman) for y in single.yaku] == [("suuankou_tanki", 1)]
    assert single.per_payer == ((0, 16000), (2, 8000), (3, 8000))


def test_thirteen_sided_kokushi_dealer_ron() -> None:
    # Waiting on all thirteen orphans, won on 1m: two yakuman; a dealer ron is 6 x 16000 = 96000.
    result = score("119m19p19s1234567z", "1m", winner=0, dealer=0, discarder=2)
    assert [(y.name, y.yakuman) for y in result.yaku] == [("kokushi_13", 2)]
    assert result.payments == (96000, 0, -96000, 0)


def test_yakuman_stacking_option() -> None:
    # Pon of East, then 555z 666z 777z and a South pair, ron on 2z: daisangen + tsuuiisou, two
    # yakuman stacked: 4 x 16000 = 64000.  Without stacking only one counts: 32000.
    hand = ("555z666z777z22z", "2z")
    stacked = score(*hand, melds=[("pon", "111z")])
    assert names(stacked) == {"daisangen", "tsuuiisou"} and stacked.yakuman_count == 2
    assert stacked.per_payer == ((3, 64000),)
    single = score(*hand, melds=[("pon", "111z")], rules=rule_profile("riichi", yakuman_stacking=False))
    assert len(single.yaku) == 1 and single.yaku[0].name in {"daisangen", "tsuuiisou"}
    assert single.yakuman_count == 1 and single.per_payer == ((3, 32000),)


# -- payments -----------------------------------------------------------------------------


def test_honba_and_riichi_sticks() -> None:
    # The 1000-point open tanyao ron with 2 honba (+600) and 3 sticks on the table: the discarder
    # pays 1600; the sticks (3000) go to the winner outside the seat payments.
    result = score("567p345s678s22p", "5s", melds=[("chi", "234m")], honba=2, riichi_sticks=3)
    assert result.per_payer == ((3, 1600),)
    assert result.payments == (0, 1600, 0, -1600)
    assert result.riichi_sticks_won == 3000


@pytest.mark.parametrize(
    ("winner", "expected"),
    [
        # Non-dealer: 1 han 30 fu self-drawn, base 240: the dealer pays 480 -> 500, others 240 -> 300,
        # plus 100 each for the honba.
        (1, ((0, 600), (2, 400), (3, 400))),
        # Dealer: everyone pays 2 x 240 = 480 -> 500, plus the honba.
        (0, ((1, 600), (2, 600), (3, 600))),
    ],
)
def test_self_draw_rounds_each_payment(winner: int, expected: tuple) -> None:
    # Open tanyao self-drawn: 20 + 2 tsumo = 22 -> 30 fu, 1 han (no menzen tsumo with a chi).
    result = score("567p345s678s22p", "5s", melds=[("chi", "234m")], tsumo=True, winner=winner, honba=1)
    assert (result.han, result.fu) == (1, 30)
    assert result.per_payer == expected
    assert sum(result.payments) == 0


# -- dora ----------------------------------------------------------------------------------


def test_red_fives_in_melds_count_and_ura_needs_riichi() -> None:
    # Pon of red-five-holding 5p (055p) and a red 5m in hand: aka_dora 2.  An ura indicator counts
    # nothing without riichi.  Open tanyao 1 + aka 2 = 3 han; fu 20 + 2 (open simple pon) = 22 -> 30:
    # base 960, ron 3840 -> 3900.
    result = score("340m678m345s22s", "5m", melds=[("pon", "055p")], ura_indicators="1s")
    assert {(y.name, y.han) for y in result.yaku} == {("tanyao", 1), ("aka_dora", 2)}
    assert (result.han, result.fu) == (3, 30) and result.per_payer == ((3, 3900),)


def test_dora_alone_is_no_yaku_but_houtei_is() -> None:
    # Chi 123m, then 789p 456s 234s 99p: no yaku (1m and 9p bar tanyao), dora or not.
    with pytest.raises(NoYaku):
        score("789p456s234s99p", "4s", melds=[("chi", "123m")], dora_indicators="8p")
    # The same on the last discard: houtei 1 + dora 3 (an 8p indicator; 9p in 789p and the pair) =
    # 4 han.  4s closes 56s or 23s, both two-sided: 20 fu, which an open hand scores as 30.
    # Base 1920, ron 7680 -> 7700.
    result = score("789p456s234s99p", "4s", melds=[("chi", "123m")], dora_indicators="8p", last_tile=True)
    assert {(y.name, y.han) for y in result.yaku} == {("houtei", 1), ("dora", 3)}
    assert (result.han, result.fu) == (4, 30) and result.per_payer == ((3, 7700),)

"""Three-player riichi (``sanma``) scoring against the ``mahjong`` package (2.1.0) on 10,000 random wins.

The wins come from ``riichi_situations`` under the sanma profile: no 2m-8m in hand,
melds or indicators, no chi, seats 0..2, norths set aside (``nuki``, 0..4 less those
held) and every flag, meld kind and yaku the four-player oracle reaches.  ``mahjong``
is configured as in ``test_riichi_oracle`` plus ``is_three_player=True`` and
``num_nuki_dora``; it pays as Tenhou's sanma: tsumo loss, 200 a honba on a ron
(100 from each of the two others), 100 a honba from each payer on a self-draw.

Han, fu, yaku, every payer's payment and the riichi sticks must agree; so must
"no yaku".  ``mahjong`` counts nukidora inside its "Dora" yaku, we list them apart
as ``nuki_dora``: the two are summed before comparing.  No win is excluded: in a
one-off run over 60,000 sanma wins (and 20,000 under each option variant below)
the two never differed, so there is no ``mahjong`` defect to pin here.  Each
option variant is checked on 1,000.

``mahjong`` has no no-tsumo-loss variant; ``tsumo_loss: false`` is checked by
hand-worked cases and, on one chunk, against mahjong's own shares plus half the
missing north's share.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

import pytest
from riichi_situations import EAST, NORTH, Situation, random_situation

from app.core.errors import AbsentTile, InvalidMeld
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.rules import RuleProfile, rule_profile
from app.core.shape.tiles import format_tile, parse_mpsz
from app.core.value.riichi_scoring import NoYaku, RiichiScore, riichi_payments, score_riichi
from app.core.value.scoring import SCORING
from app.core.value.scoring_context import InvalidWinContext, WinContext

pytest.importorskip("mahjong", reason="the mahjong package is not installed (pip install -e '.[bench]')")
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong.hand_calculating.hand_config import HandConfig  # noqa: E402
from mahjong.meld import Meld as MahjongMeld  # noqa: E402
from test_riichi_oracle import MELD_TYPES, YAKU_NAMES, _Ids, count_situation, mahjong_options  # noqa: E402
from test_riichi_oracle import disagreements as four_player_disagreements  # noqa: E402

SANMA: Final = rule_profile("sanma")
SEATS: Final = 3
CHUNKS: Final = 10
PER_CHUNK: Final = 1000
CHUNK_SEED: Final = 33_000


def _round_up_100(points: int) -> int:
    return -(-points // 100) * 100


# --- the same win, asked of mahjong ------------------------------------------------


def mahjong_inputs(situation: Situation, rules: RuleProfile = SANMA) -> dict[str, Any]:
    """``estimate_hand_value`` keyword arguments for a three-player win."""
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
    options = mahjong_options(rules)
    options.is_three_player = True
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
        # Three seats: dealer East, then South and West; nobody sits North.
        player_wind=EAST + (context.winner - context.dealer) % SEATS,
        round_wind=context.round_wind,
        tsumi_number=context.honba,
        kyoutaku_number=context.riichi_sticks,
        num_nuki_dora=context.nuki,
        options=options,
    )
    return {
        "tiles": concealed + meld_ids,
        "win_tile": win_id,
        "melds": melds,
        "dora_indicators": [ids.take(t) for t in context.dora_indicators],
        "ura_dora_indicators": [ids.take(t) for t in context.ura_indicators],
        "config": config,
    }


def _missing_share(cost: dict[str, int], dealer_wins: bool) -> int:
    """What the absent north seat would have paid on a self-draw (a non-dealer's share)."""
    return cost["main"] if dealer_wins else cost["additional"]


def theirs(situation: Situation, rules: RuleProfile = SANMA) -> dict[str, Any]:
    """mahjong's answer in our terms: no_yaku, or han, fu, yaku multiset, per-payer points and sticks.

    With ``rules.tsumo_loss`` off, each self-draw payer adds half of the missing north's
    share (as mahjong reckons that share), rounded up to 100: mahjong has no such option.
    """
    result = HandCalculator.estimate_hand_value(**mahjong_inputs(situation, rules))
    if result.error == HandCalculator.ERR_NO_YAKU:
        return {"no_yaku": True}
    assert result.error is None, f"mahjong refused {describe(situation)}: {result.error}"
    context = situation.context
    opened = result.is_open_hand
    yaku: Counter[tuple[str, int]] = Counter()
    for item in result.yaku:
        yaku[(YAKU_NAMES[item.name], item.han_open if opened and item.han_open else item.han_closed)] += 1
    cost = result.cost
    extra = 0
    if context.discarder is None and not rules.tsumo_loss:
        extra = _round_up_100(_missing_share(cost, context.winner == context.dealer) // 2)
    pays = {}
    for seat in range(SEATS):
        if seat == context.winner:
            continue
        if context.discarder is not None:
            if seat == context.discarder:
                pays[seat] = cost["main"] + cost["main_bonus"]
        elif seat == context.dealer:
            pays[seat] = cost["main"] + cost["main_bonus"] + extra
        else:
            pays[seat] = cost["additional"] + cost["additional_bonus"] + extra
    is_yakuman = any(item.is_yakuman for item in result.yaku)
    return {
        "han": result.han,
        "fu": 0 if is_yakuman else result.fu,
        "yaku": yaku,
        "per_payer": pays,
        "sticks": cost["kyoutaku_bonus"],
    }


def ours(situation: Situation, rules: RuleProfile = SANMA) -> dict[str, Any]:
    """Our answer in the same shape, nukidora counted into dora as mahjong counts them."""
    try:
        score: RiichiScore = score_riichi(situation.hand, situation.win_tile, rules, situation.context)
    except NoYaku:
        return {"no_yaku": True}
    assert len(score.payments) == SEATS and sum(score.payments) == 0, score.payments
    yaku: Counter[tuple[str, int]] = Counter()
    dora = 0
    for item in score.yaku:
        if item.name in ("dora", "nuki_dora"):
            dora += item.han
        else:
            yaku[(item.name, item.han)] += 1
    if dora:
        yaku[("dora", dora)] += 1
    return {
        "han": score.han,
        "fu": score.fu,
        "yaku": yaku,
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
    """The sanma situations of one chunk (seeded, so every run checks the same wins)."""
    rng = random.Random(CHUNK_SEED + index)
    return tuple(random_situation(rng, rules=SANMA) for _ in range(PER_CHUNK))


def disagreements(situations: Sequence[Situation], rules: RuleProfile) -> tuple[list[str], Counter[str]]:
    """The four-player comparison's report, with the three-player answers on both sides."""
    return four_player_disagreements(situations, rules, mine_of=ours, theirs_of=theirs)


@pytest.mark.parametrize("index", [0, *(pytest.param(index, marks=pytest.mark.slow) for index in range(1, CHUNKS))])
def test_agrees_with_mahjong_three_player(index: int) -> None:
    found, outcomes = disagreements(chunk(index), SANMA)
    assert not found, f"{len(found)} of {PER_CHUNK} differ:\n" + "\n".join(found[:8])
    assert outcomes["scored"] > PER_CHUNK // 2 and outcomes["no_yaku"] > PER_CHUNK // 50, outcomes


@pytest.mark.parametrize(
    "overrides",
    [
        {"tsumo_loss": False},
        {"kiriage": True},
        {"open_tanyao": False},
        {"red_fives": False},
        {"kazoe_limit": "sanbaiman"},
        {"double_yakuman": False},
    ],
    ids=lambda overrides: ",".join(f"{k}={v}" for k, v in overrides.items()),
)
def test_rule_options_agree_with_mahjong_three_player(overrides: dict[str, Any]) -> None:
    """Sanma with an option switched (no tsumo loss: mahjong's shares plus half the north's) on one chunk."""
    found, _ = disagreements(chunk(0), rule_profile("sanma", **overrides))
    assert not found, f"{len(found)} of {PER_CHUNK} differ:\n" + "\n".join(found[:8])


def test_situations_cover_every_sanma_case() -> None:
    """The wins compared above reach every meld kind but chi, every flag, seat case, nuki count and yaku."""
    seen: Counter[str] = Counter()
    for index in range(CHUNKS):
        for situation in chunk(index):
            hand, win_tile, context, _ = situation
            held = hand.all_counts()
            assert not any(held[1:8]), describe(situation)
            assert not any(1 <= t <= 7 for t in context.dora_indicators + context.ura_indicators), describe(situation)
            seen.update(f"meld:{meld.kind.value}" for meld in hand.melds)
            seen["closed" if not hand.has_open_meld else "open"] += 1
            count_situation(seen, context, seats=SEATS)
            if context.discarder is not None:
                seen["dealer_deals_in" if context.discarder == context.dealer else "non_dealer_deals_in"] += 1
            seen[f"nuki:{context.nuki}"] += 1
            seen["nuki_with_north_held"] += bool(context.nuki and held[NORTH])
            # An indicator showing north makes every north set aside one more dora.
            seen["north_dora_with_nuki"] += bool(context.nuki and 29 in context.dora_indicators)
            indicators = context.dora_indicators + context.ura_indicators
            seen["indicator:1m"] += 0 in indicators
            seen["indicator:9m"] += 8 in indicators
            seen["holds_9m_under_1m_indicator"] += bool(0 in context.dora_indicators and held[8])
            try:
                result = score_riichi(hand, win_tile, SANMA, context)
                seen.update(f"yaku:{y.name}" for y in result.yaku)
                seen[f"limit:{result.limit}"] += 1
            except NoYaku:
                seen["no_yaku"] += 1
    impossible = {"sanshoku"}  # sanshoku doujun needs a run in man: none without 2m-8m
    yaku = sorted(set(YAKU_NAMES.values()) - impossible) + ["nuki_dora"]
    wanted = [
        *(f"meld:{kind.value}" for kind in MeldKind if kind is not MeldKind.CHI),
        "closed",
        "open",
        "dealer_tsumo",
        "dealer_ron",
        "non_dealer_tsumo",
        "non_dealer_ron",
        "dealer_deals_in",
        "non_dealer_deals_in",
        "riichi",
        "double_riichi",
        "ippatsu",
        "kong_replacement",
        "robbed_kong",
        "first_turn",
        "haitei",
        "houtei",
        *(f"round_wind:{wind}" for wind in range(27, 31)),
        *(f"seat_wind:{seat}" for seat in range(SEATS)),
        *(f"nuki:{count}" for count in range(5)),
        "nuki_with_north_held",
        "north_dora_with_nuki",
        "indicator:1m",
        "indicator:9m",
        "holds_9m_under_1m_indicator",
        "red_five",
        "honba",
        "sticks",
        "no_yaku",
        *(f"limit:{limit}" for limit in (None, "mangan", "haneman", "baiman", "sanbaiman", "yakuman")),
        *(f"yaku:{name}" for name in yaku),
    ]
    rare = {name: seen[name] for name in wanted if seen[name] < 20}
    assert not rare, f"rarely or never reached: {rare}"
    # No chi at a three-player table, and no seat sits North.
    assert seen["meld:chi"] == 0 and seen["seat_wind:3"] == 0


# --- hand-worked cases: what the oracle cannot say -----------------------------------


def _hand(tiles: str, *melds: tuple[str, str]) -> Hand:
    return Hand.from_tiles(parse_mpsz(tiles), tuple(Meld.of(kind, parse_mpsz(meld)) for kind, meld in melds))


# Closed 111m 999m 123p 456s + 77s, won on 7s (a pair wait, tanki: 456s + 77s is the only
# reading).  A self-draw has menzen_tsumo alone: 1 han; fu 20 + 2 (self-draw) + 8 + 8 (closed
# terminal triplets) + 2 (tanki) = 40.  A ron needs riichi for a yaku.
TERMINAL_TRIPLETS = _hand("111999m123p45677s")
SEVEN_SOU: Final = 24


def test_sanma_is_scored_by_the_riichi_scorer() -> None:
    assert SCORING["sanma"] is score_riichi


@pytest.mark.parametrize(
    ("base", "winner", "dealer", "honba", "per_payer"),
    [
        # Non-dealer 30 fu 1 han: basic 240.  Dealer pays 480 -> 500, the other 240 -> 300; the
        # missing north would have paid 300, half of it 150 -> 200 on each payer.
        (240, 1, 0, 0, ((0, 700), (2, 500))),
        # Dealer 40 fu 2 han: basic 640, each pays 1280 -> 1300; north's 1300 / 2 = 650 -> 700 each.
        (640, 0, 0, 0, ((1, 2000), (2, 2000))),
        # Non-dealer mangan (2000): dealer 4000 + 1000, other 2000 + 1000, and 100 a honba each on top.
        (2000, 2, 1, 2, ((0, 3200), (1, 5200))),
        # Dealer yakuman (8000): 16000 each, north's 16000 split: 8000 more each.
        (8000, 1, 1, 0, ((0, 24000), (2, 24000))),
        # Non-dealer 20 fu 2 han (pinfu tsumo): basic 320; 640 -> 700 and 320 -> 400; north's 400 -> 200.
        (320, 0, 2, 1, ((1, 700), (2, 1000))),
    ],
)
def test_no_tsumo_loss_splits_the_missing_share(
    base: int, winner: int, dealer: int, honba: int, per_payer: tuple[tuple[int, int], ...]
) -> None:
    payments, got = riichi_payments(base, winner, dealer, None, honba, seats=3, tsumo_loss=False)
    assert got == per_payer
    assert sum(payments) == 0 and payments[winner] == sum(pays for _, pays in per_payer)


@pytest.mark.parametrize(
    ("winner", "dealer", "tsumo_loss", "per_payer"),
    [
        # TERMINAL_TRIPLETS self-drawn: 1 han 40 fu, basic 40 x 2^3 = 320.  Non-dealer:
        # dealer pays 640 -> 700, the other 320 -> 400 (tsumo loss: north's 400 is lost).
        (1, 0, True, ((0, 700), (2, 400))),
        # Without tsumo loss north's 400 is split: 200 more from each.
        (1, 0, False, ((0, 900), (2, 600))),
        # Dealer: each pays 640 -> 700; without loss north's 700 / 2 = 350 -> 400 more each.
        (2, 2, True, ((0, 700), (1, 700))),
        (2, 2, False, ((0, 1100), (1, 1100))),
    ],
)
def test_tsumo_loss_on_a_scored_hand(
    winner: int, dealer: int, tsumo_loss: bool, per_payer: tuple[tuple[int, int], ...]
) -> None:
    rules = rule_profile("sanma", tsumo_loss=tsumo_loss)
    result = score_riichi(TERMINAL_TRIPLETS, SEVEN_SOU, rules, WinContext(winner=winner, dealer=dealer))
    assert (result.han, result.fu, result.base_points) == (1, 40, 320)
    assert result.per_payer == per_payer
    assert len(result.payments) == 3 and sum(result.payments) == 0


def test_ron_honba_is_200_in_sanma() -> None:
    # TERMINAL_TRIPLETS in riichi on seat 2's discard: riichi 1 han; 20 + 10 (closed ron) + 16
    # + 2 (tanki) = 48 -> 50 fu; 50 x 2^3 = 400, x4 = 1600, plus 2 honba x 200 (100 from each other seat).
    context = WinContext(winner=1, dealer=0, discarder=2, riichi=True, honba=2)
    result = score_riichi(TERMINAL_TRIPLETS, SEVEN_SOU, SANMA, context)
    assert (result.han, result.fu) == (1, 50)
    assert result.per_payer == ((2, 2000),) and result.payments == (0, 2000, -2000)


def test_nuki_and_a_1m_indicator() -> None:
    # 1m shows 9m (three 999m: 3 dora); two norths set aside: 2 nuki dora; a West indicator
    # makes each north set aside one more dora: with both, 3 + 2 (nuki) + 2 (north dora) = 7.
    context = WinContext(winner=1, dealer=0, nuki=2, dora_indicators=(0, 29))
    result = score_riichi(TERMINAL_TRIPLETS, SEVEN_SOU, SANMA, context)
    names = {y.name: y.han for y in result.yaku}
    assert names == {"menzen_tsumo": 1, "dora": 5, "nuki_dora": 2}
    assert result.han == 8 and result.limit == "baiman"
    # Baiman 4000 basic: dealer pays 8000, the other 4000; north's share is lost.
    assert result.per_payer == ((0, 8000), (2, 4000))


def test_a_9m_indicator_shows_1m() -> None:
    result = score_riichi(TERMINAL_TRIPLETS, SEVEN_SOU, SANMA, WinContext(winner=0, dealer=0, dora_indicators=(8,)))
    assert {y.name: y.han for y in result.yaku}["dora"] == 3


@pytest.mark.parametrize(
    ("hand", "context", "field"),
    [
        (_hand("111m999m123p45677s"), WinContext(winner=0, dealer=0, dora_indicators=(2,)), "dora_indicators"),
        (
            _hand("111m999m123p45677s"),
            WinContext(winner=0, dealer=0, riichi=True, ura_indicators=(6,)),
            "ura_indicators",
        ),
        (_hand("345m999m123p45677s"), WinContext(winner=0, dealer=0), "hand"),
        (_hand("999m123p45677s", ("pon", "333m")), WinContext(winner=0, dealer=0), "melds[0].tiles"),
    ],
)
def test_absent_tiles_are_refused(hand: Hand, context: WinContext, field: str) -> None:
    with pytest.raises(AbsentTile) as error:
        score_riichi(hand, SEVEN_SOU, SANMA, context)
    assert error.value.field == field


@pytest.mark.parametrize(
    ("context", "field"),
    [
        (WinContext(winner=3, dealer=0), "winner"),
        (WinContext(winner=0, dealer=3), "dealer"),
        (WinContext(winner=0, dealer=0, discarder=3), "discarder"),
        # 4 norths exist; the hand holds none, so 5 cannot be set aside.
        (WinContext(winner=0, dealer=0, nuki=5), "nuki"),
        (WinContext(winner=0, dealer=0, nuki=-1), "nuki"),
    ],
)
def test_impossible_three_player_situations(context: WinContext, field: str) -> None:
    with pytest.raises(InvalidWinContext) as error:
        score_riichi(TERMINAL_TRIPLETS, SEVEN_SOU, SANMA, context)
    assert error.value.field == field


def test_nuki_counts_the_norths_held() -> None:
    # 444z pon held: only one north is left to set aside.  (Toitoi and sanankou are its yaku.)
    hand = _hand("111999m111p77s", ("pon", "444z"))
    assert {y.name: y.han for y in score_riichi(hand, SEVEN_SOU, SANMA, WinContext(0, 0, nuki=1)).yaku}[
        "nuki_dora"
    ] == 1
    with pytest.raises(InvalidWinContext):
        score_riichi(hand, SEVEN_SOU, SANMA, WinContext(0, 0, nuki=2))
    # Nor may an indicator show a north beyond the four.
    with pytest.raises(ValueError, match="copies"):
        score_riichi(hand, SEVEN_SOU, SANMA, WinContext(0, 0, nuki=1, dora_indicators=(NORTH,)))


def test_nuki_needs_three_seats() -> None:
    with pytest.raises(InvalidWinContext) as error:
        score_riichi(TERMINAL_TRIPLETS, SEVEN_SOU, rule_profile("riichi"), WinContext(winner=0, dealer=0, nuki=1))
    assert error.value.field == "nuki"


def test_a_chi_is_refused_where_the_rules_have_none() -> None:
    hand = _hand("111999m45677s", ("chi", "789p"))
    with pytest.raises(InvalidMeld) as error:
        score_riichi(hand, SEVEN_SOU, SANMA, WinContext(winner=1, dealer=0))
    assert error.value.field == "melds[0].kind"


# --- rinshan after a kita -------------------------------------------------------------
# At Tenhou the replacement tile drawn after setting a north aside is a dead-wall tile like
# a kong's: a self-draw on it is rinshan.  The scorer takes ``kong_replacement`` with a kong
# among the melds or, at three seats, with a north set aside (``nuki > 0``).


def test_rinshan_after_a_kita_needs_no_kong() -> None:
    # TERMINAL_TRIPLETS self-drawn, one north set aside: menzen_tsumo + nuki_dora = 2 han 40 fu
    # (basic 640); won on the kita's replacement, rinshan makes it 3 han 40 fu (basic 1280).
    # Non-dealer, tsumo loss: the dealer pays 2600, the other 1300.
    plain = score_riichi(TERMINAL_TRIPLETS, SEVEN_SOU, SANMA, WinContext(winner=1, dealer=0, nuki=1))
    context = WinContext(winner=1, dealer=0, nuki=1, kong_replacement=True)
    rinshan = score_riichi(TERMINAL_TRIPLETS, SEVEN_SOU, SANMA, context)
    assert (plain.han, plain.fu, plain.base_points) == (2, 40, 640)
    assert {y.name: y.han for y in rinshan.yaku} == {"menzen_tsumo": 1, "rinshan": 1, "nuki_dora": 1}
    assert (rinshan.han, rinshan.fu, rinshan.base_points) == (3, 40, 1280)
    assert rinshan.per_payer == ((0, 2600), (2, 1300))


def test_rinshan_after_a_kita_can_be_the_only_yaku() -> None:
    # Open (111p pon), no value honour, terminals: no yaku on an ordinary self-draw, and a
    # north set aside is only a dora.  On the kita's replacement, rinshan is a yaku: 1 han
    # + 1 nuki_dora; fu 20 + 2 (self-draw) + 8 + 8 (closed 111m 999m) + 4 (open 111p) + 2
    # (tanki) = 44 -> 50; basic 50 x 2^4 = 800: the dealer pays 1600, the other 800.
    hand = _hand("111999m45677s", ("pon", "111p"))
    with pytest.raises(NoYaku):
        score_riichi(hand, SEVEN_SOU, SANMA, WinContext(winner=1, dealer=0, nuki=1))
    result = score_riichi(hand, SEVEN_SOU, SANMA, WinContext(winner=1, dealer=0, nuki=1, kong_replacement=True))
    assert {y.name: y.han for y in result.yaku} == {"rinshan": 1, "nuki_dora": 1}
    assert (result.han, result.fu) == (2, 50)
    assert result.per_payer == ((0, 1600), (2, 800))


def test_ippatsu_and_rinshan_after_a_kita() -> None:
    # A seat in riichi sets aside the north it drew and wins on the replacement: whether the
    # kita ended ippatsu is the table's rule, so the scorer takes both flags as given.
    context = WinContext(winner=1, dealer=0, nuki=1, kong_replacement=True, riichi=True, ippatsu=True)
    result = score_riichi(TERMINAL_TRIPLETS, SEVEN_SOU, SANMA, context)
    assert {y.name for y in result.yaku} == {"riichi", "ippatsu", "menzen_tsumo", "rinshan", "nuki_dora"}


@pytest.mark.parametrize(
    ("rules", "hand", "context", "field"),
    [
        # No kong and no north set aside: the replacement followed nothing, at three seats or four.
        (SANMA, TERMINAL_TRIPLETS, WinContext(winner=1, dealer=0, kong_replacement=True), "kong_replacement"),
        (
            rule_profile("riichi"),
            TERMINAL_TRIPLETS,
            WinContext(winner=1, dealer=0, kong_replacement=True),
            "kong_replacement",
        ),
        # A kong but no north set aside: the replacement followed the kong, which ended ippatsu.
        (
            SANMA,
            _hand("999m123p45677s", ("closed_kan", "1111m")),
            WinContext(winner=1, dealer=0, kong_replacement=True, riichi=True, ippatsu=True),
            "ippatsu",
        ),
        # A replacement tile is never the last tile, nor the first draw.
        (
            SANMA,
            TERMINAL_TRIPLETS,
            WinContext(winner=1, dealer=0, nuki=1, kong_replacement=True, last_tile=True),
            "last_tile",
        ),
        (
            SANMA,
            TERMINAL_TRIPLETS,
            WinContext(winner=1, dealer=0, nuki=1, kong_replacement=True, first_turn=True),
            "first_turn",
        ),
    ],
)
def test_refused_replacement_wins(rules: RuleProfile, hand: Hand, context: WinContext, field: str) -> None:
    with pytest.raises(InvalidWinContext) as error:
        score_riichi(hand, SEVEN_SOU, rules, context)
    assert error.value.field == field

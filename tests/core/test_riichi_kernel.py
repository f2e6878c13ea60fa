"""The compiled riichi scorer against the plain-Python one it replaced (``riichi_reference``).

``score_riichi`` checks a request in Python and has the kernel (app/core/kernel/riichi.cpp)
score it; ``riichi_reference.score_riichi`` is the whole scorer as it was in Python.  On
generated wins (``riichi_situations``: closed and open hands, melds of every kind with kans,
red fives, dora and ura indicators, riichi, ippatsu, haitei, rinshan, chankan, first turns,
tsumo and ron, dealer or not, four and three seats with nukidora) under every combination of
the rule options riichi scoring reads, both give the same answer field for field (yaku names
and order, fu items, limit, reading, payments, per payer, sticks) or the same error.  Hands
that do not win and situations that cannot happen must fail the same way too.

Hypothesis is derandomized so CI sees the same examples on every run.
"""

from __future__ import annotations

import random
from typing import Any, Final

import pytest
import riichi_reference as reference
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from riichi_situations import random_situation

from app.core import _kernel
from app.core.errors import InvalidRuleOption, TenpaiError
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.rules import RuleProfile, SevenPairs, rule_profile
from app.core.shape.tiles import parse_mpsz
from app.core.value.riichi_scoring import (
    _check_request,
    _limit_of,
    _score_refused,
    kernel_options,
    riichi_payments,
    score_riichi,
    score_riichi_payments,
)
from app.core.value.scoring_context import WinContext

SETTINGS = settings(max_examples=1500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

rule_profiles = st.builds(
    lambda base, seven_pairs, orphans, double, tanyao, kazoe, kiriage, stacking, reds, loss: rule_profile(
        base,
        seven_pairs=seven_pairs,
        thirteen_orphans=orphans,
        double_yakuman=double,
        open_tanyao=tanyao,
        kazoe_limit=kazoe,
        kiriage=kiriage,
        yakuman_stacking=stacking,
        red_fives=reds,
        tsumo_loss=loss,
    ),
    st.sampled_from(("riichi", "sanma")),
    st.sampled_from(tuple(SevenPairs)),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.sampled_from(("yakuman", "sanbaiman")),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
seeds = st.integers(0, 2**32 - 1)


def outcome(scorer: Any, hand: Hand, win_tile: int, rules: RuleProfile, context: WinContext) -> tuple[Any, ...]:
    """The answer as a plain tuple (the two scorers' NamedTuples are different classes), or the error."""
    try:
        result = scorer(hand, win_tile, rules, context)
    except TenpaiError as error:
        return ("error", type(error).__name__, str(error), error.field)
    return ("score", *_plain(result))


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    return value


def assert_same(hand: Hand, win_tile: int, rules: RuleProfile, context: WinContext) -> tuple[Any, ...]:
    ours = outcome(score_riichi, hand, win_tile, rules, context)
    theirs = outcome(reference.score_riichi, hand, win_tile, rules, context)
    assert ours == theirs, f"{hand} win {win_tile} {rules} {context}"
    return ours


@SETTINGS
@given(seeds, rule_profiles)
def test_the_kernel_scores_generated_wins_as_the_reference_does(seed: int, rules: RuleProfile) -> None:
    situation = random_situation(random.Random(seed), rules=rules)
    assert_same(situation.hand, situation.win_tile, rules, situation.context)


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, rule_profiles, st.data())
def test_the_kernel_refuses_what_the_reference_refuses(seed: int, rules: RuleProfile, data: st.DataObject) -> None:
    """A generated win with one tile swapped (mostly not a win) and flags drawn freely (often impossible)."""
    rng = random.Random(seed)
    situation = random_situation(rng, rules=rules)
    hand, win_tile, context = situation.hand, situation.win_tile, situation.context
    tiles = [t for t in range(34) for _ in range(hand.counts[t])]
    if data.draw(st.booleans()):
        tiles[rng.randrange(len(tiles))] = rng.choice([t for t in range(34) if t not in rules.absent_tiles])
        try:
            hand = Hand.from_tiles(tiles, hand.melds)
        except TenpaiError:
            return
        win_tile = rng.choice(tiles)
    flags = data.draw(st.fixed_dictionaries({name: st.booleans() for name in FLAGS}))
    if data.draw(st.booleans()):
        context = context._replace(**flags)
    assert_same(hand, win_tile, rules, context)


FLAGS = ("riichi", "double_riichi", "ippatsu", "last_tile", "kong_replacement", "robbed_kong", "first_turn")


@pytest.mark.parametrize(
    ("tiles", "melds", "win_tile"),
    [
        ([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4], [], 4),  # 11122233344455m: many readings
        ([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 4], [], 4),  # junsei chuuren
        ([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33, 33], [], 33),  # 13-sided kokushi
        ([27, 27], [("pon", [28] * 3), ("open_kan", [29] * 4), ("closed_kan", [30] * 4), ("pon", [31] * 3)], 27),
        ([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7], [], 7),  # seven pairs or ryanpeikou
    ],
)
@pytest.mark.parametrize("rules", [rule_profile("riichi"), rule_profile("riichi", yakuman_stacking=False)])
def test_known_hands_agree(
    tiles: list[int], melds: list[tuple[str, list[int]]], win_tile: int, rules: RuleProfile
) -> None:
    hand = Hand.from_tiles(tiles, [Meld.of(kind, meld) for kind, meld in melds])
    for discarder in (None, 1):
        context = WinContext(winner=0, dealer=0, discarder=discarder, dora_indicators=(0,))
        assert assert_same(hand, win_tile, rules, context)[0] == "score"


@pytest.mark.parametrize("kazoe", ["yakuman", "sanbaiman"])
@pytest.mark.parametrize("kiriage", [False, True])
def test_limits_agree(kazoe: str, kiriage: bool) -> None:
    rules = rule_profile("riichi", kazoe_limit=kazoe, kiriage=kiriage)
    for han in range(1, 40):
        for fu in (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130):
            assert _limit_of(han, fu, rules) == reference._limit_of(han, fu, rules), (han, fu)


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("tsumo_loss", [False, True])
def test_payments_agree(seats: int, tsumo_loss: bool) -> None:
    for base in (240, 320, 960, 1920, 2000, 3000, 8000, 16000, 48000):
        for winner in range(seats):
            for dealer in range(seats):
                for discarder in (None, *(s for s in range(seats) if s != winner)):
                    for honba in (0, 1, 3):
                        args = (base, winner, dealer, discarder, honba)
                        ours = riichi_payments(*args, seats=seats, tsumo_loss=tsumo_loss)
                        assert ours == reference.riichi_payments(*args, seats=seats, tsumo_loss=tsumo_loss), args


def test_payments_refuse_a_seat_that_is_not_at_the_table() -> None:
    with pytest.raises(ValueError, match="winner"):
        riichi_payments(2000, 3, 0, None, 0, seats=3)


# -- the kernel's own checks ------------------------------------------------------------
#
# score_riichi has the kernel check a request (riichi_score_checked) and runs the Python checks
# (_check_request, then the kernel without checks) only when the kernel refuses it.  So every
# answer is the one of that slower path as long as the kernel never vouches for a request the
# Python checks refuse: tried here on generated wins with fields swapped for valid, impossible
# and wrongly typed values, and on hands and melds built without their checks.

#: Rule profiles whose options the kernel's checks read: chi refused, a meld required to win,
#: absent tiles, three seats, wildcards (riichi scoring refuses every request then).
CHECKED_PROFILES: Final = (
    rule_profile("riichi"),
    rule_profile("sanma"),
    rule_profile("riichi", chi_allowed=False),
    rule_profile("riichi", win_requires_meld=["pon", "added_kan"]),
    rule_profile("riichi", absent_tiles="2345678p"),
    rule_profile("riichi", wildcards="7z"),
)
#: Seats, winds, counts and tiles, valid or not, and values of the wrong type.
ODD_NUMBERS: Final = (-1, 0, 1, 2, 3, 4, 5, 13, 22, 27, 28, 30, 31, 33, 34, 2**40, True, False, 1.0, None, "1")
ODD_FLAGS: Final = (True, False, 0, 1, None)
INT_FIELDS: Final = ("winner", "dealer", "discarder", "round_wind", "honba", "riichi_sticks", "nuki")
TILE_FIELDS: Final = ("dora_indicators", "ura_indicators", "red_fives")


def _any_outcome(scorer: Any, *request: Any) -> tuple[Any, ...]:
    """The answer as a plain tuple, or the error of any kind with its message."""
    try:
        return ("answer", _plain(scorer(*request)))
    except Exception as error:  # the slow path's TypeError for a wrong type is an answer too
        return ("error", type(error).__name__, str(error), getattr(error, "field", None))


def _odd_melds(rng: random.Random, melds: tuple[Meld, ...]) -> tuple[Any, ...]:
    """The melds with one made without Meld.of's checks: a wrong shape, kind or type."""
    melds = tuple(melds)
    if not melds:
        return melds
    at = rng.randrange(len(melds))
    tile = melds[at].tiles[0]
    odd = rng.choice(
        [
            Meld(MeldKind.PON, (tile, tile, min(tile + 1, 33))),
            Meld(MeldKind.CHI, (tile, tile + 1, tile + 2) if tile < 32 else (31, 32, 33)),
            Meld(MeldKind.OPEN_KAN, (tile,) * 3),
            Meld(MeldKind.CLOSED_KAN, (tile,) * 4),
            Meld(MeldKind.PON, (True,) * 3),
            Meld(melds[at].kind, list(melds[at].tiles)),  # type: ignore[arg-type]
            Meld("pon", (tile,) * 3),  # type: ignore[arg-type]
        ]
    )
    return melds[:at] + (odd,) + melds[at + 1 :]


def odd_request(seed: int, rules: RuleProfile, data: st.DataObject) -> tuple[Any, Any, RuleProfile, Any]:
    """A generated win with up to three of its parts swapped for values the checks may refuse."""
    rng = random.Random(seed)
    situation = random_situation(rng, rules=rules if rules.seats == 3 else rule_profile("riichi"))
    hand: Any = situation.hand
    win_tile: Any = situation.win_tile
    context: Any = situation.context
    for change in data.draw(st.lists(st.sampled_from(CHANGES), max_size=3)):
        if change == "flag":
            context = context._replace(**{data.draw(st.sampled_from(FLAGS)): data.draw(st.sampled_from(ODD_FLAGS))})
        elif change == "number":
            context = context._replace(
                **{data.draw(st.sampled_from(INT_FIELDS)): data.draw(st.sampled_from(ODD_NUMBERS))}
            )
        elif change == "tiles":
            tiles = data.draw(st.lists(st.sampled_from(ODD_NUMBERS[:14] + (4, 13, 22, True)), max_size=7))
            name = data.draw(st.sampled_from(TILE_FIELDS))
            context = context._replace(**{name: tuple(tiles) if data.draw(st.booleans()) else tiles})
        elif change == "win_tile":
            win_tile = data.draw(st.sampled_from(ODD_NUMBERS))
        elif change == "counts":  # one count changed, the hand not checked: 5 copies, a tile more or less
            counts = bytearray(hand.counts)
            counts[rng.randrange(34)] = rng.choice((0, 1, 2, 5))
            hand = Hand(bytes(counts), hand.melds)
        elif change == "melds":
            hand = Hand(hand.counts, _odd_melds(rng, hand.melds))
        else:
            hand = Hand(hand.counts, list(hand.melds))  # type: ignore[arg-type]
    return hand, win_tile, rules, context


CHANGES: Final = ("flag", "flag", "number", "number", "tiles", "win_tile", "counts", "melds", "melds as a list")


@settings(max_examples=1500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, st.sampled_from(CHECKED_PROFILES), st.data())
def test_the_kernel_checks_never_pass_what_the_python_checks_refuse(
    seed: int, rules: RuleProfile, data: st.DataObject
) -> None:
    request = odd_request(seed, rules, data)
    checked = _kernel.riichi_score_checked(*request[:2], kernel_options(rules), request[3])
    slow = _any_outcome(_score_refused, *request)
    if checked != 3:  # vouched for: the Python checks pass, and the kernel scored it as without them
        vouched = ("answer", _plain(checked)) if isinstance(checked, tuple) else ("error", STATUS_ERRORS[checked])
        assert slow[: len(vouched)] == vouched, request
    assert _any_outcome(score_riichi, *request) == slow, request
    paid = _any_outcome(score_riichi_payments, *request)
    assert paid == (("answer", slow[1][0]) if slow[0] == "answer" else slow), request


STATUS_ERRORS: Final = {1: "NotAWinningHand", 2: "NoYaku"}


@pytest.mark.parametrize("rules", CHECKED_PROFILES[:5], ids=lambda rules: rules.name)
def test_the_kernel_vouches_for_every_generated_win(rules: RuleProfile) -> None:
    """The fast path is the one taken: a request the checks pass is never sent back to Python."""
    generated = rule_profile("sanma") if rules.seats == 3 else rule_profile("riichi")
    rng = random.Random(11)
    refused = []
    for _ in range(400):
        situation = random_situation(rng, rules=generated)
        hand, win_tile, context = situation.hand, situation.win_tile, situation.context
        try:
            _check_request(hand, win_tile, rules, context)
        except TenpaiError:
            continue
        if _kernel.riichi_score_checked(hand, win_tile, kernel_options(rules), context) == 3:
            refused.append(situation)
    assert refused == []


def test_a_wildcard_profile_is_refused_by_the_kernel_and_told_by_python() -> None:
    situation = random_situation(random.Random(3))
    rules = CHECKED_PROFILES[-1]
    assert (
        _kernel.riichi_score_checked(situation.hand, situation.win_tile, kernel_options(rules), situation.context) == 3
    )
    with pytest.raises(InvalidRuleOption, match="riichi scoring has no wildcards"):
        score_riichi(situation.hand, situation.win_tile, rules, situation.context)


def _base(mpsz: str, melds: tuple[tuple[str, str], ...] = ()) -> Hand:
    return Hand.from_tiles(parse_mpsz(mpsz), [Meld.of(kind, parse_mpsz(tiles)) for kind, tiles in melds])


CLOSED: Final = _base("123m456p789s11122z")  # 1m held once: a robbable winning tile
OPEN: Final = _base("123m456p11122z", (("chi", "789s"),))
CLOSED_KAN: Final = _base("123m456p11122z", (("closed_kan", "5555s"),))
RON: Final = WinContext(winner=0, dealer=0, discarder=1)
TSUMO: Final = WinContext(winner=0, dealer=0)
RIICHI: Final = rule_profile("riichi")

#: One request per check of _check_request, each breaking that check alone on a request it passes.
BROKEN_ONE_CHECK: Final = {
    "win tile not held": (RIICHI, CLOSED, 5, RON),
    "win tile not a tile": (RIICHI, CLOSED, 34, RON),
    "13 tiles": (RIICHI, _base("123m456p789s1112z"), 0, RON),
    "wildcards": (rule_profile("riichi", wildcards="7z"), CLOSED, 0, RON),
    "no meld the rules need": (rule_profile("riichi", win_requires_meld=["pon"]), OPEN, 0, RON),
    "an absent tile in hand": (rule_profile("riichi", absent_tiles="4p"), CLOSED, 0, RON),
    "an absent tile in a meld": (rule_profile("riichi", absent_tiles="8s"), OPEN, 0, RON),
    "an absent dora indicator": (
        rule_profile("riichi", absent_tiles="5m"),
        CLOSED,
        0,
        RON._replace(dora_indicators=(4,)),
    ),
    "an absent ura indicator": (
        rule_profile("riichi", absent_tiles="5m"),
        CLOSED,
        0,
        RON._replace(riichi=True, ura_indicators=(4,)),
    ),
    "a chi the rules refuse": (rule_profile("riichi", chi_allowed=False), OPEN, 0, RON),
    "winner not at the table": (RIICHI, CLOSED, 0, RON._replace(winner=4)),
    "winner a bool": (RIICHI, CLOSED, 0, RON._replace(winner=False)),
    "dealer not at the table": (RIICHI, CLOSED, 0, RON._replace(dealer=-1)),
    "discarder not at the table": (RIICHI, CLOSED, 0, RON._replace(discarder=4)),
    "the winner discarded": (RIICHI, CLOSED, 0, RON._replace(discarder=0)),
    "winner 3 at three seats": (rule_profile("sanma"), CLOSED, 0, RON._replace(winner=3)),
    "kong replacement on a discard": (RIICHI, CLOSED_KAN, 0, RON._replace(kong_replacement=True)),
    "robbed kong on a self-draw": (RIICHI, CLOSED, 0, TSUMO._replace(robbed_kong=True)),
    "round wind not a wind": (RIICHI, CLOSED, 0, RON._replace(round_wind=31)),
    "riichi with an open meld": (RIICHI, OPEN, 0, RON._replace(riichi=True)),
    "double riichi with an open meld": (RIICHI, OPEN, 0, RON._replace(double_riichi=True)),
    "ippatsu without riichi": (RIICHI, CLOSED, 0, RON._replace(ippatsu=True)),
    "kong replacement without a kong": (RIICHI, CLOSED, 0, TSUMO._replace(kong_replacement=True)),
    "kong replacement with ippatsu": (
        RIICHI,
        CLOSED_KAN,
        0,
        TSUMO._replace(kong_replacement=True, riichi=True, ippatsu=True),
    ),
    "kong replacement on the last tile": (RIICHI, CLOSED_KAN, 0, TSUMO._replace(kong_replacement=True, last_tile=True)),
    "robbed kong of a tile held twice": (RIICHI, CLOSED, 27, RON._replace(robbed_kong=True)),
    "robbed kong of a tile in a meld": (
        RIICHI,
        _base("123m456p789s11z", (("chi", "789s"),)),
        25,
        RON._replace(robbed_kong=True),
    ),
    "robbed kong on the last tile": (RIICHI, CLOSED, 0, RON._replace(robbed_kong=True, last_tile=True)),
    "first turn on a discard": (RIICHI, CLOSED, 0, RON._replace(first_turn=True)),
    "first turn with a meld": (RIICHI, CLOSED_KAN, 0, TSUMO._replace(first_turn=True)),
    "first turn in riichi": (RIICHI, CLOSED, 0, TSUMO._replace(first_turn=True, riichi=True)),
    "first turn on the last tile": (RIICHI, CLOSED, 0, TSUMO._replace(first_turn=True, last_tile=True)),
    "honba below 0": (RIICHI, CLOSED, 0, RON._replace(honba=-1)),
    "riichi sticks below 0": (RIICHI, CLOSED, 0, RON._replace(riichi_sticks=-1)),
    "nuki at four seats": (RIICHI, CLOSED, 0, RON._replace(nuki=1)),
    "nuki below 0": (rule_profile("sanma"), CLOSED, 0, RON._replace(nuki=-1)),
    "a fifth north set aside": (rule_profile("sanma"), CLOSED, 0, RON._replace(nuki=3)),
    "six dora indicators": (RIICHI, CLOSED, 0, RON._replace(dora_indicators=(9, 9, 9, 10, 10, 10))),
    "an indicator not a tile": (RIICHI, CLOSED, 0, RON._replace(dora_indicators=(34,))),
    "a fifth copy shown by indicators": (RIICHI, CLOSED, 0, RON._replace(dora_indicators=(27, 27), ura_indicators=())),
    "a fifth copy with the robbed kong": (RIICHI, CLOSED, 0, RON._replace(robbed_kong=True, dora_indicators=(0, 0))),
    "a red five that is no five": (RIICHI, CLOSED, 0, RON._replace(red_fives=(5,))),
    "a red five not held": (RIICHI, CLOSED, 0, RON._replace(red_fives=(4,))),
    "two red fives of one held": (RIICHI, CLOSED, 0, RON._replace(red_fives=(13, 13))),
}


@pytest.mark.parametrize("case", BROKEN_ONE_CHECK, ids=str)
def test_the_kernel_refuses_each_check_python_makes(case: str) -> None:
    rules, hand, win_tile, context = BROKEN_ONE_CHECK[case]
    with pytest.raises(TenpaiError):
        _check_request(hand, win_tile, rules, context)
    assert _kernel.riichi_score_checked(hand, win_tile, kernel_options(rules), context) == 3


def test_the_kernel_vouches_for_the_cases_each_check_breaks_once_fixed() -> None:
    """The bases the cases above break are themselves taken by the kernel (else the cases prove nothing)."""
    for hand, win_tile, context in ((CLOSED, 0, RON), (OPEN, 0, RON), (CLOSED_KAN, 0, TSUMO)):
        assert _kernel.riichi_score_checked(hand, win_tile, kernel_options(RIICHI), context) != 3
        _check_request(hand, win_tile, RIICHI, context)

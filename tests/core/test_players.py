"""Strategies' decisions on hands whose right answer is plain."""

from __future__ import annotations

import random

import pytest

from app.core.advice.discard import MAX_VALUE_SHANTEN, DiscardModel, evaluate_discards
from app.core.advice.reads import OPEN_COST_FACTOR
from app.core.advice.safety import Opponent
from app.core.families.registry import TABLES, family_of
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import parse_mpsz
from app.core.table.players import (
    ADVISOR_VALUE_SHANTEN,
    FAR_DETOURS,
    VALUE_BUDGET,
    VALUE_SHANTEN,
    Advisor,
    Greedy,
    Heuristic,
    LinearAdvisor,
    NearAdvisor,
    RandomPlayer,
    SeatView,
    is_threat,
    make_player,
    tile_value,
)

CALLERS = (Advisor, LinearAdvisor, Greedy, Heuristic)
#: The strategies that call by rules of thumb (the advisor values its calls under riichi).
RULE_CALLERS = (LinearAdvisor, Greedy, Heuristic)


def _view(rules_name: str, tiles: str, melds: tuple[Meld, ...] = (), drawn: int | None = None) -> SeatView:
    rules = rule_profile(rules_name)
    hand = Hand.from_tiles(parse_mpsz(tiles), melds)
    return SeatView(0, hand, drawn, 5, (Opponent(),) * 3, (), 60, rules, Checker(rules))


@pytest.mark.parametrize("kind", CALLERS)
def test_a_pon_that_lowers_the_shanten_is_called_one_that_does_not_is_passed(kind):
    player = kind()
    pon = Meld.of("pon", parse_mpsz("111z"))
    # 1-shanten (three runs, the 1z pair, 5z and 9m): the pon leaves a ready hand.
    assert player.call(_view("chinese", "123m456p789s11z5z9m"), 27, [pon]) == pon
    # Ready on 3m-6m: the pon takes the pair, and the hand is only ready again on a single wait.
    assert player.call(_view("chinese", "123m456p789s11z45m"), 27, [pon]) is None


@pytest.mark.parametrize("kind", CALLERS)
def test_under_qiqihar_the_pon_that_opens_the_hand_is_called_even_at_equal_shanten(kind):
    player = kind()
    # Ready on 3m-6m, but closed: under Qiqihar it can never win. The pon keeps it ready and opens it.
    view = _view("qiqihar", "123m456p789s11z45m")
    pon = Meld.of("pon", parse_mpsz("111z"))
    assert view.checker.shanten_number(view.hand) == 0
    assert player.call(view, 27, [pon]) == pon
    # Once open, the same call at equal shanten is passed (a chi does not open a Qiqihar hand).
    opened = _view("qiqihar", "123m456p11z45m", (Meld.of("pon", parse_mpsz("999s")),))
    assert player.call(opened, 27, [pon]) is None


@pytest.mark.parametrize("kind", CALLERS)
def test_a_chi_is_called_only_when_it_lowers_the_shanten(kind):
    player = kind()
    chi = Meld.of("chi", parse_mpsz("123m"))
    assert player.call(_view("chinese", "23m456p789s11z559s"), 0, [chi]) == chi
    # 5m into 345m breaks 234m: the shanten stays 1, so the chi is passed.
    assert player.call(_view("chinese", "234m456p789s11z5z7z"), 4, [Meld.of("chi", parse_mpsz("345m"))]) is None


@pytest.mark.parametrize("kind", CALLERS)
def test_a_closed_kong_that_keeps_the_shanten_is_declared(kind):
    player = kind()
    view = _view("chinese", "1111m456p789s11z55z", drawn=0)
    kong = Meld(MeldKind.CLOSED_KAN, (0,) * 4)
    assert player.kan(view, [kong]) == kong
    # Four 5m in 345m 555m 6789m: declaring takes the 5m out of the runs, raising the shanten.
    view = _view("chinese", "3455556789m11z22z", drawn=4)
    assert player.kan(view, [Meld(MeldKind.CLOSED_KAN, (4,) * 4)]) is None


def test_discards_are_tiles_held_and_greedy_keeps_the_lowest_shanten():
    view = _view("riichi", "123m456p789s111z2z5z", drawn=31)
    checker = view.checker
    for name in ("advisor", "linear", "greedy", "heuristic", "random"):
        tile = make_player(name, rng=random.Random(3)).discard(view)
        assert view.hand.counts[tile] > 0
    greedy_choices = {Greedy(rng=random.Random(seed)).discard(view) for seed in range(20)}
    assert greedy_choices == {28, 31}  # 2z or 5z: either leaves a single wait on the other
    assert all(
        checker.shanten_number(Hand(bytes(c - (t == tile) for t, c in enumerate(view.hand.counts)))) == 0
        for tile in greedy_choices
    )


def test_the_heuristic_throws_lone_honours_and_terminals_first():
    # Seed 001 (its intent): honours -30, terminals -15, +20 per neighbour, +10 for another copy.
    # 6s, 9s and 5z each leave the hand ready; 6s has two neighbours, 9s is a terminal with two.
    view = _view("riichi", "1m5z345p678s22334m9s", drawn=0)
    assert Heuristic().discard(view) == 31  # 5z
    counts = Hand.from_tiles(parse_mpsz("24m1z")).counts
    assert (tile_value(2, counts), tile_value(17, counts), tile_value(27, counts)) == (40, -15, -20)


def test_random_player_is_reproducible_from_its_seed():
    view = _view("riichi", "123m456p789s111z2z5z", drawn=31)
    first = [RandomPlayer(rng=random.Random(9)).discard(view) for _ in range(5)]
    assert first == [RandomPlayer(rng=random.Random(9)).discard(view) for _ in range(5)]


def _riichi_view(
    tiles: str, melds: tuple[Meld, ...] = (), value_honors: tuple[int, ...] = (27, 31, 32, 33)
) -> SeatView:
    rules = rule_profile("riichi")
    hand = Hand.from_tiles(parse_mpsz(tiles), melds)
    return SeatView(0, hand, None, 5, (Opponent(),) * 3, (), 60, rules, Checker(rules), True, value_honors)


@pytest.mark.parametrize("kind", RULE_CALLERS)
def test_where_a_win_needs_a_yaku_a_hand_is_opened_only_with_one_in_sight(kind):
    player = kind()
    # 1-shanten either way; the pon of 9p lowers the shanten but leaves 1m and 9p: no yaku in sight.
    pon_9p = Meld.of("pon", parse_mpsz("999p"))
    yakuless = _riichi_view("123m99p456s78s1m44z")
    assert player.call(yakuless, 17, [pon_9p]) is None
    # Without the yaku rule (the same tiles at a table that scores any shape) the pon is called.
    assert player.call(yakuless._replace(needs_yaku=False), 17, [pon_9p]) == pon_9p
    # A dragon pon is a yaku by itself: called.
    pon_white = Meld.of("pon", parse_mpsz("555z"))
    assert player.call(_riichi_view("123m19p456s78s55z9m"), 31, [pon_white]) == pon_white
    # All simples in reach (open tanyao): a chi of 3-4-5m is called; a seat wind that is
    # not this seat's is no yaku.
    chi = Meld.of("chi", parse_mpsz("345m"))
    assert player.call(_riichi_view("34m456p678s2288s2z"), 4, [chi]) == chi
    pon_south = Meld.of("pon", parse_mpsz("222z"))
    assert player.call(_riichi_view("123m19p456s78s22z9m"), 28, [pon_south]) is None
    assert player.call(_riichi_view("123m19p456s78s22z9m", value_honors=(28, 31, 32, 33)), 28, [pon_south]) == pon_south


def _sanma_view(tiles: str, drawn: int | None = None, visible: bytes | None = None) -> SeatView:
    rules = rule_profile("sanma")
    hand = Hand.from_tiles(parse_mpsz(tiles))
    return SeatView(
        0, hand, drawn, 5, (Opponent(),) * 2, (), 40, rules, Checker(rules), True, (27, 31, 32, 33), visible
    )


@pytest.mark.parametrize("kind", CALLERS)
def test_a_north_is_set_aside_unless_the_hand_needs_it(kind):
    player = kind()
    # A lone north: setting it aside is as good as the best discard (and draws a tile).
    assert player.kita(_sanma_view("19m123456p12345s4z"), 30)
    # Three norths in the shape: 99m 123456p 12s 444z is ready on 3s after the 5z goes; without a
    # north it is not (the triplet is broken): kept.
    assert not player.kita(_sanma_view("99m123456p12s4445z"), 30)
    # In riichi the table asks only about the drawn north of a ready hand: set aside.
    assert player.kita(_sanma_view("99m123456p123s11z4z", drawn=30), 30)


def test_random_player_sets_norths_aside_about_half_the_time():
    rng = random.Random(4)
    answers = [RandomPlayer(rng=rng).kita(_sanma_view("19m123456p12345s4z"), 30) for _ in range(200)]
    assert 70 < sum(answers) < 130


def test_the_advisor_counts_norths_set_aside_as_seen(monkeypatch):
    """Norths set aside are face up: the advisor is told them (``visible``), so they are not
    counted among the tiles still to come."""
    from app.core.table import players

    seen = {}
    real = players.evaluate_discards

    def spy(hand, rules, **options):
        seen.update(options)
        return real(hand, rules, **options)

    monkeypatch.setattr(players, "evaluate_discards", spy)
    visible = bytes(30 * [0] + [2] + 3 * [0])
    tile = Advisor().discard(_sanma_view("19m123456p12345s4z", visible=visible))
    assert seen["visible"] == visible and tile in parse_mpsz("19m123456p12345s4z")


def _spy_on_evaluate_discards(monkeypatch) -> list[dict]:
    """Every call the advisors make to ``evaluate_discards``: its keyword arguments."""
    from app.core.table import players

    calls: list[dict] = []
    real = players.evaluate_discards

    def spy(hand, rules, **options):
        calls.append({"rules": rules, **options})
        return real(hand, rules, **options)

    monkeypatch.setattr(players, "evaluate_discards", spy)
    return calls


def _seat_view(rules_name: str, tiles: str, seat_wind: int = 28) -> SeatView:
    rules = rule_profile(rules_name)
    hand = Hand.from_tiles(parse_mpsz(tiles))
    return SeatView(
        1,
        hand,
        None,
        6,
        (Opponent(),) * (rules.seats - 1),
        (17,),
        60,
        rules,
        Checker(rules),
        True,
        seat_wind=seat_wind,
    )


# Ready or one-shanten riichi hands (1p is dora) where the expected score and the linear score
# part ways: (hand, the linear model's discard, the expected score's).
PARTING_HANDS = (
    # Ready on a 5z or 9m single wait, or one from a wider wait with the 79m shape kept.
    ("345m22p456s789s5z79m", "5z", "9m"),
    # A bare 3p or 9p single wait, or one-shanten toward an all-simples hand.
    ("234567m39p666789s", "9p", "9s"),
    # Both dragon pairs kept (each a yaku once called or drawn) rather than the 13s shape.
    ("123m78p13999s5577z", "5z", "1s"),
)


@pytest.mark.parametrize(("tiles", "linear", "valued"), PARTING_HANDS)
def test_the_advisor_ranks_riichi_hands_near_tenpai_by_expected_score(monkeypatch, tiles, linear, valued):
    calls = _spy_on_evaluate_discards(monkeypatch)
    view = _seat_view("riichi", tiles)
    assert Advisor().discard(view) == parse_mpsz(valued)[0]
    (call,) = calls
    assert call["model"] is DiscardModel.EXPECTED_SCORE
    assert (call["seat_wind"], call["round_wind"], call["turn"]) == (28, 27, 6)
    assert call["value_budget"] == VALUE_BUDGET and "deadline" not in call  # states bound it, never a clock
    assert not call["rules"].red_fives  # the table deals none
    calls.clear()
    assert make_player("linear").discard(view) == parse_mpsz(linear)[0]
    (call,) = calls
    assert "model" not in call and call["rules"] is view.rules


def test_far_from_tenpai_or_without_a_value_model_the_advisor_is_the_linear_one(monkeypatch):
    calls = _spy_on_evaluate_discards(monkeypatch)
    # Five from tenpai: the linear model ranks (the search without detours hits its budget there).
    far = _seat_view("riichi", "147m258p369s12557z")
    assert far.checker.shanten_number(far.hand) > ADVISOR_VALUE_SHANTEN
    # Four from tenpai: the advisor searches without detours (tens of ms), past the cut a question
    # has by default (``/discard``'s, whose search takes a detour).
    four = _seat_view("riichi", "147m258p369s11557z")
    assert MAX_VALUE_SHANTEN < four.checker.shanten_number(four.hand) == ADVISOR_VALUE_SHANTEN
    # Three from tenpai: the advisor searches (no detour), the advisor before it (``near``) does not.
    middle = _seat_view("riichi", "13m2579p1368s1225z")
    assert VALUE_SHANTEN < middle.checker.shanten_number(middle.hand) <= MAX_VALUE_SHANTEN
    near = _seat_view("riichi", PARTING_HANDS[0][0])
    # Chinese Official scoring has no value model: its advisor is the linear one.
    chinese = _seat_view("chinese", PARTING_HANDS[0][0])
    for view in (far, chinese):
        assert not Advisor().values(view)
        calls.clear()
        assert Advisor().discard(view) == LinearAdvisor().discard(view)
        assert all("model" not in call for call in calls)
    assert Advisor().values(middle) and not NearAdvisor().values(middle)
    calls.clear()
    Advisor().discard(middle)
    assert calls[0]["model"] is DiscardModel.EXPECTED_SCORE and calls[0]["value_detours"] == FAR_DETOURS
    assert Advisor().values(four) and not NearAdvisor().values(four)
    calls.clear()
    ranked = Advisor().rank(four)
    assert calls[0]["value_shanten"] == ADVISOR_VALUE_SHANTEN and calls[0]["value_detours"] == FAR_DETOURS
    assert all(candidate.expected is not None for candidate in ranked)
    assert Advisor().values(near) and NearAdvisor().values(near) and not LinearAdvisor().values(near)


def test_the_sanma_advisor_ranks_by_expected_score(monkeypatch):
    # Sanma's three seats are valued like four: near tenpai the expected score ranks, with the
    # seat's norths set aside, and the search never sees a copy of 2m-8m.
    calls = _spy_on_evaluate_discards(monkeypatch)
    # The table lists every north set aside, this seat's too, among the tiles seen (``visible``).
    norths = bytes(1 if tile == 30 else 0 for tile in range(34))
    view = _seat_view("sanma", "99m123p456p789s11z4z")._replace(nuki=1, visible=norths)
    assert Advisor().values(view) and view.checker.shanten_number(view.hand) <= VALUE_SHANTEN
    calls.clear()
    Advisor().discard(view)
    assert calls[0]["model"] is DiscardModel.EXPECTED_SCORE and calls[0]["nuki"] == 1
    situation = Advisor().situation(view)
    assert situation.nuki == 1 and not any(situation.unseen[tile] for tile in view.rules.absent_tiles)
    assert sum(situation.unseen) == 108 - 14 - 1 - 1  # the hand, the dora indicator and the north


def test_the_advisor_charges_for_dealing_in_only_where_an_opponent_may_be_ready():
    # Turn 11, one-shanten; 8s is the discard of most expected points, 1s the safe one.
    rules = rule_profile("riichi")
    rivers = [tuple(parse_mpsz(river)) for river in ("19m19p19s1234z9m1p", "19m19p19s1234z8s2p", "19m19p19s5672z7s3m")]
    hand = Hand.from_tiles(parse_mpsz("227m33678p123458s"))
    silent = tuple(Opponent(river=river) for river in rivers)

    def view(opponents: tuple[Opponent, ...]) -> SeatView:
        return SeatView(0, hand, None, 11, opponents, (17,), 30, rules, Checker(rules), True, seat_wind=28)

    def charged_for_everyone(opponents: tuple[Opponent, ...], danger_reads: bool = True) -> int:
        ranked = evaluate_discards(
            hand,
            rules,
            dora_indicators=(17,),
            opponents=opponents,
            turn=11,
            model=DiscardModel.EXPECTED_SCORE,
            seat_wind=28,
            danger_reads=danger_reads,
        )
        return ranked[0].tile

    eight_sou, one_sou = parse_mpsz("8s1s")
    # Silent closed hands: the ranking's danger before the reads (each ready 32% of the time by
    # turn 11, the share of all players) would throw the safe 1s.  Read by the silent hands' own
    # rate (under 8%), they are rarely ready, and the ranking too plays for points.
    assert charged_for_everyone(silent, danger_reads=False) == one_sou
    assert charged_for_everyone(silent) == eight_sou
    assert not any(is_threat(opponent) for opponent in silent)
    assert Advisor().discard(view(silent)) == eight_sou
    # A declared riichi that 8s may deal into: the advisor folds, as the ranking does.
    declared = (Opponent(river=rivers[0], riichi=True, riichi_turn=12), *silent[1:])
    assert Advisor().discard(view(declared)) == charged_for_everyone(declared) == one_sou
    # An opponent who has called may be ready silently, but is charged nothing either (see is_threat).
    called = (Opponent(river=rivers[0], melds=(Meld.of("pon", parse_mpsz("777z")),)), *silent[1:])
    assert not is_threat(called[0]) and is_threat(declared[0])
    assert Advisor().discard(view(called)) == eight_sou


def test_with_nobody_declared_the_advisor_charges_an_open_seat_and_near_does_not():
    # Turn 11, a ready hand: throwing 7s keeps the most points.  A seat with two pons shown is
    # ready 62% of the time at this turn (mahjong-helper's published rate), and 7s is fresh to
    # it where the 2s is safer: charged at that chance and 0.45 of a declared seat's cost, the
    # 2s is worth more.
    rules = rule_profile("riichi")
    rivers = [tuple(parse_mpsz(river)) for river in ("19m19p19s1234z9m1p", "19m19p19s1234z8s2p", "19m19p19s5672z7s3m")]
    hand = Hand.from_tiles(parse_mpsz("566m7m55p888p2345s7s"))
    pons = tuple(Meld.of("pon", parse_mpsz(tiles)) for tiles in ("777z", "666z"))

    class Uncharged(Advisor):
        open_seat_cost = 0.0

    def view(first: Opponent) -> SeatView:
        opponents = (first, *(Opponent(river=river) for river in rivers[1:]))
        return SeatView(0, hand, None, 11, opponents, (17,), 30, rules, Checker(rules), True, seat_wind=28)

    two_sou, seven_sou = parse_mpsz("2s7s")
    opened, closed = view(Opponent(river=rivers[0], melds=pons)), view(Opponent(river=rivers[0]))
    assert Advisor.open_seat_cost == OPEN_COST_FACTOR and NearAdvisor.open_seat_cost == 0.0
    assert Advisor().discard(opened) == two_sou
    assert Uncharged().discard(opened) == NearAdvisor().discard(opened) == seven_sou
    # A closed seat that has not declared is still charged nothing.
    assert Advisor().discard(closed) == Uncharged().discard(closed) == seven_sou


@pytest.mark.parametrize("rules_name", ["riichi", "sanma", "mcr"])
def test_decide_without_the_ranking_picks_the_same_action(rules_name):
    # Self-play asks only for the pick (rank=False); /act for the pick and every action ranked.
    # At every decision of seeded games, each strategy (seeded alike) picks the same either way.
    from app.core.table.decide import decide
    from app.core.table.game import GameConfig, play_game
    from app.core.table.machine import TableMachine

    rules = rule_profile(rules_name)
    names = ("random", "greedy", "heuristic", "linear")[: rules.seats]
    decisions = 0
    for game in range(2):
        record = play_game(GameConfig(rules_name, names, seed=11, length="kyoku"), game, TABLES)
        machine = TableMachine(rules, family_of(rules))
        for index, event in enumerate(record.events):
            machine.apply_object(event, index)
            for seat in machine.decision_seats():
                for name in names:
                    ranked = decide(machine, seat, make_player(name, rng=random.Random(index)))
                    pick = decide(machine, seat, make_player(name, rng=random.Random(index)), rank=False)
                    assert pick.action == ranked.action and pick.ranked == ()
                    decisions += 1
    assert decisions > 100

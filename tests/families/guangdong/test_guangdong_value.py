"""The Guangdong value model against a direct enumeration of the draws, on small hands.

The enumeration is written here from the model's definition (app/core/families/guangdong/value.py):
each draw comes from the wall (the unseen copies less what the hand has gained); a ready hand wins
on a drawn tile that completes it, collecting three shares, a share being the scorer's hand
points times one plus the expected horse hits (each horse names the winner's seat with the chance
that an unseen tile does, the text's lists); a draw that lowers the shanten is kept with the best
discard that keeps the new shanten, any other is thrown.  Wins are found by asking whether the
hand with the drawn tile wins, and each is scored by ``score_guangdong``.
"""

from __future__ import annotations

from functools import cache

import pytest

from app.core.families.guangdong.options import GhostMode, GuangdongOptions, HorsePayout
from app.core.families.guangdong.scoring import score_guangdong
from app.core.families.guangdong.tiles import hand_rules
from app.core.families.guangdong.value import discard_values, horse_chance, win_worth
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.tiles import parse_mpsz, parse_tile
from app.core.value.scoring_context import WinContext

#: The text's horse lists, by the seat they name counted from the dealer (0 the dealer).
HORSE_LISTS = {
    0: "159m159p159s1z",
    1: "26m26p26s27z",
    2: "37m37p37s36z",
    3: "48m48p48s45z",
}


def naming(seat_offset: int) -> set[int]:
    return set(parse_mpsz(HORSE_LISTS[seat_offset]))


def enumerate_discards(hand: Hand, ghost, options: GuangdongOptions, draws: int, seat_offset: int) -> dict[int, tuple]:
    """(win probability, expected points) of each discard, by enumerating the draws."""
    checker = Checker(hand_rules(options, ghost))
    start_wall = checker.remaining(hand)
    melds = hand.melds
    winner = seat_offset  # dealer 0

    def wall_of(counts: bytes, start: bytes) -> list[int]:
        return [max(0, w - max(0, c - s)) for w, c, s in zip(start_wall, counts, start, strict=True)]

    def worth(counts: bytes, tile: int, wall: list[int]) -> float:
        grown = bytearray(counts)
        grown[tile] += 1
        whole = Hand(bytes(grown), melds)
        score = score_guangdong(whole, tile, WinContext(winner=winner, dealer=0), options, ghost=ghost)
        held = whole.counts[ghost] if ghost is not None else 0
        horses = options.horses_without_ghost if ghost is not None and held == 0 else options.horses
        chance = sum(wall[t] for t in naming(seat_offset)) / sum(wall)
        hits = horses * chance
        share = score.hand_points * (1 + hits) if options.horse_payout is HorsePayout.HAND else score.hand_points + hits
        return 3 * share

    def make(start: bytes):
        # The wall is the 14-tile hand's unseen copies less what the hand has gained on it (the
        # model's reference for every discard: a discarded tile drawn again was not gained).
        @cache
        def shanten(counts: bytes) -> int:
            return checker.shanten_number(Hand(counts, melds))

        @cache
        def value(counts: bytes, left: int) -> tuple[float, float]:
            if left == 0:
                return 0.0, 0.0
            wall = wall_of(counts, start)
            total = sum(wall)
            now = shanten(counts)
            win = points = 0.0
            stay = 1.0
            for tile in range(34):
                if not wall[tile] or counts[tile] >= 4:
                    continue
                p = wall[tile] / total
                grown = bytearray(counts)
                grown[tile] += 1
                if now == 0:
                    if checker.is_win(Hand(bytes(grown), melds)):
                        win += p
                        points += p * worth(counts, tile, wall)
                        stay -= p
                    continue
                children = []
                for discard in range(34):
                    if grown[discard]:
                        grown[discard] -= 1
                        children.append(bytes(grown))
                        grown[discard] += 1
                kept = [child for child in children if shanten(child) == now - 1]
                if kept:
                    win += p * max(value(child, left - 1)[0] for child in kept)
                    points += p * max(value(child, left - 1)[1] for child in kept)
                    stay -= p
            later = value(counts, left - 1)
            return win + stay * later[0], points + stay * later[1]

        return value

    value = make(hand.counts)
    answers = {}
    for tile in range(34):
        if hand.counts[tile]:
            after = bytearray(hand.counts)
            after[tile] -= 1
            start = bytes(after)
            answers[tile] = value(start, draws)
    return answers


CASES = [
    # (concealed tiles, melds, ghost, options, draws, seat offset)
    (
        "12m5z9p7s",
        (("pon", "111z"), ("pon", "999s"), ("closed_kan", "2222z")),
        31,
        GuangdongOptions(ghost=GhostMode.WHITE),
        3,
        1,
    ),
    (
        "13m5z11s",
        (("pon", "111z"), ("pon", "999s"), ("pon", "777z")),
        31,
        GuangdongOptions(ghost=GhostMode.WHITE),
        3,
        0,
    ),
    (
        "24m6p88s",
        (("pon", "111z"), ("pon", "999s"), ("pon", "777z")),
        None,
        GuangdongOptions(ghost=GhostMode.NONE),
        3,
        2,
    ),
    (
        "345m1p55z88s",
        (("pon", "111z"), ("open_kan", "9999s")),
        parse_tile("1p"),
        GuangdongOptions(horse_payout=HorsePayout.BASE, horses_without_ghost=8),
        2,
        3,
    ),
]


@pytest.mark.parametrize(("text", "melds", "ghost", "options", "draws", "seat"), CASES)
def test_discard_values_match_the_enumeration(text, melds, ghost, options, draws, seat):
    hand = Hand.from_tiles(parse_mpsz(text), [Meld.of(kind, parse_mpsz(tiles)) for kind, tiles in melds])
    checker = Checker(hand_rules(options, ghost))
    found = discard_values(
        hand, checker, checker.remaining(hand), ghost=ghost, options=options, seat_offset=seat, draws=draws
    )
    assert found.complete
    expected = enumerate_discards(hand, ghost, options, draws, seat)
    assert {value.tile for value in found.discards} == set(expected)
    for value in found.discards:
        win, points = expected[value.tile]
        assert value.win_probability == pytest.approx(win, abs=1e-12), value
        assert value.expected_score == pytest.approx(points, abs=1e-9), value
    assert any(points > 0 for _, points in expected.values())


def test_horse_chance_reads_the_texts_lists():
    wall = [1] * 34
    for offset in range(4):
        assert horse_chance(wall, offset) == pytest.approx(len(naming(offset)) / 34)


def test_a_win_is_worth_three_shares():
    """白 ghost, a hand holding none: 平胡 1 x 无鬼 2; six horses, each naming the winner with
    chance 1/4: a share is 2 x (1 + 1.5) = 5, and three shares 15."""
    options = GuangdongOptions(ghost=GhostMode.WHITE)
    win = Hand.from_tiles(parse_mpsz("123m456p789s111z55s"))
    assert win_worth(win, parse_tile("5s"), 31, options, 0.25) == pytest.approx(15.0)
    assert win_worth(Hand.from_tiles(parse_mpsz("124m456p789s111z55s")), parse_tile("5s"), 31, options, 0.25) == 0.0

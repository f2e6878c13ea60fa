"""Random complete Sichuan wins for the tests: hands of one or two suits with melds (kongs
among them) or seven pairs, and situations that can happen with them."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, NamedTuple

from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import RuleProfile, rule_profile
from app.core.value.scoring_context import WinContext

MELD_KINDS = ("pon", "open_kan", "closed_kan", "added_kan")


class Deal(NamedTuple):
    concealed: list[int]
    melds: list[tuple[str, int]]

    def hand(self) -> Hand:
        return Hand.from_tiles(
            self.concealed, [Meld.of(kind, [tile] * (4 if "kan" in kind else 3)) for kind, tile in self.melds]
        )


def _take(used: Counter[int], tile: int, count: int) -> bool:
    """Count ``count`` more copies of ``tile`` as dealt; False past the four copies."""
    used[tile] += count
    return used[tile] <= 4


def random_deal(rng: random.Random) -> Deal:
    """A complete hand of one or two suits: sets and a pair (melds among them), or seven pairs.

    A theme now and then steers the tiles toward the rarer patterns: 2s, 5s and 8s only (将对),
    or every set and the pair holding a terminal (带幺九).
    """
    while True:
        suits = rng.sample(range(3), rng.choice((1, 1, 2)))
        theme = rng.choice(("any", "any", "any", "jiang", "terminal"))
        tiles = [9 * suit + number for suit in suits for number in range(9)]
        pungs = [tile for tile in tiles if theme == "any" or tile % 9 in ((1, 4, 7) if theme == "jiang" else (0, 8))]
        chows = [
            tile for tile in tiles if tile % 9 <= 6 and (theme == "any" or (theme == "terminal" and tile % 9 in (0, 6)))
        ]
        used: Counter[int] = Counter()
        concealed: list[int] = []
        melds: list[tuple[str, int]] = []
        ok = True
        if rng.random() < 0.2:
            for tile in rng.sample(tiles, 7) if rng.random() < 0.5 else [rng.choice(tiles) for _ in range(7)]:
                ok = _take(used, tile, 2) and ok
                concealed += [tile, tile]
        else:
            for _ in range(rng.choice((0, 0, 1, 2, 3, 4, 4))):
                tile, kind = rng.choice(pungs), rng.choice(MELD_KINDS)
                ok = _take(used, tile, 4 if "kan" in kind else 3) and ok
                melds.append((kind, tile))
            for _ in range(4 - len(melds)):
                if not chows or rng.random() < 0.4:
                    tile = rng.choice(pungs)
                    ok = _take(used, tile, 3) and ok
                    concealed += [tile] * 3
                else:
                    start = rng.choice(chows)
                    for tile in (start, start + 1, start + 2):
                        ok = _take(used, tile, 1) and ok
                        concealed.append(tile)
            tile = rng.choice(pungs)
            ok = _take(used, tile, 2) and ok
            concealed += [tile, tile]
        if ok:
            return Deal(sorted(concealed), melds)


def random_situation(rng: random.Random, deal: Deal) -> tuple[int, RuleProfile, WinContext]:
    win_tile = rng.choice(deal.concealed)
    winner, dealer = rng.randrange(4), rng.randrange(4)
    others = [seat for seat in range(4) if seat != winner]
    in_hand = sorted({winner, *rng.sample(others, rng.randint(1, 3))})
    kongs = [kind for kind, _ in deal.melds if "kan" in kind]
    self_draw = rng.random() < 0.5
    fields: dict[str, Any] = {"winner": winner, "dealer": dealer, "in_hand": tuple(in_hand)}
    if self_draw:
        if kongs and rng.random() < 0.5:
            fields["kong_replacement"] = True
            if "open_kan" in kongs and rng.random() < 0.5:
                fields["kong_feeder"] = rng.choice([seat for seat in in_hand if seat != winner])
        if not deal.melds and rng.random() < 0.2:
            fields["first_turn"] = True
    else:
        fields["discarder"] = rng.choice([seat for seat in in_hand if seat != winner])
        roll = rng.random()
        if roll < 0.2:
            fields["robbed_kong"] = True
        elif roll < 0.4:
            fields["after_kong"] = True
    held_suits = {tile // 9 for tile in deal.concealed} | {tile // 9 for _, tile in deal.melds}
    lacking = [suit for suit in range(3) if suit not in held_suits]
    if lacking and rng.random() < 0.7:
        fields["void_suit"] = rng.choice(lacking)
    rules = rule_profile(
        "sichuan",
        max_fan=rng.randint(1, 13),
        self_draw_bonus=rng.choice(("base", "fan")),
        menqing_duanyao=rng.random() < 0.5,
        heaven_earth=rng.random() < 0.7,
        kong_flower=rng.choice(("self_draw", "discard")),
    )
    return win_tile, rules, WinContext(**fields)

"""Each discard valued by a draw search (:class:`~app.core.advice.lookahead.DrawSearch`) whose
wins a family's scorer prices: the expected-score answer every such value model gives.

Sichuan's search (:mod:`app.core.advice.sichuan_value`) and the regional families' (their
``value.py``) differ in what a win is worth and which hands may win; how a hand's discards are
walked, and what the answer holds, is this one function.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.core.advice.expected_score import DiscardValue, ExpectedScores, SearchStop, TurnValue
from app.core.advice.lookahead import DrawSearch
from app.core.errors import WrongTileCount
from app.core.shape.hand import MAX_CONCEALED, Hand
from app.core.shape.tiles import NUM_TILE_KINDS, Tile, format_tile


def values_by_discard(search: DrawSearch, hand: Hand, tiles: Iterable[Tile] | None, draws: int) -> ExpectedScores:
    """Each discard of the 3n+2 ``hand`` (of ``tiles``, default every tile held) valued by
    ``search`` within ``draws`` draws.  The answer has the riichi model's shape: ``first_turn``
    is 1 and ``last_turn`` the draws searched; a search stopped by its budget is flagged."""
    if hand.tile_count % 3 != 2 or hand.tile_count > MAX_CONCEALED:
        raise WrongTileCount(f"discard values start from a 3n+2 hand, got {hand.tile_count} tiles", field="hand")
    counts = hand.counts
    values = []
    for tile in sorted(set(range(NUM_TILE_KINDS) if tiles is None else tiles)):
        if not counts[tile]:
            continue
        after = bytearray(counts)
        after[tile] -= 1
        start = bytes(after)
        measures = search.value(start)
        tenpai, win, worth = measures[:, draws].tolist()
        by_turn = tuple(TurnValue(1 + draws - left, *measures[:, left].tolist()) for left in range(draws, 0, -1))
        values.append(DiscardValue(tile, False, search.analyse(start)[0], tenpai, win, worth, by_turn))
    stopped_by = None if search.stopped_by is None else SearchStop(search.stopped_by)
    return ExpectedScores(tuple(values), 1, draws, search.states, stopped_by is None, stopped_by)


def describe(found: ExpectedScores) -> list[str]:
    """One line per discard, best value first (for people and doctests)."""
    ranked = sorted(found.discards, key=lambda value: (-value.expected_score, value.tile))
    return [
        f"{format_tile(v.tile)}: shanten {v.shanten}, tenpai {v.tenpai_probability:.4f}, "
        f"win {v.win_probability:.4f}, expected {v.expected_score:.4f}"
        for v in ranked
    ]

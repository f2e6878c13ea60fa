"""What one seat can read of the others: each one's chance of being ready, and each held tile's
chance of dealing into it now.

The reads are the danger model of :mod:`app.core.advice.safety` asked from one seat's view,
nothing more: for every other seat

* ``tenpai`` is :func:`~app.core.advice.safety.ready_probability` (1 after a declaration,
  else the published tenpai rates: a silent closed seat's by the turns left in the wall, an
  open seat's by its discards and calls);
* ``deal_in[t]`` is the verdict's ``danger`` for each kind ``t`` the asking seat holds:
  ``tenpai * danger_if_ready``, the published deal-in table read through suji, kabe and
  genbutsu (0 for a tile in that seat's river, under furiten rules).

A seat's river here is every tile it has discarded, called ones included: it is furiten on
all of them, and the published rates are by the discarding player's own turn, its number of
discards.  Tiles the asking seat discarded after a declaration passed the declared seat too.
The asking seat's view holds no hidden tile (its own hand, the rivers, the melds, the dora
indicators and any tile set aside), so the reads cannot depend on one.

>>> from app.core.shape.rules import rule_profile
>>> from app.core.shape.tiles import counts_from_tiles, format_tile, parse_mpsz
>>> declared = Opponent(river=tuple(parse_mpsz("28m1z")), riichi=True, riichi_turn=3)
>>> silent = Opponent(river=tuple(parse_mpsz("19p5z")))
>>> unseen = bytes(4 - c for c in counts_from_tiles(parse_mpsz("28m1z19p5z2555m1z4p")))
>>> for read in read_opponents(parse_mpsz("2555m1z4p"), [(1, declared), (2, silent)],
...                            unseen=unseen, rules=rule_profile("riichi")):
...     print(read.seat, round(read.tenpai, 4), [(format_tile(t), round(p, 4)) for t, p in read.deal_in])
1 1.0 [('2m', 0.0), ('5m', 0.016), ('4p', 0.08), ('1z', 0.0)]
2 0.0036 [('2m', 0.0002), ('5m', 0.0003), ('4p', 0.0001), ('1z', 0.0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from app.core.advice.safety import (
    ClosedRates,
    Opponent,
    assess,
    defence_rules,
    passed_after_riichi,
    ready_probability,
)
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import Counts, Tile, dora_from_indicator

__all__ = ["OpponentRead", "TableRead", "read_opponents", "table_read"]


class OpponentRead(NamedTuple):
    """One other seat as the asking seat reads it."""

    seat: int
    #: The chance that the seat is ready now.
    tenpai: float
    #: (kind, chance that discarding it now deals into the seat), for each kind held, in tile order.
    deal_in: tuple[tuple[Tile, float], ...]


def read_opponents(
    held: Iterable[Tile],
    others: Sequence[tuple[int, Opponent]],
    *,
    own_discards: Sequence[Tile] = (),
    unseen: Counts,
    rules: RuleProfile,
    dora: frozenset[Tile] = frozenset(),
    turns_left: int | None = None,
) -> tuple[OpponentRead, ...]:
    """The read of each of ``others`` against the tiles ``held`` (kinds; repeats count once).

    ``others`` holds ``(seat, what is seen of it)`` per other seat, in the order to answer,
    each river being every tile that seat discarded, the called ones too (it is furiten on
    them all, and its turn is their number).  ``own_discards`` are the asking seat's: those
    after a declaration passed the declared seat too.  ``unseen`` holds the copies of each
    kind the asking seat has not seen; ``dora`` the dora kinds (a dora deals in more often);
    ``turns_left`` the live wall's tiles over 4, where known (a silent closed seat's tenpai
    rate is published by it; else it is read from the seat's discards).
    """
    kinds = sorted(set(held))
    defence = defence_rules(rules)
    # The asking seat last: its discards count as passed, it is never read.
    rivers = [opponent for _, opponent in others] + [Opponent(river=tuple(own_discards))]
    reads = []
    for index, (seat, opponent) in enumerate(others):
        turn = len(opponent.river)
        verdicts = assess(
            opponent,
            kinds,
            unseen=unseen,
            rules=defence,
            turn=turn,
            passed=passed_after_riichi(rivers, index),
            dora=dora,
            turns_left=turns_left,
        )
        reads.append(
            OpponentRead(
                seat,
                ready_probability(opponent, turn, turns_left, defence.closed_rates, defence.open_rates),
                tuple((kind, verdict.danger) for kind, verdict in zip(kinds, verdicts, strict=True)),
            )
        )
    return tuple(reads)


class TableRead(NamedTuple):
    """The other seats as the asking seat's searches read them: how likely each is ready on each
    turn to come, and what dealing into each costs.

    ``ready_by_turn[k][i]`` is the chance that other seat ``i`` (in the view's order) is ready
    ``k`` of the asking seat's turns from now: the danger model's
    :func:`~app.core.advice.safety.ready_probability` at that seat's own turn ``k`` later (1
    after a declaration).  The chance that some other seat ends the hand in a turn
    (:meth:`hazard`) takes the seats as independent, each ready seat winning in a turn with
    ``ready_win_per_turn``.

    >>> read = table_read([Opponent(river=(0,) * 9), Opponent(river=(0,) * 8, riichi=True)],
    ...                   turn=9, dealer_offsets=[False, True], dora_indicators=())
    >>> read.ready(9), read.costs
    ((0.231, 1.0), (6900.0, 10350.0))
    >>> round(read.hazard(9), 4), round(read.hazard(12), 4)
    (0.1137, 0.1242)
    """

    #: The asking seat's turn now: its discards plus one (the searches' rows count turns so).
    turn: int
    ready_by_turn: tuple[tuple[float, ...], ...]
    #: Points a deal-in into each other seat costs.
    costs: tuple[float, ...]
    ready_win_per_turn: float

    def ready(self, turn: int) -> tuple[float, ...]:
        """Each other seat's chance of being ready at the asking seat's ``turn`` (none before now)."""
        return self.ready_by_turn[min(max(turn - self.turn, 0), len(self.ready_by_turn) - 1)]

    def hazard(self, turn: int) -> float:
        """The chance that another seat ends the hand by a win in the asking seat's ``turn``."""
        kept = 1.0
        for ready in self.ready(turn):
            kept *= 1.0 - ready * self.ready_win_per_turn
        return 1.0 - kept


#: Turns of :attr:`TableRead.ready_by_turn`: a hand has at most this many discards.
READ_TURNS: Final = 20
#: The chance that a ready seat wins in one turn (by its draw or on one of the other discards).
#: Measured on self-play: declared seats won 849 times in 9,018 turns from their declarations
#: (``scripts/measure_ready_wins.py --games 2000 --seed 12``, four advisors).
READY_WIN_PER_TURN: Final = 0.094
#: What a deal-in into a declared (or silent closed) guest costs on average.  Measured on
#: self-play: 309 deal-ins into declared guests cost 6,880 on average (``scripts/measure_ready_wins.py
#: --games 2000 --seed 12``; into declared dealers 10,036, 1.46 times as much).
DECLARED_COST: Final = 6_900.0
#: What a deal-in into a seat with calls costs, against a declared one: an open hand's value is
#: lower (no riichi, ura dora or menzen yaku).  Measured in the same self-play: 359 deal-ins into
#: open guests cost 3,061 on average, 0.45 of the declared ones.
OPEN_COST_FACTOR: Final = 0.45
#: How much each dora a seat shows in its melds adds to what dealing into it costs, as a share of
#: the base cost (one han more on a hand of two or three).  Ours, not measured.
SHOWN_DORA_COST: Final = 0.3
#: A dealer's win pays 1.5 times a non-dealer's (Tenhou's payments: x6 against x4).
DEALER_COST_FACTOR: Final = 1.5
#: What a deal-in costs at most: a dealer's haneman (a rare hand is worth more, but reads cannot see it).
MAX_DEAL_IN_COST: Final = 18_000.0


def table_read(
    opponents: Sequence[Opponent],
    *,
    turn: int,
    dealer_offsets: Sequence[bool],
    dora_indicators: Sequence[Tile],
    base_cost: float = DECLARED_COST,
    ready_win_per_turn: float = READY_WIN_PER_TURN,
    silent_closed_factor: float = 1.0,
    open_factor: float = 1.0,
    closed_rates: ClosedRates = ClosedRates.ALL_PLAYERS,
) -> TableRead:
    """The :class:`TableRead` of ``opponents`` (the view's order) from a seat at ``turn``.

    A deal-in into a seat costs ``base_cost`` (a riichi or closed hand's average), times
    :data:`OPEN_COST_FACTOR` for an open hand that has not declared, plus
    :data:`SHOWN_DORA_COST` of it for each dora in the seat's melds, times
    :data:`DEALER_COST_FACTOR` for the dealer (``dealer_offsets``), at most
    :data:`MAX_DEAL_IN_COST`.

    ``silent_closed_factor`` scales the ready chance of a closed seat that has not declared:
    the published rates count every player, and how many ready closed hands stay silent is
    the table's habit (at a table of players who always declare, almost none).  ``open_factor``
    scales an open seat's ready chance now the same way (the published rates are at the moment
    of a call, by players of another table).  ``closed_rates`` is the published rate a
    closed seat that has not declared reads (:func:`~app.core.advice.safety.ready_probability`):
    by default the share of all players, whose growth from turn to turn counts the hands that
    will declare too (the ``reader``'s figures were measured with it).
    """
    dora = [dora_from_indicator(indicator) for indicator in dora_indicators]
    costs = []
    for opponent, dealer in zip(opponents, dealer_offsets, strict=True):
        cost = base_cost * (OPEN_COST_FACTOR if opponent.melds and not opponent.riichi else 1.0)
        shown = sum(dora.count(tile) for meld in opponent.melds for tile in meld.tiles)
        cost += shown * SHOWN_DORA_COST * base_cost
        costs.append(min(MAX_DEAL_IN_COST, cost * (DEALER_COST_FACTOR if dealer else 1.0)))
    ready_by_turn = tuple(
        zip(
            *(_ready_ahead(opponent, silent_closed_factor, open_factor, closed_rates) for opponent in opponents),
            strict=True,
        )
    )
    return TableRead(turn, ready_by_turn or ((),) * READ_TURNS, tuple(costs), ready_win_per_turn)


def _ready_ahead(
    opponent: Opponent, silent_closed_factor: float, open_factor: float, closed_rates: ClosedRates
) -> tuple[float, ...]:
    """``opponent``'s ready chance now and on each of the next turns: the chance now, then the
    published rates' growth from its turn on, taken by the part not yet ready (a silent hand
    read as rarely ready now still gets ready, and declares, as often as any later)."""
    turn = len(opponent.river)
    published = [ready_probability(opponent, turn + ahead, closed_rates=closed_rates) for ahead in range(READ_TURNS)]
    factor = 1.0 if opponent.riichi else open_factor if opponent.melds else silent_closed_factor
    now = min(1.0, published[0] * factor)
    if published[0] >= 1.0:
        return tuple(published)
    return tuple(now + (1.0 - now) * max(0.0, later - published[0]) / (1.0 - published[0]) for later in published)

"""What one seat can read of the others: each one's chance of being ready, and each held tile's
chance of dealing into it now.

The reads are the danger model of :mod:`app.core.advice.safety` asked from one seat's view,
nothing more: for every other seat

* ``tenpai`` is :func:`~app.core.advice.safety.ready_probability` (1 after a declaration,
  else the published tenpai rates by that seat's discards and calls);
* ``deal_in[t]`` is the verdict's ``danger`` for each kind ``t`` the asking seat holds:
  ``tenpai * danger_if_ready``, the published deal-in table read through suji, kabe and
  genbutsu (0 for a tile in that seat's river, under furiten rules).

A seat's river here is every tile it has discarded, called ones included: it is furiten on
all of them, and the published rates are by the discarding player's own turn, its number of
discards.  Tiles the asking seat discarded after a declaration passed the declared seat too.  The asking seat's view holds no hidden tile (its own hand, the rivers, the
melds, the dora indicators and any tile set aside), so the reads cannot depend on one.

>>> from app.core.shape.rules import rule_profile
>>> from app.core.shape.tiles import counts_from_tiles, format_tile, parse_mpsz
>>> declared = Opponent(river=tuple(parse_mpsz("28m1z")), riichi=True, riichi_turn=3)
>>> silent = Opponent(river=tuple(parse_mpsz("19p5z")))
>>> unseen = bytes(4 - c for c in counts_from_tiles(parse_mpsz("28m1z19p5z2555m1z4p")))
>>> for read in read_opponents(parse_mpsz("2555m1z4p"), [(1, declared), (2, silent)],
...                            unseen=unseen, rules=rule_profile("riichi")):
...     print(read.seat, read.tenpai, [(format_tile(t), round(p, 4)) for t, p in read.deal_in])
1 1.0 [('2m', 0.0), ('5m', 0.016), ('4p', 0.08), ('1z', 0.0)]
2 0.01 [('2m', 0.0006), ('5m', 0.0008), ('4p', 0.0004), ('1z', 0.0001)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from app.core.advice.safety import Opponent, assess, defence_rules, passed_after_riichi, ready_probability
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import Counts, Tile

__all__ = ["OpponentRead", "read_opponents"]


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
) -> tuple[OpponentRead, ...]:
    """The read of each of ``others`` against the tiles ``held`` (kinds; repeats count once).

    ``others`` holds ``(seat, what is seen of it)`` per other seat, in the order to answer,
    each river being every tile that seat discarded, the called ones too (it is furiten on
    them all, and its turn is their number).  ``own_discards`` are the asking seat's: those
    after a declaration passed the declared seat too.  ``unseen`` holds the copies of each
    kind the asking seat has not seen.
    """
    kinds = sorted(set(held))
    defence = defence_rules(rules)
    # The asking seat last: its discards count as passed, it is never read.
    rivers = [opponent for _, opponent in others] + [Opponent(river=tuple(own_discards))]
    reads = []
    for index, (seat, opponent) in enumerate(others):
        turn = len(opponent.river)
        verdicts = assess(
            opponent, kinds, unseen=unseen, rules=defence, turn=turn, passed=passed_after_riichi(rivers, index)
        )
        reads.append(
            OpponentRead(
                seat,
                ready_probability(opponent, turn),
                tuple((kind, verdict.danger) for kind, verdict in zip(kinds, verdicts, strict=True)),
            )
        )
    return tuple(reads)

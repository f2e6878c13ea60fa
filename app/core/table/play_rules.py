"""What the table machine plays beyond the hand rules: the data of one preset's table.

The hand rules (:class:`~app.core.shape.rules.RuleProfile`) say what a hand is and what it
wins; a :class:`PlayRules` says how the table around it runs.  Each rule family
(:mod:`app.core.families`) declares the :class:`PlayRules` of its presets; the registry
(:mod:`app.core.families.registry`) lists them all.  Riichi and sanma follow Tenhou; the
Chinese families play on :data:`BARE_TABLE`, a table with none of riichi's extras, and add what
their rules have (flowers, play on after a win, kong payments, a draw's settlement).

>>> BARE_TABLE.dead_wall, BARE_TABLE.declarations, PlayRules().dead_wall
(0, False, 14)
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Final


@dataclass(frozen=True, slots=True)
class PlayRules:
    """How a table runs (see the module notes); every field is data, read by the machine."""

    dead_wall: int = field(
        default=14,
        metadata={"doc": "Tiles never drawn: the exhaustive draw comes when only these are left (riichi's dead wall)."},
    )
    declarations: bool = field(
        default=True,
        metadata={
            "doc": "A seat may declare its closed hand ready with a stick (riichi), then throws what it draws; ippatsu and a first go-around's double declaration."
        },
    )
    dora: bool = field(default=True, metadata={"doc": "Dora indicators, kan dora and ura dora."})
    red_fives: bool = field(default=True, metadata={"doc": "Red fives in the wall: one of each five the set has."})
    kuikae: bool = field(
        default=True,
        metadata={"doc": "After a chi or pon, the called tile (and a chi's other end) may not be discarded."},
    )
    abortive_draws: bool = field(
        default=True,
        metadata={"doc": "Nine terminals, four winds, four riichi, four kans by several seats, triple ron."},
    )
    head_bump: bool = field(
        default=False,
        metadata={
            "doc": "One winner per discard: the first seat after the discarder that wins takes it (head bump); off, several may win on it (riichi's double ron, under the flow's ``double_ron``)."
        },
    )
    honba_and_sticks: bool = field(
        default=True, metadata={"doc": "Honba and riichi sticks carried from hand to hand and paid to the winner."}
    )
    flowers: int = field(default=0, metadata={"doc": "Flower tiles in the wall, set aside when dealt or drawn."})
    call_wildcards: bool = field(default=False, metadata={"doc": "A discarded wildcard may be called into a meld."})
    kita: bool = field(
        default=False, metadata={"doc": "Sanma's kita: a north may be set aside as a dora, with a replacement draw."}
    )
    play_on: bool = field(
        default=False,
        metadata={
            "doc": "A win does not end the hand: the winner leaves it (or, with the hand rules' bloody_river, stays in with its hand frozen) and the others play on until one seat is left or the wall is empty (Sichuan's 血战到底)."
        },
    )
    open_kong_payment: int = field(
        default=0, metadata={"doc": "Points the discarder pays at once for an open kong of its discard (0: none)."}
    )
    added_kong_payment: int = field(
        default=0,
        metadata={"doc": "Points each other seat still in pays at once for an added kong nobody robs (0: none)."},
    )
    closed_kong_payment: int = field(
        default=0, metadata={"doc": "Points each other seat still in pays at once for a closed kong (0: none)."}
    )
    kong_transfer: bool = field(
        default=False,
        metadata={
            "doc": "A win on the discard a seat made after its kong's replacement draw (杠上炮) takes all the kong income that seat holds (呼叫转移)."
        },
    )
    draw_settlement: bool = field(
        default=False,
        metadata={
            "doc": "At the exhaustive draw: a seat holding a void-suit tile pays every other seat the capped win (查花猪); a seat not ready pays each ready seat the most its hand could win (查大叫) and returns its kong income (退税)."
        },
    )
    lengths: tuple[str, ...] = field(
        default=("kyoku", "tonpuu", "hanchan"),
        metadata={"doc": "Game lengths the table can play with these rules (the flow between hands is Tenhou's)."},
    )


def described_fields(cls: type) -> list[tuple[str, object, str]]:
    """Each field of a table-rules dataclass: its name, its default and what it means.

    >>> described_fields(PlayRules)[0]
    ('dead_wall', 14, "Tiles never drawn: the exhaustive draw comes when only these are left (riichi's dead wall).")
    """
    return [(item.name, item.default, item.metadata.get("doc", "")) for item in fields(cls)]


#: A table with none of riichi's extras: 136 tiles, every one drawn (no dead wall), no riichi,
#: dora, red fives, kuikae, abortive draws, honba or sticks, one winner per discard (the first
#: seat after the discarder), one hand a game.
BARE_TABLE: Final = PlayRules(
    dead_wall=0,
    declarations=False,
    dora=False,
    red_fives=False,
    kuikae=False,
    abortive_draws=False,
    honba_and_sticks=False,
    head_bump=True,
    lengths=("kyoku",),
)

"""Our MCR wins as PyMahjongGB 1.4.0's arguments, and its answers as fan tables.

PyMahjongGB's conventions, found by experiment (and by reading its source):

- tiles are ``W1``-``W9`` (characters, our m), ``B1``-``B9`` (dots, p), ``T1``-``T9``
  (bamboo, s), ``F1``-``F4`` (East South West North) and ``J1`` 中 Red, ``J2`` 发 Green,
  ``J3`` 白 White: the reverse of our White Green Red order;
- ``hand`` holds the concealed tiles *without* the winning tile, and declared packs count
  three tiles each (a kong too): ``3 * packs + len(hand) == 13``, else
  ``TypeError("ERROR_WRONG_TILES_COUNT")``;
- a pack is ``(kind, tile, offer)``: ``CHI`` names the middle tile and ``offer`` 1..3 which of
  its tiles was taken; ``PENG``/``GANG`` name their tile and ``offer`` 1..3 the seat that gave
  it; ``offer`` 0 makes any pack concealed (so ``("GANG", t, 0)`` is a closed kong; there is
  no way to say "added kong", which scores as an open one anyway);
- ``isAboutKong`` with ``isSelfDrawn`` is a kong replacement win; on a discard it is robbing a
  kong.  It silently drops the flag when it cannot hold: no kong among the packs (replacement),
  or the winning tile held concealed twice or shown in a pack (robbing);
- ``is4thTile`` (和绝张) is dropped when the concealed tiles hold another copy of the winning
  tile, and forced when the packs show three copies; robbing a kong clears it;
- ``isWallLast`` with ``isSelfDrawn`` is 妙手回春, on a discard 海底捞月;
- no 8-fan floor: a winning hand always answers (无番和 makes it at least 8 otherwise), a
  non-winning one raises ``TypeError("ERROR_NOT_WIN")``;
- the answer lists ``(value, count, chinese, english)`` per fan (``verbose=True``) and includes
  ``花牌`` with ``count`` = flowers; one melded and one concealed kong is its own 5-fan entry
  明暗杠, as the rule text's "一明杠与一暗杠计5番" prices it.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Final, NamedTuple

from mcr_situations import Situation, seat_wind_of, situations

from app.core.shape.hand import Hand, MeldKind
from app.core.shape.tiles import EAST, NUM_TILE_KINDS, Tile, format_mpsz, format_tile
from app.core.value.scoring_context import WinContext

#: Our tile index -> PyMahjongGB's tile name.
PYMAHJONGGB_TILES: Final[tuple[str, ...]] = (
    tuple(f"W{n}" for n in range(1, 10))
    + tuple(f"B{n}" for n in range(1, 10))
    + tuple(f"T{n}" for n in range(1, 10))
    + ("F1", "F2", "F3", "F4", "J3", "J2", "J1")
)
FLOWER_NAME: Final = "花牌"

#: (value, count) per Chinese fan name.
FanTable = dict[str, tuple[int, int]]

PyMahjongGBArguments = tuple[
    tuple[tuple[str, str, int], ...], tuple[str, ...], str, int, bool, bool, bool, bool, int, int
]


def pymahjonggb_arguments(hand: Hand, win_tile: Tile, context: WinContext) -> PyMahjongGBArguments:
    """The positional arguments of ``MahjongFanCalculator`` for one win (``verbose`` apart).

    >>> from app.core.shape.hand import Meld
    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand = Hand.from_tiles(parse_mpsz("11m234p67s"), [Meld.of("chi", [18, 19, 20]), Meld.of("closed_kan", [33] * 4)])
    >>> pymahjonggb_arguments(hand, 23, WinContext(winner=1, dealer=0, discarder=2, flowers=3))
    ((('CHI', 'T2', 1), ('GANG', 'J1', 0)), ('W1', 'W1', 'B2', 'B3', 'B4', 'T7'), 'T6', 3, False, False, False, False, 1, 0)
    """
    packs = []
    for meld in hand.melds:
        if meld.kind is MeldKind.CHI:
            packs.append(("CHI", PYMAHJONGGB_TILES[meld.tiles[1]], 1))
        elif meld.kind is MeldKind.PON:
            packs.append(("PENG", PYMAHJONGGB_TILES[meld.tiles[0]], 1))
        else:
            packs.append(("GANG", PYMAHJONGGB_TILES[meld.tiles[0]], 0 if meld.kind is MeldKind.CLOSED_KAN else 1))
    counts = bytearray(hand.counts)
    counts[win_tile] -= 1
    concealed = tuple(PYMAHJONGGB_TILES[t] for t in range(NUM_TILE_KINDS) for _ in range(counts[t]))
    self_drawn = context.discarder is None
    return (
        tuple(packs),
        concealed,
        PYMAHJONGGB_TILES[win_tile],
        context.flowers,
        self_drawn,
        context.last_copy,
        context.kong_replacement if self_drawn else context.robbed_kong,
        context.last_tile,
        seat_wind_of(context) - EAST,
        context.round_wind - EAST,
    )


def pymahjonggb_fans(hand: Hand, win_tile: Tile, context: WinContext) -> FanTable:
    """PyMahjongGB's fans for one win, flowers included (raises its ``TypeError``).

    Its Chinese names are ours letter for letter (独听・边张 with its middle dot, 明暗杠, ...),
    so the tables are compared by name without a map.
    """
    from MahjongGB import MahjongFanCalculator

    answer = MahjongFanCalculator(*pymahjonggb_arguments(hand, win_tile, context), verbose=True)
    return {chinese: (value, count) for value, count, chinese, _english in answer}


def without_flowers(table: Mapping[str, tuple[int, int]]) -> FanTable:
    """The table without its flower entry (``count_fans`` leaves flowers out)."""
    return {name: entry for name, entry in table.items() if name != FLOWER_NAME}


def fan_table(fans: Iterable[tuple[str, str, int, int]]) -> FanTable:
    """Our ``Fan`` tuples (name, chinese, fan, count) as a table keyed by the Chinese name."""
    table: FanTable = {}
    for _name, chinese, value, count in fans:
        if chinese in table:
            raise AssertionError(f"fan {chinese} listed twice")
        table[chinese] = (value, count)
    return table


def total(table: Mapping[str, tuple[int, int]]) -> int:
    """Fans in a table: value times count, summed.

    >>> total({"清一色": (24, 1), "一般高": (1, 2)})
    26
    """
    return sum(value * count for value, count in table.values())


def differences(ours: Mapping[str, tuple[int, int]], theirs: Mapping[str, tuple[int, int]]) -> list[str]:
    """Each fan whose value or count differs, as ``name ours/theirs`` (``-`` for absent).

    >>> differences({"自摸": (1, 1), "断幺": (2, 1)}, {"自摸": (1, 1), "平和": (2, 1)})
    ['平和 -/2x1', '断幺 2x1/-']
    """

    def shown(entry: tuple[int, int] | None) -> str:
        return "-" if entry is None else f"{entry[0]}x{entry[1]}"

    return [
        f"{name} {shown(ours.get(name))}/{shown(theirs.get(name))}"
        for name in sorted(set(ours) | set(theirs))
        if ours.get(name) != theirs.get(name)
    ]


def describe(hand: Hand, win_tile: Tile, context: WinContext) -> str:
    """One win in one line: concealed tiles in mpsz, melds, winning tile, winds and flags.

    >>> from app.core.shape.hand import Meld
    >>> hand = Hand.from_tiles([0, 0, 9, 10, 11, 23], [Meld.of("pon", [27] * 3), Meld.of("chi", [18, 19, 20])])
    >>> describe(hand, 23, WinContext(winner=1, dealer=0, discarder=2))
    'hand 11m123p6s melds pon:111z chi:123s win 6s seat 2z round 1z discard'
    """
    melds = " ".join(f"{meld.kind.value}:{format_mpsz(meld.tiles)}" for meld in hand.melds)
    concealed = format_mpsz(t for t in range(NUM_TILE_KINDS) for _ in range(hand.counts[t]))
    flags = ["self-draw" if context.discarder is None else "discard"]
    flags += [name for name in ("kong_replacement", "robbed_kong", "last_tile", "last_copy") if getattr(context, name)]
    if context.flowers:
        flags.append(f"flowers={context.flowers}")
    winds = f"seat {format_tile(seat_wind_of(context))} round {format_tile(context.round_wind)}"
    return f"hand {concealed} melds {melds or '-'} win {format_tile(win_tile)} {winds} {' '.join(flags)}"


#: ``count_fans``'s signature: (hand, win_tile, context) -> Fan tuples (name, chinese, fan, count).
FanCounter = Callable[[Hand, Tile, WinContext], Iterable[tuple[str, str, int, int]]]


class Comparison(NamedTuple):
    """One situation where our fans and PyMahjongGB's (flowers left out) differ."""

    #: Its place in the list compared (the report numbers examples by it).
    position: int
    situation: Situation
    ours: FanTable
    theirs: FanTable
    #: Our scorer's exception, when it raised instead of answering.
    error: str | None = None

    @property
    def kind(self) -> str:
        """The disagreement's class: which fans differ and how (values and counts left out)."""
        if self.error is not None:
            return f"our scorer raised {self.error.split(':')[0]}"
        parts = []
        for name in sorted(set(self.ours) | set(self.theirs)):
            mine, other = self.ours.get(name), self.theirs.get(name)
            if mine == other:
                continue
            if mine is None:
                parts.append(f"{name} missing")
            elif other is None:
                parts.append(f"{name} extra")
            else:
                parts.append(f"{name} {'value' if mine[0] != other[0] else 'count'}")
        same = "same total" if total(self.ours) == total(self.theirs) else "total differs"
        return f"{same}: {', '.join(parts)}"


def compare(cases: Sequence[Situation], count_fans: FanCounter) -> list[Comparison]:
    """Every situation of ``cases`` where ``count_fans`` and PyMahjongGB differ."""
    found = []
    for index, case in enumerate(cases):
        theirs = without_flowers(pymahjonggb_fans(case.hand, case.win_tile, case.context))
        try:
            ours = fan_table(count_fans(case.hand, case.win_tile, case.context))
        except ValueError as error:
            found.append(Comparison(index, case, {}, theirs, f"{type(error).__name__}: {error}"))
            continue
        if ours != theirs:
            found.append(Comparison(index, case, ours, theirs))
    return found


def _shown(table: Mapping[str, tuple[int, int]]) -> str:
    return ", ".join(f"{name} {value}" + (f"x{count}" if count > 1 else "") for name, (value, count) in table.items())


def _size(comparison: Comparison) -> tuple[int, int, int]:
    """Smaller is a more telling example: fewer differing fans, fewer fans, fewer melds."""
    fans = len(set(comparison.ours) | set(comparison.theirs))
    return len(comparison.kind), fans, len(comparison.situation.hand.melds)


def report(cases: Sequence[Situation], found: Sequence[Comparison], *, seed: int, examples: int = 3) -> str:
    """The disagreement report in Markdown: counts, then each class with its smallest examples."""
    classes: dict[str, list[Comparison]] = defaultdict(list)
    for comparison in found:
        classes[comparison.kind].append(comparison)
    totals_differ = sum(1 for c in found if c.error is not None or total(c.ours) != total(c.theirs))
    lines = [
        f"# MCR oracle report, {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}",
        "",
        f"Situations: {len(cases)} (tests/core/mcr_situations.py, seed {seed}); ours = app.core.value.mcr_scoring.count_fans,",
        "theirs = PyMahjongGB 1.4.0 without 花牌. Regenerate: `.venv/bin/python tests/core/mcr_oracle.py`.",
        "",
        f"- agree on every fan (value and count): {len(cases) - len(found)} / {len(cases)}",
        f"- agree on the total fan: {len(cases) - totals_differ} / {len(cases)}",
        f"- disagreement classes: {len(classes)}",
        "",
    ]
    for kind, members in sorted(classes.items(), key=lambda item: -len(item[1])):
        lines += [f"## {kind} ({len(members)})", ""]
        for comparison in sorted(members, key=_size)[:examples]:
            case = comparison.situation
            lines.append(
                f"- #{comparison.position} [{case.form}/{case.style}] {describe(case.hand, case.win_tile, case.context)}"
            )
            if comparison.error is not None:
                lines.append(f"  - ours: raised {comparison.error}")
            else:
                lines.append(f"  - ours ({total(comparison.ours)}): {_shown(comparison.ours)}")
            lines.append(f"  - PyMahjongGB ({total(comparison.theirs)}): {_shown(comparison.theirs)}")
        lines.append("")
    return "\n".join(lines)


def _score_mcr_section(cases: Sequence[Situation], disagreeing: set[int]) -> str:
    """``score_mcr`` where ``count_fans`` agreed: fans with 花牌 and the total at 8 or more, else the floor's error."""
    from app.core.errors import BelowMinimumFan
    from app.core.shape.rules import rule_profile
    from app.core.value.mcr_scoring import MINIMUM_FAN, score_mcr

    rules = rule_profile("mcr")
    checked, wrong = 0, []
    for index, case in enumerate(cases):
        if index in disagreeing:
            continue
        theirs = pymahjonggb_fans(case.hand, case.win_tile, case.context)
        checked += 1
        if total(without_flowers(theirs)) < MINIMUM_FAN:
            try:
                score_mcr(case.hand, case.win_tile, rules, case.context)
            except BelowMinimumFan:
                continue
            except ValueError as error:
                wrong.append(f"- #{index} {describe(case.hand, case.win_tile, case.context)}: raised {error!r}")
                continue
            wrong.append(f"- #{index} {describe(case.hand, case.win_tile, case.context)}: scored under 8 fans")
            continue
        try:
            score = score_mcr(case.hand, case.win_tile, rules, case.context)
        except ValueError as error:
            wrong.append(f"- #{index} {describe(case.hand, case.win_tile, case.context)}: raised {error!r}")
            continue
        ours = fan_table(score.fans)
        if ours != theirs or score.fan != total(without_flowers(theirs)) or score.flowers != case.context.flowers:
            wrong.append(f"- #{index} {describe(case.hand, case.win_tile, case.context)}: {differences(ours, theirs)}")
    lines = [
        "",
        "## score_mcr (花牌 included; BelowMinimumFan under 8)",
        "",
        f"{checked - len(wrong)} / {checked} agree",
        "",
    ]
    return "\n".join(lines + wrong[:10]) + "\n"


def _coverage_section(cases: Sequence[Situation]) -> str:
    """How many situations hold each of PyMahjongGB's fans, each form and each flag."""
    fans: Counter[str] = Counter()
    for case in cases:
        fans.update(list(pymahjonggb_fans(case.hand, case.win_tile, case.context)))
    forms = Counter(case.form for case in cases)
    melds = Counter(meld.kind.value for case in cases for meld in case.hand.melds)
    flags = Counter(
        name
        for case in cases
        for name in ("kong_replacement", "robbed_kong", "last_tile", "last_copy")
        if getattr(case.context, name)
    )
    lines = ["", "## Coverage (situations holding each fan, per PyMahjongGB)", ""]
    lines.append(", ".join(f"{name} {count}" for name, count in sorted(fans.items(), key=lambda item: item[1])))
    lines += ["", "Forms: " + ", ".join(f"{name} {count}" for name, count in forms.most_common())]
    lines.append("Melds: " + ", ".join(f"{name} {count}" for name, count in melds.most_common()))
    lines.append("Flags: " + ", ".join(f"{name} {count}" for name, count in flags.most_common()))
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    """Compare ``count_fans`` with PyMahjongGB on seeded situations and write the report."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--seed", type=int, default=12_000)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--report", type=Path, default=Path("/tmp/mcr/oracle-report.md"))
    args = parser.parse_args(argv)
    from app.core.value.mcr_scoring import count_fans

    cases = situations(args.seed, args.count)
    started = time.perf_counter()
    found = compare(cases, count_fans)
    elapsed = time.perf_counter() - started
    text = report(cases, found, seed=args.seed) + f"\ncount_fans compared in {elapsed:.1f} s.\n"
    text += _score_mcr_section(cases, {c.position for c in found})
    args.report.write_text(text + _coverage_section(cases))
    print(f"{len(cases) - len(found)} / {len(cases)} agree; report in {args.report}")


if __name__ == "__main__":
    main()

"""Time riichi scoring: tenpai's ``score_riichi`` against mahjong 2.1.0 and riichienv.

Run from the repository root, in the bench environment (see bench/README.md)::

    bench/.venv/bin/python bench/run_score.py [--hands N] [--seed S] [--json out.json]

Every implementation scores the same seeded winning situations: random complete
hands (four groups and a pair, seven pairs, thirteen orphans) with declared
melds of every kind, a winning tile from the concealed part, self-draw or
discard, riichi and the other situational flags, dora and ura dora indicators,
winds, honba and riichi sticks.  Only situations that have a yaku for both ours
and the ``mahjong`` package are kept, so every row scores the same list.  Each
situation is converted beforehand to each implementation's own input (``Hand``
and ``WinContext`` for ours, 136-ids with ``Meld`` and ``HandConfig`` objects
for mahjong, 136-ids with riichienv's ``Meld`` and ``Conditions``); conversion
is not timed.

Our scorer checks the request and scores it in the compiled kernel
(app/core/kernel/riichi.cpp; Python's checks run only for a request the kernel
refuses, to say why), which memoizes nothing.  Every ``functools`` cache
in ``app.core.value.riichi_scoring`` and ``app.core.shape.decompose`` (found at
run time) is still emptied before our cold passes, and reported.  So each round
gives every row a cold pass, right after the caches it
reads are emptied (ours, or mahjong's own 128-entry ``divide_hand`` cache), and
then a warm pass over the same hands; rounds interleave the rows, with the
garbage collector off.  The table shows the best and the median cold and warm
pass, in µs per hand, and which caches were hit.
While timing, han and fu (and the winner's points, against mahjong) are
compared and the disagreements are counted and printed.

Then (unless ``--no-http``) the same situations go to ``/score/batch`` on a local
server (uvicorn, one worker, as ``run_http.py`` starts it), in requests of
``--batch-size`` items one after another on one connection: hands per second of
the best and the median of ``--repeat`` passes, every answer's han, fu and
payments checked against ``score_riichi``'s.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any, Final

import riichienv
from mahjong.hand_calculating.divider import HandDivider
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld as MahjongMeld
from riichienv import _riichienv as riichienv_rust
from run_http import serving, tenpai_spec, timed_requests_ns
from timing import cpu_model, timed_pass_ns

from app.core.errors import TenpaiError
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import EAST, NUM_TILE_KINDS, ORPHANS, format_mpsz, format_tile
from app.core.value.riichi_scoring import NoYaku, RiichiScore, score_riichi
from app.core.value.scoring_context import WinContext

COPIES: Final = 4
SEATS: Final = 4
RED_IDS: Final = frozenset((16, 52, 88))  # copy 0 of 5m, 5p, 5s: red in both peers' 136-ids
MAX_PRINTED_MISMATCHES: Final = 10
RULES: Final = rule_profile("riichi")

OURS: Final = "tenpai score_riichi"
OURS_BUILD: Final = "tenpai, Hand+WinContext built"
MAHJONG: Final = "mahjong 2.1.0"
MAHJONG_BUILD: Final = "mahjong, HandConfig built"
RIICHIENV: Final = "riichienv HandEvaluator"
RIICHIENV_RUST: Final = "riichienv Rust class"
RIICHIENV_CALC: Final = "riichienv calc only"

#: The options mahjong needs to play by the rules ours defaults to (Tenhou's):
#: open tanyao, red fives, double yakuman, kazoe yakuman, no kiriage, 30 fu for an
#: open pinfu shape, no self-draw fu on a pinfu tsumo.
MAHJONG_OPTIONS: Final = dict(
    has_open_tanyao=True,
    has_aka_dora=True,
    has_double_yakuman=True,
    kazoe_limit=HandConstants.KAZOE_LIMITED,
    kiriage=False,
    fu_for_open_pinfu=True,
    fu_for_pinfu_tsumo=False,
)
MAHJONG_MELD: Final = {
    "chi": (MahjongMeld.CHI, True),
    "pon": (MahjongMeld.PON, True),
    "open_kan": (MahjongMeld.KAN, True),
    "closed_kan": (MahjongMeld.KAN, False),
    "added_kan": (MahjongMeld.SHOUMINKAN, True),
}
RIICHIENV_MELD: Final = {
    "chi": (riichienv.MeldType.Chi, True),
    "pon": (riichienv.MeldType.Pon, True),
    "open_kan": (riichienv.MeldType.Daiminkan, True),
    "closed_kan": (riichienv.MeldType.Ankan, False),
    "added_kan": (riichienv.MeldType.Kakan, True),
}
RIICHIENV_WINDS: Final = (riichienv.Wind.East, riichienv.Wind.South, riichienv.Wind.West, riichienv.Wind.North)

# --- situations ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Situation:
    """One winning situation, in physical 136-ids (copy 0 of a five is red)."""

    form: str  # regular, seven_pairs, thirteen_orphans
    concealed: tuple[int, ...]  # sorted, the winning tile included
    melds: tuple[tuple[str, tuple[int, ...]], ...]  # (our meld kind, 136-ids)
    win_id: int
    winner: int
    dealer: int
    discarder: int | None
    round_wind: int  # 34-index, 27..30
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    last_tile: bool = False
    kong_replacement: bool = False
    robbed_kong: bool = False
    first_turn: bool = False
    dora: tuple[int, ...] = ()
    ura: tuple[int, ...] = ()
    honba: int = 0
    sticks: int = 0

    @property
    def tsumo(self) -> bool:
        return self.discarder is None

    @property
    def seat_wind(self) -> int:
        return EAST + (self.winner - self.dealer) % SEATS

    @property
    def red_fives(self) -> tuple[int, ...]:
        held = self.concealed + tuple(i for _, ids in self.melds for i in ids)
        return tuple(sorted(i // COPIES for i in held if i in RED_IDS))

    def describe(self) -> str:
        """Every input, in mpsz (0 = red five), for a report line."""
        parts = [f"hand={mpsz(self.concealed)}"]
        if self.melds:
            parts.append("melds=[" + ", ".join(f"{kind} {mpsz(ids)}" for kind, ids in self.melds) + "]")
        win = mpsz([self.win_id])
        parts.append(f"win={win}")
        parts.append("tsumo" if self.tsumo else f"ron from {self.discarder}")
        parts.append(
            f"winner={self.winner} dealer={self.dealer} seat={format_tile(self.seat_wind)} "
            f"round={format_tile(self.round_wind)}"
        )
        flags = [
            name
            for name in (
                "riichi",
                "double_riichi",
                "ippatsu",
                "last_tile",
                "kong_replacement",
                "robbed_kong",
                "first_turn",
            )
            if getattr(self, name)
        ]
        if flags:
            parts.append(" ".join(flags))
        parts.append(f"dora_ind={mpsz(self.dora) or '-'}")
        if self.ura:
            parts.append(f"ura_ind={mpsz(self.ura)}")
        if self.honba or self.sticks:
            parts.append(f"honba={self.honba} sticks={self.sticks}")
        return " ".join(parts)


def mpsz(ids: Sequence[int]) -> str:
    """136-ids in mpsz, a red five (copy 0 of a five) as 0."""
    return format_mpsz([i // COPIES for i in ids], red=[i // COPIES for i in ids if i in RED_IDS])


def _weighted(rng: random.Random, table: Sequence[tuple[Any, float]]) -> Any:
    return rng.choices([v for v, _ in table], [w for _, w in table])[0]


MELD_COUNTS: Final = ((0, 0.35), (1, 0.22), (2, 0.2), (3, 0.14), (4, 0.09))
TRIPLET_MELDS: Final = (("pon", 0.5), ("open_kan", 0.15), ("closed_kan", 0.2), ("added_kan", 0.15))
ROUND_WINDS: Final = ((EAST, 0.5), (EAST + 1, 0.35), (EAST + 2, 0.1), (EAST + 3, 0.05))


def _kinds_in_play(rng: random.Random) -> list[int]:
    """All tiles, or (one hand in six) one suit and the honors, for flushes."""
    if rng.random() < 1 / 6:
        suit = rng.randrange(3)
        return list(range(suit * 9, suit * 9 + 9)) + list(range(27, 34))
    return list(range(NUM_TILE_KINDS))


def _regular_shape(rng: random.Random) -> tuple[list[int], list[tuple[str, list[int]]]] | None:
    """(concealed kinds, declared melds as kinds), or None over the 4-copy limit."""
    kinds = _kinds_in_play(rng)
    suited = [k for k in kinds if k < 27 and k % 9 <= 6]  # where a run can start
    declared = set(rng.sample(range(4), _weighted(rng, MELD_COUNTS)))
    concealed: list[int] = []
    melds: list[tuple[str, list[int]]] = []
    for index in range(4):
        if rng.random() < 0.55:
            start = rng.choice(suited)
            tiles, kind = [start, start + 1, start + 2], "chi"
        else:
            tile = rng.choice(kinds)
            kind = _weighted(rng, TRIPLET_MELDS)
            tiles = [tile] * (3 if kind == "pon" else 4)
        if index in declared:
            melds.append((kind, tiles))
        else:
            concealed.extend(tiles[:3])
    concealed.extend([rng.choice(kinds)] * 2)
    total = Counter(concealed) + Counter(t for _, tiles in melds for t in tiles)
    if max(total.values()) > COPIES:
        return None
    return concealed, melds


def _seven_pairs_shape(rng: random.Random) -> list[int]:
    return [k for k in rng.sample(_kinds_in_play(rng), 7) for _ in range(2)]


def _orphans_shape(rng: random.Random) -> list[int]:
    return list(ORPHANS) + [rng.choice(ORPHANS)]


def random_situation(rng: random.Random) -> Situation:
    """One random winning situation that every implementation can read (it may lack a yaku)."""
    roll = rng.random()
    melds_kinds: list[tuple[str, list[int]]] = []
    if roll < 0.03:
        form, concealed_kinds = "thirteen_orphans", _orphans_shape(rng)
    elif roll < 0.12:
        form, concealed_kinds = "seven_pairs", _seven_pairs_shape(rng)
    else:
        form = "regular"
        while (shape := _regular_shape(rng)) is None:
            pass
        concealed_kinds, melds_kinds = shape

    # Physical copies: each kind's four ids in a random order, so red fives turn up at random.
    pool = {k: rng.sample(range(k * COPIES, k * COPIES + COPIES), COPIES) for k in range(NUM_TILE_KINDS)}
    concealed = tuple(sorted(pool[k].pop() for k in concealed_kinds))
    melds = tuple((kind, tuple(sorted(pool[k].pop() for k in tiles))) for kind, tiles in melds_kinds)
    win_id = rng.choice(concealed)
    win_kind = win_id // COPIES

    dealer, winner = rng.randrange(SEATS), rng.randrange(SEATS)
    tsumo = rng.random() < 0.5
    discarder = None if tsumo else rng.choice([s for s in range(SEATS) if s != winner])
    closed = all(kind == "closed_kan" for kind, _ in melds)
    kans = sum(1 for kind, _ in melds if kind.endswith("kan"))

    riichi = double_riichi = ippatsu = last_tile = kong_replacement = robbed_kong = first_turn = False
    if closed and rng.random() < 0.5:
        if rng.random() < 0.1:
            double_riichi = True
        else:
            riichi = True
    if tsumo and kans and rng.random() < 0.25:
        kong_replacement = True
    if (riichi or double_riichi) and not kong_replacement and rng.random() < 0.2:
        ippatsu = True
    # Robbing a kong: the other three copies sit in the robbed kong, so the winner
    # holds one copy and no indicator shows the tile (chosen below accordingly).
    if (
        not tsumo
        and rng.random() < 0.05
        and concealed_kinds.count(win_kind) == 1
        and all(win_kind not in tiles for _, tiles in melds_kinds)
    ):
        robbed_kong = True
    if not kong_replacement and not robbed_kong and rng.random() < 0.05:
        last_tile = True
    if tsumo and not melds and not (riichi or double_riichi or last_tile) and rng.random() < 0.02:
        first_turn = True

    left = [i for k in range(NUM_TILE_KINDS) for i in pool[k] if not (robbed_kong and k == win_kind)]
    indicators = rng.sample(left, 2 * (1 + kans))
    dora = tuple(indicators[: 1 + kans])
    ura = tuple(indicators[1 + kans :]) if (riichi or double_riichi) else ()
    return Situation(
        form,
        concealed,
        melds,
        win_id,
        winner,
        dealer,
        discarder,
        _weighted(rng, ROUND_WINDS),
        riichi,
        double_riichi,
        ippatsu,
        last_tile,
        kong_replacement,
        robbed_kong,
        first_turn,
        dora,
        ura,
        _weighted(rng, ((0, 0.6), (1, 0.2), (2, 0.1), (3, 0.1))),
        _weighted(rng, ((0, 0.7), (1, 0.2), (2, 0.1))),
    )


# --- each implementation's input -------------------------------------------------


OursInput = tuple[Hand, int, WinContext]


def ours_input(s: Situation) -> OursInput:
    hand = Hand.from_tiles(
        [i // COPIES for i in s.concealed], [Meld.of(kind, [i // COPIES for i in ids]) for kind, ids in s.melds]
    )
    return hand, s.win_id // COPIES, ours_context(s)


def ours_context(s: Situation) -> WinContext:
    return WinContext(
        winner=s.winner,
        dealer=s.dealer,
        discarder=s.discarder,
        kong_replacement=s.kong_replacement,
        robbed_kong=s.robbed_kong,
        round_wind=s.round_wind,
        dora_indicators=tuple(i // COPIES for i in s.dora),
        ura_indicators=tuple(i // COPIES for i in s.ura),
        red_fives=s.red_fives,
        riichi=s.riichi,
        double_riichi=s.double_riichi,
        ippatsu=s.ippatsu,
        last_tile=s.last_tile,
        first_turn=s.first_turn,
        honba=s.honba,
        riichi_sticks=s.sticks,
    )


def ours_plain_input(s: Situation) -> tuple[list[int], list[tuple[str, list[int]]], int, dict[str, Any]]:
    """Plain lists and a dict: what a caller holds before building our objects."""
    return (
        [i // COPIES for i in s.concealed],
        [(kind, [i // COPIES for i in ids]) for kind, ids in s.melds],
        s.win_id // COPIES,
        ours_context(s)._asdict(),
    )


def score_item(s: Situation) -> dict[str, Any]:
    """The situation as a /score/batch item (red fives as 0 in the hand and melds)."""
    return {
        "hand": mpsz(s.concealed),
        "melds": [{"kind": kind, "tiles": mpsz(ids)} for kind, ids in s.melds],
        "win_tile": mpsz([s.win_id]),
        "winner": s.winner,
        "dealer": s.dealer,
        "discarder": s.discarder,
        "kong_replacement": s.kong_replacement,
        "robbed_kong": s.robbed_kong,
        "round_wind": format_tile(s.round_wind),
        "dora_indicators": [i // COPIES for i in s.dora],
        "ura_indicators": [i // COPIES for i in s.ura],
        "riichi": s.riichi,
        "double_riichi": s.double_riichi,
        "ippatsu": s.ippatsu,
        "last_tile": s.last_tile,
        "first_turn": s.first_turn,
        "honba": s.honba,
        "riichi_sticks": s.sticks,
    }


def mahjong_input(s: Situation) -> tuple[list[int], int, list[MahjongMeld], list[int], HandConfig, list[int]]:
    melds = [MahjongMeld(MAHJONG_MELD[kind][0], list(ids), opened=MAHJONG_MELD[kind][1]) for kind, ids in s.melds]
    everything = sorted(s.concealed + tuple(i for _, ids in s.melds for i in ids))
    config = HandConfig(
        is_tsumo=s.tsumo,
        is_riichi=s.riichi,
        is_daburu_riichi=s.double_riichi,
        is_ippatsu=s.ippatsu,
        is_rinshan=s.kong_replacement,
        is_chankan=s.robbed_kong,
        is_haitei=s.last_tile and s.tsumo,
        is_houtei=s.last_tile and not s.tsumo,
        is_tenhou=s.first_turn and s.winner == s.dealer,
        is_chiihou=s.first_turn and s.winner != s.dealer,
        player_wind=s.seat_wind,
        round_wind=s.round_wind,
        tsumi_number=s.honba,
        kyoutaku_number=s.sticks,
        options=OptionalRules(**MAHJONG_OPTIONS),
    )
    return everything, s.win_id, melds, list(s.dora), config, list(s.ura)


def riichienv_conditions(s: Situation) -> riichienv.Conditions:
    return riichienv.Conditions(
        tsumo=s.tsumo,
        riichi=s.riichi,
        double_riichi=s.double_riichi,
        ippatsu=s.ippatsu,
        haitei=s.last_tile and s.tsumo,
        houtei=s.last_tile and not s.tsumo,
        rinshan=s.kong_replacement,
        chankan=s.robbed_kong,
        tsumo_first_turn=s.first_turn,
        player_wind=s.seat_wind - EAST,
        round_wind=s.round_wind - EAST,
        riichi_sticks=s.sticks,
        honba=s.honba,
    )


def riichienv_melds(s: Situation) -> list[Any]:
    # from_who: the seat before the winner for every called meld; it matters only for pao.
    return [
        riichienv.Meld(
            RIICHIENV_MELD[kind][0],
            list(ids),
            RIICHIENV_MELD[kind][1],
            (s.winner + 3) % SEATS if RIICHIENV_MELD[kind][1] else -1,
        )
        for kind, ids in s.melds
    ]


def riichienv_input(s: Situation) -> tuple[list[int], list[Any], int, list[int], riichienv.Conditions, list[int]]:
    return list(s.concealed), riichienv_melds(s), s.win_id, list(s.dora), riichienv_conditions(s), list(s.ura)


def riichienv_rust_input(s: Situation) -> tuple[list[int], list[Any], int, list[int], list[int], Any]:
    c = riichienv_conditions(s)
    rust_conditions = riichienv_rust.Conditions(
        tsumo=c.tsumo,
        riichi=c.riichi,
        double_riichi=c.double_riichi,
        ippatsu=c.ippatsu,
        haitei=c.haitei,
        houtei=c.houtei,
        rinshan=c.rinshan,
        chankan=c.chankan,
        tsumo_first_turn=c.tsumo_first_turn,
        player_wind=RIICHIENV_WINDS[c.player_wind],
        round_wind=RIICHIENV_WINDS[c.round_wind],
        riichi_sticks=c.riichi_sticks,
        honba=c.honba,
    )
    return list(s.concealed), riichienv_melds(s), s.win_id, list(s.dora), list(s.ura), rust_conditions


# --- the timed calls (one per hand; each unpacks its prepared input) --------------


def ours_score(args: OursInput) -> RiichiScore:
    return score_riichi(args[0], args[1], RULES, args[2])


def ours_score_built(args: tuple[list[int], list[tuple[str, list[int]]], int, dict[str, Any]]) -> RiichiScore:
    tiles, melds, win, context = args
    hand = Hand.from_tiles(tiles, [Meld.of(kind, meld) for kind, meld in melds])
    return score_riichi(hand, win, RULES, WinContext(**context))


def mahjong_score(args: tuple) -> Any:
    tiles, win, melds, dora, config, ura = args
    return HandCalculator.estimate_hand_value(tiles, win, melds, dora, config, ura_dora_indicators=ura)


def mahjong_score_built(s: Situation) -> Any:
    """mahjong with its per-hand objects (``Meld``s, ``OptionalRules``, ``HandConfig``) built in the call."""
    return mahjong_score(mahjong_input(s))


def riichienv_score(args: tuple) -> Any:
    tiles, melds, win, dora, conditions, ura = args
    return riichienv.HandEvaluator(tiles, melds).calc(win, dora, conditions, ura)


def riichienv_rust_score(args: tuple) -> Any:
    tiles, melds, win, dora, ura, conditions = args
    return riichienv_rust.HandEvaluator(tiles, melds).calc(win, dora, ura, conditions)


def riichienv_calc_only(args: tuple) -> Any:
    evaluator, win, dora, ura, conditions = args
    return evaluator.calc(win, dora, ura, conditions)


# --- generating the kept situations ---------------------------------------------


@dataclass
class Generated:
    situations: list[Situation]
    drawn: int
    rejected: Counter[str]
    #: Situations dropped for no yaku by ours that mahjong scores (up to MAX_PRINTED_MISMATCHES).
    examples: list[str] = field(default_factory=list)


def generate(rng: random.Random, count: int) -> Generated:
    """``count`` situations with a yaku for ours and for mahjong; the others are counted by reason."""
    kept: list[Situation] = []
    rejected: Counter[str] = Counter()
    examples: list[str] = []
    drawn = 0
    while len(kept) < count:
        s = random_situation(rng)
        drawn += 1
        try:
            ours_score(ours_input(s))
        except NoYaku:
            # Dropped, but a peer that does score it is a disagreement worth seeing.
            answer = mahjong_score(mahjong_input(s))
            if answer.error is None:
                rejected["no yaku (ours), mahjong scores it"] += 1
                if len(examples) < MAX_PRINTED_MISMATCHES:
                    examples.append(f"{s.describe()}\n          mahjong: {mahjong_detail(answer)}")
            else:
                rejected["no yaku (ours and mahjong)"] += 1
            continue
        except TenpaiError as error:  # a generator slip or a scorer bug: counted, shown in the report
            rejected[f"ours raised {type(error).__name__}: {error}"[:120]] += 1
            continue
        answer = mahjong_score(mahjong_input(s))
        if answer.error is not None:
            rejected[f"mahjong: {answer.error}"] += 1
            continue
        kept.append(s)
    return Generated(kept, drawn, rejected, examples)


# --- agreement -------------------------------------------------------------------


def ours_value(r: RiichiScore) -> tuple[int, int]:
    """(han, fu), fu 0 for a yakuman (kazoe included: no implementation's fu means anything there)."""
    return r.han, 0 if r.han >= 13 else r.fu


def mahjong_value(r: Any) -> tuple[int, int]:
    if r.error is not None:
        return (-1, -1)
    return r.han, 0 if r.han >= 13 else r.fu


def riichienv_value(r: Any) -> tuple[int, int]:
    if not r.is_win:
        return (-1, -1)
    return r.han, 0 if r.yakuman or r.han >= 13 else r.fu


def ours_detail(r: RiichiScore) -> str:
    yaku = " ".join(f"{y.name}{y.han}" for y in r.yaku)
    return f"{r.han}han {r.fu}fu [{yaku}] limit={r.limit} payments={r.payments}"


def mahjong_detail(r: Any) -> str:
    if r.error is not None:
        return f"error {r.error}"
    yaku = " ".join(f"{y.name}" for y in r.yaku)
    return f"{r.han}han {r.fu}fu [{yaku}] total={r.cost['total']}"


def riichienv_detail(r: Any) -> str:
    if not r.is_win:
        return f"no win (shape={r.has_win_shape}, yaku ids {r.yaku})"
    yaku = " ".join(y.name_en for y in r.yaku_list())
    return f"{r.han}han {r.fu}fu [{yaku}] ron={r.ron_agari} tsumo={r.tsumo_agari_oya}/{r.tsumo_agari_ko}"


@dataclass
class Agreement:
    check: str
    hands: int
    agree: int = 0
    examples: list[str] = field(default_factory=list)


def compare(
    check: str,
    situations: Sequence[Situation],
    mine: Sequence[Any],
    theirs: Sequence[Any],
    same: Callable[[Situation, Any, Any], bool],
    peer_detail: Callable[[Any], str],
    mine_detail: Callable[[Any], str] = ours_detail,
    labels: tuple[str, str] = ("ours", "peer"),
) -> Agreement:
    agreement = Agreement(check, len(situations))
    for s, a, b in zip(situations, mine, theirs, strict=True):
        if same(s, a, b):
            agreement.agree += 1
        elif len(agreement.examples) < MAX_PRINTED_MISMATCHES:
            agreement.examples.append(
                f"{s.describe()}\n          {labels[0]}: {mine_detail(a)}\n          {labels[1]}: {peer_detail(b)}"
            )
    return agreement


def agreements(situations: list[Situation], inputs: dict[str, list[Any]]) -> list[Agreement]:
    mine = [ours_score(i) for i in inputs[OURS]]
    mahjong = [mahjong_score(i) for i in inputs[MAHJONG]]
    renv = [riichienv_rust_score(i) for i in inputs[RIICHIENV_RUST]]
    wrapper = [riichienv_score(i) for i in inputs[RIICHIENV]]
    return [
        compare(
            "han and fu: ours = mahjong",
            situations,
            mine,
            mahjong,
            lambda s, a, b: ours_value(a) == mahjong_value(b),
            mahjong_detail,
            labels=("ours", "mahjong"),
        ),
        compare(
            "winner's points (honba, sticks in): ours = mahjong",
            situations,
            mine,
            mahjong,
            lambda s, a, b: b.error is None and a.payments[s.winner] + a.riichi_sticks_won == b.cost["total"],
            mahjong_detail,
            labels=("ours", "mahjong"),
        ),
        compare(
            "han and fu: ours = riichienv (Rust class)",
            situations,
            mine,
            renv,
            lambda s, a, b: ours_value(a) == riichienv_value(b),
            riichienv_detail,
            labels=("ours", "riichienv"),
        ),
        compare(
            "han and fu: riichienv wrapper = its Rust class",
            situations,
            wrapper,
            renv,
            lambda s, a, b: riichienv_value(a) == riichienv_value(b),
            riichienv_detail,
            mine_detail=riichienv_detail,
            labels=("wrapper", "rust"),
        ),
    ]


# --- timing ----------------------------------------------------------------------


@dataclass
class Row:
    impl: str
    hands: int
    cold_best_us: float
    cold_median_us: float
    warm_best_us: float
    warm_median_us: float
    cold_passes_ns: list[int] = field(default_factory=list)
    warm_passes_ns: list[int] = field(default_factory=list)
    note: str = ""


Contender = tuple[str, Callable[[Any], Any], Sequence[Any], str]


def our_caches() -> dict[str, Any]:
    """Every ``functools`` cache in the modules our scorer runs through, by name.

    Found at run time, so that a cache added to the scorer later is cleared and
    reported too.
    """
    import app.core.shape.decompose
    import app.core.value.riichi_scoring

    found = {}
    for module in (app.core.value.riichi_scoring, app.core.shape.decompose):
        for name, value in vars(module).items():
            if callable(getattr(value, "cache_clear", None)) and callable(getattr(value, "cache_info", None)):
                found.setdefault(f"{getattr(value, '__module__', module.__name__)}.{name}", value)
    return found


def clear_caches(impl: str) -> None:
    """Empty the caches that ``impl`` reads, before a cold pass: ours, or mahjong's ``divide_hand`` cache."""
    if impl.startswith("tenpai"):
        for cache in our_caches().values():
            cache.cache_clear()
    elif impl.startswith("mahjong"):
        HandDivider._divide_hand_impl.cache_clear()


def cache_state() -> dict[str, tuple[int, int, int]]:
    """(hits, misses, size) of each of our caches."""
    out = {}
    for name, cache in our_caches().items():
        info = cache.cache_info()
        out[name] = (info.hits, info.misses, info.currsize)
    return out


def cache_delta(before: dict[str, tuple[int, int, int]], after: dict[str, tuple[int, int, int]]) -> str:
    parts = []
    for name, (hits, misses, size) in after.items():
        h0, m0, _ = before.get(name, (0, 0, 0))
        parts.append(f"{name}: hits={hits - h0} misses={misses - m0} size={size}")
    return "; ".join(parts) or "no caches found"


def time_rows(contenders: Sequence[Contender], repeat: int) -> tuple[list[Row], dict[str, str]]:
    """``repeat`` rounds; in each, every row gets a cold pass (its caches emptied just
    before) and right after it a warm pass (its caches as the cold pass left them).

    Rounds interleave the rows, so that a busy moment of a shared machine hits
    them all rather than one.
    """
    cold: list[list[int]] = [[] for _ in contenders]
    warm: list[list[int]] = [[] for _ in contenders]
    cache_notes: dict[str, str] = {}
    for number in range(repeat):
        for slot, (impl, fn, inputs, _) in enumerate(contenders):
            clear_caches(impl)
            before = cache_state()
            cold[slot].append(timed_pass_ns(fn, inputs))
            middle = cache_state()
            warm[slot].append(timed_pass_ns(fn, inputs))
            if impl == OURS and number == 0:
                cache_notes["cold pass"] = cache_delta(before, middle)
                cache_notes["warm pass"] = cache_delta(middle, cache_state())
        print(f"  round {number + 1}/{repeat} done", file=sys.stderr, flush=True)
    rows = []
    for (impl, _, inputs, note), c, w in zip(contenders, cold, warm, strict=True):
        per = len(inputs) * 1000
        rows.append(
            Row(
                impl,
                len(inputs),
                min(c) / per,
                statistics.median(c) / per,
                min(w) / per,
                statistics.median(w) / per,
                c,
                w,
                note,
            )
        )
    return rows, cache_notes


# --- /score/batch over HTTP ------------------------------------------------------


BATCH_BODY_LIMIT: Final = 16_777_216  # TENPAI_MAX_BODY_BYTES of the batch server


@dataclass
class HttpRow:
    hands: int
    batch_size: int
    request_bytes: int
    best_hands_per_s: float
    median_hands_per_s: float
    best_us: float  # per hand, HTTP wall time of the best pass
    passes_ns: list[int]
    agree: int
    differs: list[str]


def http_section(situations: Sequence[Situation], args: argparse.Namespace, workdir: Path) -> HttpRow:
    """``/score/batch`` on a local server: every situation, ``--batch-size`` items a request."""
    items = [score_item(s) for s in situations]
    size = args.batch_size
    bodies = [
        json.dumps({"items": items[at : at + size], "rules": "riichi"}, separators=(",", ":")).encode()
        for at in range(0, len(items), size)
    ]
    if max(map(len, bodies)) > BATCH_BODY_LIMIT:
        raise RuntimeError(f"a batch body is over the server's limit {BATCH_BODY_LIMIT}")
    spec = tenpai_spec(
        "tenpai-score-batch",
        TENPAI_MAX_BATCH_SIZE=str(max(size, 1000)),
        TENPAI_MAX_BODY_BYTES=str(BATCH_BODY_LIMIT),
        TENPAI_MAX_ANSWER_BYTES=str(4096 * max(size, 1000)),
        TENPAI_CACHE_SIZE="0",
    )
    passes: list[int] = []
    with serving(spec, workdir) as server:
        timed_requests_ns(server, "/score/batch", bodies[:1])  # warm-up
        for number in range(args.repeat):
            gc.disable()
            try:
                elapsed, payloads = timed_requests_ns(server, "/score/batch", bodies)
            finally:
                gc.enable()
            passes.append(elapsed)
            print(f"  /score/batch pass {number + 1}/{args.repeat} done", file=sys.stderr, flush=True)
    results = [result for payload in payloads for result in json.loads(payload)["results"]]
    if len(results) != len(situations):
        raise RuntimeError(f"/score/batch answered {len(results)} results for {len(situations)} items")
    agree = 0
    differs: list[str] = []
    for s, answer in zip(situations, results, strict=True):
        mine = ours_score(ours_input(s))
        if "error" not in answer and (answer["han"], answer["fu"], tuple(answer["payments"])) == (
            mine.han,
            mine.fu,
            mine.payments,
        ):
            agree += 1
        elif len(differs) < MAX_PRINTED_MISMATCHES:
            differs.append(f"{s.describe()}\n          /score/batch: {answer}\n          ours: {ours_detail(mine)}")
    hands = len(situations)
    best, median = min(passes), statistics.median(passes)
    return HttpRow(
        hands,
        size,
        sum(map(len, bodies)),
        hands / (best / 1e9),
        hands / (median / 1e9),
        best / hands / 1000,
        passes,
        agree,
        differs,
    )


def print_http(row: HttpRow, repeat: int) -> None:
    print()
    print(
        f"/score/batch over HTTP (uvicorn, one worker, 127.0.0.1): {row.hands} situations in requests of "
        f"{row.batch_size} ({row.request_bytes / 1024:.0f} KiB in all), one after another on one connection, "
        f"{repeat} passes"
    )
    print(
        f"  best {row.best_hands_per_s:,.0f} hands/s ({row.best_us:.1f} µs/hand), "
        f"median {row.median_hands_per_s:,.0f} hands/s; han, fu and payments = score_riichi's: "
        f"{row.agree}/{row.hands}"
    )
    for example in row.differs:
        print(f"      differs: {example}")


# --- report ----------------------------------------------------------------------


def environment() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "mahjong": version("mahjong"),
        "riichienv": version("riichienv"),
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpus": str(os.cpu_count()),
        "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


#: (what, our row, the peer's row, the least peer time / our time).  Issue 37: a prebuilt hand at
#: least as fast as riichienv's Rust class, and one built from plain lists as its HandEvaluator.
TARGETS: Final = (
    ("ours >= 5x faster than mahjong 2.1.0", OURS, MAHJONG, 5.0),
    ("ours no slower than riichienv's Rust class (no wrapper)", OURS, RIICHIENV_RUST, 1.0),
    ("ours from plain lists no slower than riichienv HandEvaluator", OURS_BUILD, RIICHIENV, 1.0),
)


def targets(rows: list[Row]) -> list[dict[str, Any]]:
    by = {r.impl: r for r in rows}
    out = []
    for label, mine, peer, bound in TARGETS:
        ours = by[mine]
        warm = by[peer].warm_best_us / ours.warm_best_us
        cold = by[peer].cold_best_us / ours.cold_best_us
        out.append(
            {
                "target": label,
                "ours": mine,
                "peer": peer,
                "bound": bound,
                "ratio_warm": warm,
                "ratio_cold": cold,
                "met_warm": warm >= bound,
                "met_cold": cold >= bound,
            }
        )
    return out


def print_report(
    env: dict[str, str],
    gen: Generated,
    rows: list[Row],
    cache_notes: dict[str, str],
    verdicts: list[dict[str, Any]],
    agreed: list[Agreement],
    repeat: int,
) -> None:
    print(f"python {env['python']} ({env['implementation']}), mahjong {env['mahjong']}, riichienv {env['riichienv']}")
    print(f"{env['cpu']}, {env['cpus']} cpus, {env['platform']}, load average {env['load']}")
    situations = gen.situations
    forms = Counter(s.form for s in situations)
    opened = sum(1 for s in situations if any(k != "closed_kan" for k, _ in s.melds))
    print(
        f"{len(situations)} situations kept of {gen.drawn} drawn "
        f"({', '.join(f'{k} {v}' for k, v in sorted(forms.items()))}; {opened} open, "
        f"{sum(s.tsumo for s in situations)} tsumo, {sum(s.riichi or s.double_riichi for s in situations)} riichi, "
        f"{sum(bool(s.melds) for s in situations)} with melds, "
        f"{sum(bool(s.red_fives) for s in situations)} with red fives)"
    )
    meld_kinds = Counter(kind for s in situations for kind, _ in s.melds)
    flags = {
        name: sum(getattr(s, name) for s in situations)
        for name in ("double_riichi", "ippatsu", "last_tile", "kong_replacement", "robbed_kong", "first_turn")
    }
    print(
        "  melds: "
        + ", ".join(f"{k} {v}" for k, v in sorted(meld_kinds.items()))
        + "; flags: "
        + ", ".join(f"{k} {v}" for k, v in flags.items())
        + f"; honba > 0: {sum(s.honba > 0 for s in situations)}, sticks > 0: {sum(s.sticks > 0 for s in situations)}"
    )
    for reason, n in gen.rejected.most_common():
        print(f"  dropped {n:6}  {reason}")
    for example in gen.examples:
        print(f"      dropped: {example}")
    print(
        f"{repeat} rounds; per round and row a cold pass (right after the caches the row reads were emptied: "
        "ours, or mahjong's divide_hand) and a warm pass right after it; best and median pass, µs per hand"
    )
    print(
        "'x mahjong' = mahjong time / this time, 'x riichienv' = riichienv HandEvaluator time / this time "
        "(>1: this row is faster), best warm passes, best cold passes in brackets"
    )
    print()
    by = {r.impl: r for r in rows}
    header = (
        f"{'implementation':<30} {'hands':>6} {'cold best':>9} {'cold med':>9} {'warm best':>9} {'warm med':>9} "
        f"{'x mahjong':>15} {'x riichienv':>15}"
    )
    print(header)
    print("-" * len(header))
    for r in rows:
        m, e = by[MAHJONG], by[RIICHIENV]
        vm = f"{m.warm_best_us / r.warm_best_us:6.2f} ({m.cold_best_us / r.cold_best_us:5.2f})"
        vr = f"{e.warm_best_us / r.warm_best_us:6.2f} ({e.cold_best_us / r.cold_best_us:5.2f})"
        print(
            f"{r.impl:<30} {r.hands:>6} {r.cold_best_us:>9.2f} {r.cold_median_us:>9.2f} {r.warm_best_us:>9.2f} "
            f"{r.warm_median_us:>9.2f} {vm:>15} {vr:>15}"
        )
    print()
    for r in rows:
        if r.note:
            print(f"  {r.impl}: {r.note}")
    print(f"  our caches in our first cold pass: {cache_notes.get('cold pass')}")
    print(f"  our caches in our first warm pass: {cache_notes.get('warm pass')}")
    print()
    print("targets (best passes; ours = tenpai score_riichi, or the row built from plain lists where it says so):")
    for v in verdicts:
        warm = "MET" if v["met_warm"] else "MISSED"
        cold = "met" if v["met_cold"] else "missed"
        print(f"  {v['target']:<60} warm {v['ratio_warm']:6.2f}x {warm:<6}  cold {v['ratio_cold']:6.2f}x {cold}")
    print()
    print("agreement:")
    for a in agreed:
        print(f"  {a.check:<56} {a.agree:>6}/{a.hands}")
        for example in a.examples:
            print(f"      differs: {example}")


def profile_ours(inputs: list[OursInput], top: int) -> str:
    """cProfile of our scorer over the bench hands (caches warm), by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    for item in inputs:
        ours_score(item)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


# --- main ------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="winning situations kept (default 2000)")
    parser.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    parser.add_argument("--repeat", type=int, default=7, help="rounds: cold and warm passes per row (default 7)")
    parser.add_argument("--json", type=Path, help="also write the results to this JSON file")
    parser.add_argument(
        "--http",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="then time /score/batch on a local server (default on; --no-http skips it)",
    )
    parser.add_argument("--batch-size", type=int, default=1000, help="items per /score/batch request (default 1000)")
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="TOP",
        help="after the report, cProfile ours on the same hands and print the TOP functions",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    gen = generate(random.Random(args.seed), args.hands)
    situations = gen.situations
    rust_inputs = [riichienv_rust_input(s) for s in situations]
    inputs: dict[str, list[Any]] = {
        OURS: [ours_input(s) for s in situations],
        OURS_BUILD: [ours_plain_input(s) for s in situations],
        MAHJONG: [mahjong_input(s) for s in situations],
        RIICHIENV: [riichienv_input(s) for s in situations],
        RIICHIENV_RUST: rust_inputs,
        RIICHIENV_CALC: [(riichienv_rust.HandEvaluator(t, m), w, d, u, c) for t, m, w, d, u, c in rust_inputs],
    }
    contenders: list[Contender] = [
        (OURS, ours_score, inputs[OURS], "score_riichi(hand, win, rules, context) on a prebuilt Hand and WinContext"),
        (
            OURS_BUILD,
            ours_score_built,
            inputs[OURS_BUILD],
            "Hand.from_tiles + Meld.of + WinContext(**dict) + score_riichi, from plain lists (like riichienv's rows)",
        ),
        (
            MAHJONG,
            mahjong_score,
            inputs[MAHJONG],
            "HandCalculator.estimate_hand_value(ids, win, melds, dora, config, ura_dora_indicators=ura); config prebuilt",
        ),
        (
            MAHJONG_BUILD,
            mahjong_score_built,
            situations,
            "mahjong_input(situation) + the same call: Meld, OptionalRules, HandConfig (and its YakuConfig) "
            "built per hand",
        ),
        (
            RIICHIENV,
            riichienv_score,
            inputs[RIICHIENV],
            "riichienv.HandEvaluator(ids, melds).calc(win, dora, Conditions, ura): the Python wrapper, one per hand "
            "(with exactly two kans its tile count is 1 mod 3, so it adds the winning tile again and finds no win)",
        ),
        (
            RIICHIENV_RUST,
            riichienv_rust_score,
            inputs[RIICHIENV_RUST],
            "riichienv._riichienv.HandEvaluator(ids, melds).calc(...) with Rust Conditions prebuilt (no wrapper)",
        ),
        (
            RIICHIENV_CALC,
            riichienv_calc_only,
            inputs[RIICHIENV_CALC],
            "evaluator.calc(...) on a prebuilt Rust HandEvaluator (construction not timed)",
        ),
    ]
    print(f"timing {len(situations)} situations (progress):", file=sys.stderr)
    rows, cache_notes = time_rows(contenders, args.repeat)
    agreed = agreements(situations, inputs)
    verdicts = targets(rows)
    env = environment()
    print_report(env, gen, rows, cache_notes, verdicts, agreed, args.repeat)
    http_row = None
    if args.http:
        with tempfile.TemporaryDirectory(prefix="tenpai-score-") as workdir:
            http_row = http_section(situations, args, Path(workdir))
        print_http(http_row, args.repeat)
    if args.profile:
        print(f"\ncProfile of {OURS} over the same {len(situations)} hands (caches warm), by own time:")
        print(profile_ours(inputs[OURS], args.profile))
    elapsed = time.perf_counter() - started
    print(f"\nwall time {elapsed:.1f} s")
    if args.json:
        payload = {
            "environment": env,
            "config": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
            "generated": {
                "kept": len(situations),
                "drawn": gen.drawn,
                "rejected": dict(gen.rejected),
                "dropped_but_scored_by_mahjong": gen.examples,
            },
            "rows": [asdict(r) for r in rows],
            "cache": cache_notes,
            "targets": verdicts,
            "agreement": [asdict(a) for a in agreed],
            "score_batch_http": None if http_row is None else asdict(http_row),
            "wall_seconds": elapsed,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

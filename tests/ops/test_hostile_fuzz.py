"""No 200-byte request takes the service down (issue 33, point 7): hostile rule overrides
against every POST route of one live ``python -m app.main``.

Hypothesis draws a ``rules`` value (``{"preset": P, ...overrides}``: ``absent_tiles`` any
subset of the 34 kinds, every other option ``GET /rules`` lists, with values of the right type
and, now and then, of a wrong type or out of range) and, for each POST route the app's OpenAPI
document lists, a small valid-looking body under those rules: hands of a few shapes built from
the tiles the rules have (complete, ready, seven pairs, orphans, knitted, random; melds, red
fives, wildcards, a void suit), situations, dora indicators, mjai logs of a self-played hand.

Every call has a hard wall-clock bound (cheap routes :data:`CHEAP_BOUND`, heavy ones
``TENPAI_HEAVY_SECONDS`` + 3 s, ``/simulate`` ``TENPAI_SIMULATE_SECONDS`` + 3 s) and must be
answered with a 200, a 4xx whose envelope names a field (``detail[0].loc`` non-empty) or a
503 ``out_of_time`` / ``too_busy``: never a 500, never a timeout. After each answer ``GET
/health`` must answer 200 within 2 s, and the server must go idle: its CPU time is read from
``/proc`` a moment after the answer, and when it is still busy, over the 3 s after the answer,
which must cost under 1 CPU-s.

One server serves the module. A call that fails leaves it suspect (a thread may spin on), so
the next call restarts it first: each example is judged on a healthy server, never on one that
an earlier request wedged. A failure names the route, what happened and the whole body (a few
hundred bytes: Hypothesis does not shrink it, since each failing call costs its bound and a
restart). The server runs in its own session and is killed with it at teardown (and by the
kernel if this process dies first): no process outlives the run.

The explicit examples (:data:`KNOWN_CORNERS`) are the reported corners, on every route: a whole
honour cycle absent (winds, dragons, every honour) and a suit's 2-8 absent, with
thirteen_orphans false, with a situation, red fives and dora indicators.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

import httpx
import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from ops_helpers import READY_TIMEOUT_SECONDS, ROOT, clean_environment, free_port

from app.core.families.registry import FAMILIES, TABLES
from app.core.shape.hand import MeldKind
from app.core.shape.rules import OPTIONS, OPTIONS_BY_NAME, PRESETS, RuleProfile, rule_profile
from app.core.shape.tiles import HONORS, TERMINALS, format_tile, parse_tiles
from app.core.table.family import TypedOption
from app.core.table.game import GameConfig, play_game
from app.core.table.players import PLAYER_KINDS
from app.core.value.scoring import SITUATION_FIELDS
from app.main import create_app

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads the server's CPU time from /proc"),
]

# --- bounds --------------------------------------------------------------------------------

HEAVY_SECONDS: Final = 2.0
SIMULATE_SECONDS: Final = 2.0
CHEAP_BOUND: Final = 5.0
HEAVY_BOUND: Final = HEAVY_SECONDS + 3
SIMULATE_BOUND: Final = SIMULATE_SECONDS + 3
HEALTH_BOUND: Final = 2.0
#: The server must burn under IDLE_CPU CPU-s in the IDLE_WINDOW s after an answer. It is
#: looked at GLANCE s after the answer first; only a server still busy then is watched for the
#: whole window (an idle one costs the test GLANCE s, not IDLE_WINDOW).
IDLE_WINDOW: Final = 3.0
IDLE_CPU: Final = 1.0
GLANCE: Final = 0.15
GLANCE_CPU: Final = 0.05
#: Routes whose work is heavy (app/api/heavy.py): a budget of TENPAI_HEAVY_SECONDS.
HEAVY_ROUTES: Final = frozenset({"/discard", "/referee", "/act", "/review", "/records/convert"})
#: Generated examples per route (the explicit ones come on top); heavy routes cost seconds each.
EXAMPLES: Final = 16
HEAVY_EXAMPLES: Final = 10
SERVER_ENV: Final = {
    "TENPAI_HEAVY_SECONDS": str(HEAVY_SECONDS),
    "TENPAI_SIMULATE_SECONDS": str(SIMULATE_SECONDS),
    "TENPAI_WORKERS": "1",
    "TENPAI_ACCESS_LOG": "false",
    "TENPAI_LOG_LEVEL": "warning",
}

# --- the routes ----------------------------------------------------------------------------


def post_routes() -> list[str]:
    """Every POST path of the app's OpenAPI document: a new route is fuzzed (or fails) at once."""
    paths = create_app().openapi()["paths"]
    return sorted(path for path, operations in paths.items() if "post" in operations)


POST_ROUTES: Final = post_routes()


def bound(route: str, body: Any) -> float:
    """The wall-clock bound of one call: heavy work has its budget and 3 s of margin."""
    if route == "/simulate":
        return SIMULATE_BOUND
    wildcards = route.startswith("/win") and isinstance(body, dict) and profile_of(body.get("rules")).wildcards
    if route in HEAVY_ROUTES or wildcards:  # a /win of wildcards is heavy too
        return max(CHEAP_BOUND, HEAVY_BOUND)
    return CHEAP_BOUND


# --- rule overrides ------------------------------------------------------------------------

WINDS: Final = HONORS[:4]
DRAGONS: Final = HONORS[4:]
NOT_TERMINALS: Final = tuple(tile for tile in range(34) if tile not in TERMINALS)
#: Blocks of kinds whose absence is a corner: each honour cycle, every honour, a suit's 2-8.
ABSENT_BLOCKS: Final = (
    WINDS,
    DRAGONS,
    HONORS,
    *(tuple(range(9 * suit + 1, 9 * suit + 8)) for suit in range(3)),
)

wrong_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 40),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(alphabet="0123456789mpszx ", max_size=6),
    st.lists(st.one_of(st.integers(-1, 40), st.text(alphabet="159mpz", max_size=3)), max_size=4),
    st.just({"x": 1}),
)
tile_kinds = st.sets(st.integers(0, 33), max_size=3)


def encoded_tiles(kinds: frozenset[int] | set[int], style: int) -> Any:
    """``kinds`` as a request writes tiles: names, an mpsz string or integers."""
    ordered = sorted(kinds)
    if style == 0:
        return [format_tile(tile) for tile in ordered]
    if style == 1:
        return mpsz(ordered)
    return ordered


def one_in(n: int) -> st.SearchStrategy[bool]:
    """True about once in ``n`` draws (a middle value: Hypothesis favours the bounds of a range)."""
    return st.integers(1, n).map(lambda k: k == (n + 1) // 2)


@st.composite
def absent_tiles(draw: st.DrawFn) -> Any:
    """Any subset of the 34 kinds, biased to whole blocks (honour cycles, a suit's 2-8)."""
    if not draw(one_in(10)):
        kinds = set().union(*draw(st.lists(st.sampled_from(ABSENT_BLOCKS), max_size=3)))
        kinds |= draw(st.sets(st.sampled_from(NOT_TERMINALS), max_size=4))
    else:  # terminals too: refused, by name
        kinds = draw(st.sets(st.integers(0, 33), max_size=34))
    return encoded_tiles(kinds, draw(st.integers(0, 2)))


def _valid_values(option: Any) -> st.SearchStrategy[Any] | None:
    """Values of the right type for one rule option, read from its kind; None: unknown kind."""
    if option.name == "absent_tiles":
        return absent_tiles()
    schema = dict(option.kind.schema) if option.kind.schema is not None else None
    if schema is None:  # tiles (wildcards): the HTTP layer's notation
        return st.builds(encoded_tiles, tile_kinds, st.integers(0, 2))
    if option.kind.plain_type is bool and schema.get("type") == "boolean":
        return st.booleans()
    if "enum" in schema:
        return st.sampled_from(list(schema["enum"]))
    if "anyOf" in schema:  # seven_pairs: a name or a boolean
        parts = [st.sampled_from(list(part["enum"])) if "enum" in part else st.booleans() for part in schema["anyOf"]]
        return st.one_of(parts)
    if schema.get("type") == "integer":
        return st.integers(schema.get("minimum", -5), schema.get("maximum", 50))
    if schema.get("type") == "array" and "enum" in schema.get("items", {}):
        return st.lists(st.sampled_from(list(schema["items"]["enum"])), unique=True, max_size=3)
    return None


def _typed_values(field: TypedOption) -> st.SearchStrategy[Any]:
    """Values of the right type for one of a family's typed options, read from its declared type."""
    if field.choices:
        return st.sampled_from(list(field.choices))
    if field.type == "integer":
        return st.integers(
            -5 if field.minimum is None else field.minimum, 50 if field.maximum is None else field.maximum
        )
    return st.booleans()


VALID_VALUES: Final = {option.name: _valid_values(option) for option in OPTIONS} | {
    field.name: _typed_values(field)
    for family in FAMILIES
    if family.typed_presets
    for field in family.option_fields()
    if field.name not in OPTIONS_BY_NAME
}
FUZZED_OPTIONS: Final = sorted(name for name, values in VALID_VALUES.items() if values is not None)


@st.composite
def option_value(draw: st.DrawFn, name: str) -> Any:
    """Fourteen times in fifteen a value of the right type, else one of a wrong type or range."""
    values = VALID_VALUES[name]
    assert values is not None
    return draw(wrong_values) if draw(one_in(15)) else draw(values)


def _kinds(value: Any) -> set[int]:
    """The tile kinds a tiles value names (none when it is not tiles)."""
    with contextlib.suppress(Exception):
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return {tile for item in value for tile in parse_tiles(item)}
        return set(parse_tiles(value))
    return set()


@st.composite
def rules_values(draw: st.DrawFn) -> Any:
    """A ``rules`` value: mostly ``{"preset": P, ...overrides}``, sometimes a bare preset or junk."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    if draw(one_in(30)):
        return draw(st.one_of(st.sampled_from(["hong_kong", "", "RIICHI"]), wrong_values))
    if draw(one_in(12)):
        return preset
    rules: dict[str, Any] = {} if draw(one_in(20)) else {"preset": preset}  # riichi by default
    if draw(one_in(30)):
        rules["preset"] = draw(wrong_values)
    if not draw(one_in(3)):
        rules["absent_tiles"] = draw(option_value("absent_tiles"))
    for name in draw(st.lists(st.sampled_from(FUZZED_OPTIONS), unique=True, max_size=4)):
        rules[name] = draw(option_value(name))
    if _kinds(rules.get("absent_tiles")) & set(HONORS) and not draw(one_in(5)):
        rules["thirteen_orphans"] = False  # honours may be absent only so: reach past the check
    if draw(one_in(30)):
        rules["bogus_option"] = draw(wrong_values)
    return rules


@dataclass(frozen=True)
class Case:
    """One drawn question: the rules, and the knobs the route's builder reads."""

    rules: Any
    shape: str = "complete"
    melds: int = 0
    situation: bool = True
    red: bool = True
    dora: bool = True
    seed: int = 0


SHAPES: Final = ("complete", "ready", "pairs", "orphans", "knitted", "random")

cases = st.builds(
    Case,
    rules=rules_values(),
    shape=st.sampled_from(SHAPES),
    melds=st.integers(0, 2),
    situation=st.booleans(),
    red=st.booleans(),
    dora=st.booleans(),
    seed=st.integers(0, 2**16),
)


def _known(preset: str, absent: Any, **more: Any) -> Case:
    return Case({"preset": preset, "thirteen_orphans": False, "absent_tiles": absent, **more})


#: The corners known to have failed, on every route (with a situation, red fives and dora
#: indicators): with thirteen_orphans false, a whole honour cycle absent (the reported infinite
#: loop: the winds, the dragons, every honour), a suit's 2-8 absent; and a three-seat MCR table.
KNOWN_CORNERS: Final = (
    _known("riichi", ["1z", "2z", "3z", "4z"]),
    _known("riichi", ["5z", "6z", "7z"]),
    _known("chinese", "1234567z"),
    _known("riichi", "2345678p"),
    _known("sanma", [27, 28, 29, 30]),
    Case({"preset": "mcr", "thirteen_orphans": False, "absent_tiles": "567z"}, shape="ready", melds=1, seed=1),
    Case({"preset": "mcr", "seats": 3}, seed=2),  # a three-seat MCR table (found by this test)
)

# --- tiles and hands -----------------------------------------------------------------------


def mpsz(tiles: list[int], *, red: bool = False) -> str:
    """Tiles in mpsz, one group per suit; with ``red``, one 5 of each suit as its red 0."""
    groups = []
    for suit, letter in enumerate("mpsz"):
        digits = sorted(tile % 9 + 1 for tile in tiles if tile // 9 == suit)
        if red and suit < 3 and 5 in digits:
            digits[digits.index(5)] = 0
        if digits:
            groups.append("".join(map(str, digits)) + letter)
    return "".join(groups)


def profile_of(rules: Any) -> RuleProfile:
    """The rules as the service would read them, or the nearest valid ones to build hands for."""
    preset = rules if isinstance(rules, str) else rules.get("preset", "riichi") if isinstance(rules, dict) else ""
    overrides = {key: value for key, value in rules.items() if key != "preset"} if isinstance(rules, dict) else {}
    for attempt in ((preset, overrides), (preset, {}), ("riichi", {})):
        with contextlib.suppress(Exception):
            return rule_profile(attempt[0], **attempt[1])
    raise AssertionError("unreachable: riichi is a preset")


def preset_of(rules: Any) -> str:
    name = rules if isinstance(rules, str) else rules.get("preset") if isinstance(rules, dict) else None
    return name if isinstance(name, str) and name in PRESETS else "riichi"


@dataclass
class Deal:
    """A hand for one question: concealed tiles, declared melds, and what else the builder needs."""

    concealed: list[int]
    melds: list[dict[str, Any]]
    melded: list[int]
    pool: list[int]
    void_suit: str | None
    rng: random.Random
    profile: RuleProfile
    red: bool
    counts: Counter[int] = field(default_factory=Counter)

    def text(self, tiles: list[int] | None = None) -> str:
        return mpsz(self.concealed if tiles is None else tiles, red=self.red)

    def some_tiles(self, count: int) -> list[int]:
        """``count`` tiles the set has with copies left beyond the hand and melds."""
        chosen: list[int] = []
        for _ in range(count):
            free = [tile for tile in self.pool if self.counts[tile] < 4]
            if not free:
                break
            tile = self.rng.choice(free)
            self.counts[tile] += 1
            chosen.append(tile)
        return chosen


def _complete(pool: list[int], rng: random.Random, want_triplet: bool) -> tuple[int, list[list[int]]]:
    """A pair and four groups of ``pool`` tiles, at most four copies each."""
    for _ in range(200):
        counts: Counter[int] = Counter()
        pair = rng.choice(pool)
        counts[pair] += 2
        groups: list[list[int]] = []
        while len(groups) < 4:
            runs = [
                [tile, tile + 1, tile + 2]
                for tile in pool
                if tile < 27 and tile % 9 <= 6 and {tile + 1, tile + 2} <= set(pool)
                if all(counts[t] < 4 for t in (tile, tile + 1, tile + 2))
            ]
            triplets = [[tile] * 3 for tile in pool if counts[tile] <= 1]
            if want_triplet and not groups and triplets:
                runs = []
            options = runs if runs and rng.random() < 0.6 else triplets or runs
            if not options:
                break
            group = rng.choice(options)
            groups.append(group)
            counts.update(group)
        if len(groups) == 4:
            return pair, groups
    raise AssertionError(f"no complete hand of {pool}")


def deal(case: Case, size: int) -> Deal:
    """A hand of ``size`` concealed tiles (14 or 13, less 3 a meld) under the case's rules."""
    profile = profile_of(case.rules)
    rng = random.Random(case.seed)
    present = [tile for tile in range(34) if tile not in profile.absent_tiles]
    pool = [tile for tile in present if tile not in profile.wildcards] or present
    void_suit = None
    if profile.void_suit:
        void_suit = rng.choice("mps")
        kept = [tile for tile in pool if tile >= 27 or "mps"[tile // 9] != void_suit]
        pool = kept if len(kept) >= 6 else pool
    shape = case.shape
    melds: list[dict[str, Any]] = []
    melded: list[int] = []
    if shape in ("complete", "ready"):
        pair, groups = _complete(pool, rng, want_triplet=bool(profile.win_requires_meld) or case.melds > 0)
        counts = Counter([pair, pair, *(tile for group in groups for tile in group)])
        for group in groups[: case.melds]:
            kind = _meld_kind(group, profile, rng, counts)
            if kind is None:
                continue
            tiles = group + [group[0]] if "kan" in kind else group
            counts[group[0]] += len(tiles) - 3
            melds.append({"kind": kind, "tiles": mpsz(tiles, red=case.red and rng.random() < 0.5)})
            melded += tiles
            groups = [g for g in groups if g is not group]
        concealed = [pair, pair, *(tile for group in groups for tile in group)]
        rng.shuffle(concealed)
        if shape == "ready":
            concealed.pop()
    elif shape == "pairs" and len(pool) >= 7:
        concealed = [tile for tile in rng.sample(pool, 7) for _ in range(2)]
    elif shape == "orphans":
        orphans = [tile for tile in (*TERMINALS, *HONORS) if tile in pool]
        concealed = [*orphans, rng.choice(orphans)]
    elif shape == "knitted":
        suits = rng.sample(range(3), 3)
        knitted = [9 * suit + start + step for suit, start in zip(suits, (0, 1, 2), strict=True) for step in (0, 3, 6)]
        concealed = [tile for tile in knitted if tile in pool] + [tile for tile in HONORS if tile in pool]
        concealed = rng.sample(concealed, min(len(concealed), 14))
    else:
        concealed = []
    result = Deal(concealed, melds, melded, pool, void_suit, rng, profile, case.red)
    result.counts = Counter(concealed + melded)
    want = size - 3 * len(melds)
    while len(result.concealed) > want:
        result.concealed.remove(rng.choice(result.concealed))
        result.counts = Counter(result.concealed + melded)
    result.concealed += result.some_tiles(want - len(result.concealed))
    if profile.wildcards and rng.random() < 0.5:
        for index in rng.sample(range(len(result.concealed)), min(3, len(result.concealed))):
            wildcard = rng.choice(profile.wildcards)
            if result.counts[wildcard] < 4:
                result.counts[result.concealed[index]] -= 1
                result.concealed[index] = wildcard
                result.counts[wildcard] += 1
    return result


def _meld_kind(group: list[int], profile: RuleProfile, rng: random.Random, counts: Counter[int]) -> str | None:
    if group[0] != group[1]:
        return MeldKind.CHI.value if profile.chi_allowed or rng.random() < 0.1 else None
    kinds = [MeldKind.PON.value]
    if counts[group[0]] < 4:
        kinds += [MeldKind.OPEN_KAN.value, MeldKind.CLOSED_KAN.value, MeldKind.ADDED_KAN.value]
    return rng.choice(kinds)


# --- request builders, one per POST route ----------------------------------------------------


def situation(case: Case, hand: Deal, *, win_tile: int | None) -> dict[str, Any]:
    """The /score fields beside the hand: seats, and now and then each flag of the win that the
    rules' scoring reads (one it does not read, once in a while: a 422 at that field)."""
    rng, seats = hand.rng, hand.profile.seats
    read = SITUATION_FIELDS.get(hand.profile.name, frozenset())

    def wanted(name: str, chance: float) -> bool:
        return rng.random() < (chance if name in read else chance / 20)

    winner, dealer = rng.randrange(seats), rng.randrange(seats)
    others = [seat for seat in range(seats) if seat != winner]
    fields: dict[str, Any] = {"winner": winner, "dealer": dealer, "discarder": rng.choice([None, *others])}
    if case.dora and (wanted("dora_indicators", 1.0) or hand.profile.name not in SITUATION_FIELDS):
        fields["dora_indicators"] = mpsz(hand.some_tiles(rng.randint(1, 2)), red=case.red)
        if wanted("ura_indicators", 0.3):
            fields["ura_indicators"] = mpsz(hand.some_tiles(1))
    winds = [format_tile(tile) for tile in HONORS[:4] if tile in hand.pool]
    for name in ("round_wind", "seat_wind"):
        if winds and wanted(name, 0.4):
            fields[name] = rng.choice(winds)
    for flag in ("riichi", "ippatsu", "last_tile", "first_turn", "last_copy", "after_kong"):
        if wanted(flag, 0.1):
            fields[flag] = True
    for flag in ("kong_replacement", "robbed_kong"):
        if rng.random() < 0.05:
            fields[flag] = True
    for name, most in (("honba", 3), ("riichi_sticks", 2), ("nuki", 1), ("flowers", 2)):
        if wanted(name, 0.2):
            fields[name] = rng.randint(0, most)
    if hand.void_suit is not None:
        fields["void_suit"] = hand.void_suit
    if win_tile is not None:
        fields["win_tile"] = mpsz([win_tile])
    return fields


def _hand_fields(case: Case, hand: Deal) -> dict[str, Any]:
    body: dict[str, Any] = {"hand": hand.text(), "melds": hand.melds, "rules": case.rules}
    if hand.rng.random() < 0.3:
        body["visible"] = mpsz(hand.some_tiles(hand.rng.randint(1, 4)))
    if hand.void_suit is not None:
        body["void_suit"] = hand.void_suit
    return body


def build_win(case: Case) -> dict[str, Any]:
    hand = deal(case, 14)
    body = _hand_fields(case, hand)
    if case.situation:
        body["situation"] = situation(case, hand, win_tile=hand.rng.choice(hand.concealed))
    return body


def build_ting(case: Case) -> dict[str, Any]:
    hand = deal(case, 13)
    body = _hand_fields(case, hand)
    if case.situation:
        body["situation"] = situation(case, hand, win_tile=None)
    return body


def build_shanten(case: Case) -> dict[str, Any]:
    return _hand_fields(case, deal(case, 13 + case.seed % 2))


def _batch(case: Case, size: int) -> dict[str, Any]:
    first = deal(case, size)
    body = _hand_fields(case, first)
    others = [deal(Case(case.rules, shape, 0, seed=case.seed + n), size) for n, shape in enumerate(SHAPES[:2], 1)]
    hands = [first.text()] + ([hand.text() for hand in others] if not first.melds else [])
    return {**{key: value for key, value in body.items() if key != "hand"}, "hands": hands}


def build_discard(case: Case) -> dict[str, Any]:
    hand = deal(case, 14)
    rng = hand.rng
    body = _hand_fields(case, hand)
    if case.dora:
        body["dora_indicators"] = mpsz(hand.some_tiles(rng.randint(1, 2)), red=case.red)
    if rng.random() < 0.5:
        body["turn"] = rng.randint(1, 18)
    winds = [format_tile(tile) for tile in HONORS[:4] if tile in hand.pool]
    if winds and rng.random() < 0.4:
        body["seat_wind"], body["round_wind"] = rng.choice(winds), rng.choice(winds)
    if rng.random() < 0.4:
        river = hand.some_tiles(rng.randint(1, 6))
        body["opponents"] = [{"river": mpsz(river), "riichi": rng.random() < 0.5}]
    if rng.random() < 0.3:
        body["model"] = rng.choice(["expected_score", "linear", "fan_plan"])
    if rng.random() < 0.2:
        body["options"] = {"lookahead": True, "lookahead_budget": rng.choice([50, 2000]), "improvements": True}
    return body


def build_score(case: Case) -> dict[str, Any]:
    if case.shape in ("ready", "random"):  # a win to score, mostly
        case = replace(case, shape="complete")
    hand = deal(case, 14)
    win_tile = hand.rng.choice(hand.concealed)
    body = _hand_fields(case, hand)
    body.pop("visible", None)
    body.pop("void_suit", None)
    return {**body, **situation(case, hand, win_tile=win_tile)}


def build_score_batch(case: Case) -> dict[str, Any]:
    items = []
    for n in range(2):
        item = build_score(replace(case, seed=case.seed + n))
        del item["rules"]
        items.append(item)
    return {"items": items, "rules": case.rules}


def build_simulate(case: Case) -> dict[str, Any]:
    rng = random.Random(case.seed)
    profile = profile_of(case.rules)
    rules = case.rules
    if isinstance(rules, dict):
        preset: Any = rules.get("preset", "riichi")
        options = {key: value for key, value in rules.items() if key != "preset"}
    else:
        preset, options = rules, {}
    cheap = [name for name in sorted(PLAYER_KINDS) if name not in ("advisor", "placer")]
    players = [rng.choice(cheap) for _ in range(profile.seats)]
    if rng.random() < 0.3:
        players[0] = "advisor"
    body = {"rules": preset, "players": players, "games": rng.randint(1, 2), "seed": rng.randint(0, 999)}
    if preset in ("riichi", "sanma") and rng.random() < 0.2:
        body["length"] = "tonpuu"
    return {**body, "options": options} if options or rng.random() < 0.5 else body


@functools.cache
def self_played(preset: str) -> tuple[str, ...]:
    """One hand of ``preset`` played by the cheap strategies: an mjai log, one event a line."""
    seats = PRESETS[preset].seats
    events = play_game(
        GameConfig(preset, ("greedy", "heuristic", "linear", "random")[:seats], seed=7), 0, TABLES
    ).events
    return tuple(json.dumps(event) for event in events)


def _log(case: Case) -> list[dict[str, Any]]:
    return [json.loads(line) for line in self_played(preset_of(case.rules))]


def build_referee(case: Case) -> dict[str, Any]:
    body: dict[str, Any] = {"events": _log(case), "rules": case.rules}
    if case.seed % 3 == 0:
        body["length"] = "kyoku"
    return body


def build_act(case: Case) -> dict[str, Any]:
    events = _log(case)
    rng = random.Random(case.seed)
    # Right after a draw or a discard: the drawing seat decides, or another seat may claim.
    cuts = [(index + 1, event) for index, event in enumerate(events) if event["type"] in ("tsumo", "dahai")]
    index, event = rng.choice(cuts[:12])
    seat = event["actor"] if event["type"] == "tsumo" else (event["actor"] + 1) % len(events[1]["scores"])
    return {"seat": seat, "events": events[:index], "rules": case.rules}


def build_review(case: Case) -> dict[str, Any]:
    rng = random.Random(case.seed)
    events = _log(case)
    body: dict[str, Any] = {"seat": rng.randrange(len(events[1]["scores"])), "rules": case.rules}
    if rng.random() < 0.5:
        body["events"] = events
    else:
        body["log"] = "\n".join(self_played(preset_of(case.rules)))
        body["format"] = rng.choice([None, "mjai"])
    if rng.random() < 0.5:
        body["kyoku"] = 0
    return body


def build_convert(case: Case) -> dict[str, Any]:
    rng = random.Random(case.seed)
    log = "\n".join(self_played(preset_of(case.rules)))
    # Tenhou's formats hold riichi and sanma games; other games convert to mjai, mostly.
    formats = ["mjai", "tenhou6", "mjlog"] if preset_of(case.rules) in ("riichi", "sanma") else ["mjai"] * 4 + ["mjlog"]
    return {"log": log, "format": rng.choice([None, "mjai"]), "to": rng.choice(formats), "rules": case.rules}


def build_no_body(case: Case) -> None:
    return None


def build_open_table(case: Case) -> dict[str, Any]:
    """A table under the drawn rules (their options as the table's), the client in the dealer's seat
    with a long clock: the table waits for it, so nothing plays on after the answer."""
    rng = random.Random(case.seed)
    rules = case.rules
    preset = rules.get("preset", "riichi") if isinstance(rules, dict) else rules
    options = {key: value for key, value in rules.items() if key != "preset"} if isinstance(rules, dict) else {}
    seats = profile_of(rules).seats
    body: dict[str, Any] = {
        "rules": preset,
        "length": rng.choice(["kyoku", "tonpuu", "hanchan"]),
        "seats": ["client"] + ["bot"] * (seats - 1),
        "clock": {"decision_seconds": 600, "bank_seconds": rng.choice([0, 60])},
    }
    if options:
        body["options"] = options
    if rng.random() < 0.5:
        body["seed"] = rng.choice(["duplicate-7", "", "x" * rng.randint(1, 5000), "mt19937ar-sha512-n288-base64,AAAA"])
    return body


def build_table_action(case: Case) -> dict[str, Any]:
    """An action at a table that is not open (the path holds no table id): read, refused, not acted on."""
    rng = random.Random(case.seed)
    action = rng.choice(
        [
            {"type": "none"},
            {"type": "dahai", "actor": 0, "pai": "5mr", "tsumogiri": False},
            {"type": "hora", "actor": rng.randint(-2, 9), "target": 0},
            {"type": rng.choice(["pon", "chi", "kakan"]), "consumed": ["?"] * rng.randint(0, 40)},
        ]
    )
    return {"version": rng.choice([0, 57, 10**9, -1]), "action": action}


BUILDERS: Final[dict[str, Callable[[Case], Any]]] = {
    "/win": build_win,
    "/win/batch": lambda case: _batch(case, 14),
    "/ting": build_ting,
    "/ting/batch": lambda case: _batch(case, 13),
    "/shanten": build_shanten,
    "/shanten/batch": lambda case: _batch(case, 13 + case.seed % 2),
    "/discard": build_discard,
    "/score": build_score,
    "/score/batch": build_score_batch,
    "/simulate": build_simulate,
    "/referee": build_referee,
    "/act": build_act,
    "/review": build_review,
    "/records/convert": build_convert,
    "/cache/clear": build_no_body,  # no body; asked between the others all the same
    "/tables": build_open_table,
    "/tables/{table}/actions": build_table_action,
}

# --- the live service ----------------------------------------------------------------------


def _die_with_parent() -> None:
    """In the child before exec: SIGKILL when the test process dies (Linux's PR_SET_PDEATHSIG)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)


def session_cpu_seconds(session: int) -> float:
    """User and system CPU seconds of every live process of ``session`` (its threads included)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[3]) == session:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


class LiveService:
    """``python -m app.main`` on a free 127.0.0.1 port, in its own session; restarted when suspect."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.process: subprocess.Popen[bytes] | None = None
        self.client: httpx.Client | None = None
        self.suspect = False
        self.starts = 0

    @property
    def log_path(self) -> Path:
        return self.log_dir / f"server-{self.starts}.log"

    def start(self) -> None:
        self.starts += 1
        port = free_port()
        env = clean_environment(TENPAI_HOST="127.0.0.1", TENPAI_PORT=str(port), **SERVER_ENV)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "app.main"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent,  # the test's one thread starts it
            )
        self.client = httpx.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False)
        deadline = time.monotonic() + READY_TIMEOUT_SECONDS
        while True:
            assert self.process.poll() is None, f"the server did not start:\n{self.log_tail()}"
            with contextlib.suppress(httpx.TransportError):
                if self.client.get("/ready", timeout=2).status_code == 200:
                    break
            assert time.monotonic() < deadline, "the server did not get ready"
            time.sleep(0.1)
        self.suspect = False

    def stop(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def fresh(self) -> httpx.Client:
        """The client of a healthy server: a suspect or dead one is replaced first."""
        if self.suspect or self.process is None or self.process.poll() is not None:
            self.stop()
            self.start()
        assert self.client is not None
        return self.client

    def cpu(self) -> float:
        assert self.process is not None
        return session_cpu_seconds(self.process.pid)

    def exit_status(self) -> str:
        """How the server process ended, if it did (a moment's grace: it may be on its way out)."""
        assert self.process is not None
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=0.5)
        code = self.process.returncode
        if code is None:
            return "the server process is still running"
        return f"the server exited with {f'signal {-code}' if code < 0 else f'status {code}'}"

    def log_tail(self, lines: int = 15) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveService]:
    live = LiveService(tmp_path_factory.mktemp("hostile-fuzz"))
    try:
        live.start()
        yield live
    finally:
        live.stop()


# --- one call, judged --------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What one call did: ``kind`` is ok, timeout, died (no connection), status, health or busy."""

    kind: str
    route: str
    body: Any
    detail: str = ""
    #: The answer's status, when there was one.
    status: int | None = None

    def __str__(self) -> str:
        shown = json.dumps(self.body, ensure_ascii=False)
        if len(shown) > 1500:
            shown = shown[:1500] + f"... ({len(shown)} characters)"
        return f"POST {self.route} {self.kind}: {self.detail}\nbody: {shown}"


def verdict(response: httpx.Response) -> str | None:
    """None for an answer the service may give, else what is wrong with it."""
    status = response.status_code
    if 200 <= status < 300:  # 201: a table opened
        return None
    try:
        payload = response.json()
    except ValueError:
        return f"{status} whose body is not JSON: {response.text[:300]!r}"
    if status == 503 and isinstance(payload, dict) and payload.get("error") in ("out_of_time", "too_busy"):
        return None
    if 400 <= status < 500 and isinstance(payload, dict):
        detail = payload.get("detail")
        if isinstance(detail, list) and detail and isinstance(detail[0], dict) and detail[0].get("loc"):
            return None
    return f"{status}: {response.text[:500]}"


def exercise(live: LiveService, route: str, body: Any) -> Outcome:
    """POST ``body`` to ``route`` within its bound, then ask /health and watch the CPU go idle."""
    client = live.fresh()
    limit = bound(route, body)
    started = time.monotonic()
    try:
        if body is None:
            response = client.post(route, timeout=limit)
        else:
            response = client.post(route, json=body, timeout=limit)
    except httpx.TimeoutException:
        live.suspect = True
        return Outcome("timeout", route, body, f"no answer within {limit:.0f} s")
    except httpx.TransportError as error:
        live.suspect = True
        return Outcome("died", route, body, f"{type(error).__name__}: {error}; {live.exit_status()}\n{live.log_tail()}")
    answered = time.monotonic()
    cpu_at_answer = live.cpu()
    wrong = verdict(response)
    if wrong is not None:
        live.suspect = True
        return Outcome("status", route, body, f"{wrong}\n{live.log_tail(8)}")
    try:
        health = client.get("/health", timeout=HEALTH_BOUND)
        if health.status_code != 200:
            live.suspect = True
            return Outcome(
                "health", route, body, f"GET /health answered {health.status_code} after {answered - started:.2f} s"
            )
    except httpx.TransportError as error:
        live.suspect = True
        return Outcome("health", route, body, f"GET /health after the answer: {type(error).__name__}")
    time.sleep(max(0.0, answered + GLANCE - time.monotonic()))
    if live.cpu() - cpu_at_answer > GLANCE_CPU:
        time.sleep(max(0.0, answered + IDLE_WINDOW - time.monotonic()))
        burned = live.cpu() - cpu_at_answer
        if burned >= IDLE_CPU:
            live.suspect = True
            return Outcome(
                "busy",
                route,
                body,
                f"answered {response.status_code}, then burned {burned:.2f} CPU-s in {IDLE_WINDOW:.0f} s",
            )
    return Outcome("ok", route, body, response.text[:200], response.status_code)


def check(outcome: Outcome) -> None:
    """Fail with the route, what happened and the whole body, unless the call was answered well."""
    if outcome.kind != "ok":
        raise AssertionError(str(outcome))


# --- the tests -------------------------------------------------------------------------------


def test_every_post_route_has_a_request_builder() -> None:
    missing = sorted(set(POST_ROUTES) - set(BUILDERS))
    assert not missing, f"POST routes without a request builder in {Path(__file__).name}: {missing}"
    assert not sorted(set(BUILDERS) - set(POST_ROUTES)), "builders for routes the app no longer has"


def test_every_rule_option_is_fuzzed(service: LiveService) -> None:
    listed = {option["name"] for option in service.fresh().get("/rules", timeout=CHEAP_BOUND).json()["options"]}
    assert listed == set(FUZZED_OPTIONS), (
        f"GET /rules lists options with no value strategy: {listed ^ set(FUZZED_OPTIONS)}"
    )


#: Bodies from the report (issue 33), exactly as sent.
REPORTED: Final = [
    (
        "/win",
        {
            "hand": "123456789m11p456s",
            "rules": {"preset": "riichi", "thirteen_orphans": False, "absent_tiles": ["5z", "6z", "7z"]},
            "situation": {"win_tile": "9m", "winner": 0, "dealer": 0},
        },
    ),
    ("/discard", {"hand": "1123340678m99m45p", "rules": "sichuan"}),
]


@pytest.mark.parametrize(("route", "body"), REPORTED, ids=[route for route, _ in REPORTED])
def test_the_reported_requests(service: LiveService, route: str, body: Any) -> None:
    check(exercise(service, route, body))


@pytest.mark.parametrize("route", POST_ROUTES)
def test_hostile_rules_never_take_the_service_down(service: LiveService, route: str) -> None:
    builder = BUILDERS.get(route)
    assert builder is not None, f"POST {route} has no request builder in {Path(__file__).name}: add one to BUILDERS"

    def one(case: Case) -> None:
        check(exercise(service, route, builder(case)))

    for corner in reversed(KNOWN_CORNERS):
        one = example(case=corner)(one)
    examples = HEAVY_EXAMPLES if route in HEAVY_ROUTES or route == "/simulate" else EXAMPLES
    run = settings(
        max_examples=examples,
        deadline=None,
        # A failing call costs its bound and a restart: no shrinking (the message holds the
        # whole body, a few hundred bytes), and the first failure ends the route's test.
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
        report_multiple_bugs=False,
        suppress_health_check=[HealthCheck.too_slow],
    )(given(case=cases)(one))
    run()

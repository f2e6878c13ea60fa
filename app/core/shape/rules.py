"""Rule profiles: data in a registry, found by name, adjusted by overrides.

The engine never asks "is this qiqihar?"; it reads the profile's fields.  A
new regional rule is a new entry in :data:`PRESETS` (or a request's
overrides), not new branches in the engine.

>>> rules = rule_profile("qiqihar")
>>> rules.wildcards, rules.seven_pairs.value, sorted(kind.value for kind in rules.win_requires_meld)
((33,), 'off', ['added_kan', 'open_kan', 'pon'])
>>> rule_profile("riichi", seven_pairs="quad_as_two").seven_pairs
<SevenPairs.QUAD_AS_TWO: 'quad_as_two'>
>>> sanma = rule_profile("sanma")
>>> sanma.seats, sanma.tile_total, sanma.chi_allowed, [format_tile(t) for t in sanma.absent_tiles]
(3, 108, False, ['2m', '3m', '4m', '5m', '6m', '7m', '8m'])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from app.core.errors import AbsentTile, InvalidMeld, InvalidNotation, InvalidRuleOption, UnknownRules
from app.core.shape.hand import MeldKind
from app.core.shape.tiles import HONORS, NUM_TILE_KINDS, RED, TERMINALS, Tile, format_tile, parse_tiles, quoted

#: Seats a table may have: three-player (sanma) or four-player.
SEAT_COUNTS: Final = (3, 4)
DEFAULT_SEATS: Final = 4
#: Presets whose scoring is defined for four seats only: MCR's payments are the rule book's,
#: every other seat paying the winner (a three-seat table once got four payments).
FOUR_SEATS_ONLY: Final = frozenset({"mcr"})
"""Players at a table unless the rules say otherwise (sanma: 3)."""


class SevenPairs(StrEnum):
    """Whether seven pairs wins, and how four of a kind counts."""

    OFF = "off"
    DISTINCT = "distinct"
    QUAD_AS_TWO = "quad_as_two"


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """Everything the engine needs to know about a rule set."""

    name: str
    seven_pairs: SevenPairs = SevenPairs.DISTINCT
    thirteen_orphans: bool = True
    #: Whether the knitted forms win (Chinese Official rules): knitted straight (组合龙: 147, 258
    #: and 369 across the three suits, one meld and a pair) and honours and knitted tiles (全不靠).
    knitted_forms: bool = False
    #: Tiles that stand for any tile; every copy held is a wildcard.
    wildcards: tuple[Tile, ...] = ()
    #: Whether a wildcard stands in within seven pairs; off (Hunan 红中麻将: "胡7对时红中不能作为万能牌
    #: 使用"), in seven pairs it is a plain tile of its own kind, while the other forms still take it
    #: as any tile.
    wildcards_in_seven_pairs: bool = True
    #: Holding this many wildcard copies concealed wins at once whatever the rest (红中麻将's "摸到四张
    #: 红中，自动胡牌", Guangdong's 满鬼: the form ``wildcards_held``); None: no such form.
    wildcards_held_win: int | None = None
    #: Meld kinds of which the hand must have at least one to win; empty: none needed.
    win_requires_meld: frozenset[MeldKind] = frozenset()
    #: Count melded copies toward the 4-copy limit of the complete hand.
    melded_tiles_count_toward_limit: bool = False
    #: Whether chi may be called: off (sanma), the table simulator calls none and a declared
    #: chi meld is refused wherever a meld meets these rules (:meth:`check_meld_allowed`).
    chi_allowed: bool = True
    #: Whether a player may not win on a tile they discarded (riichi's furiten): what makes
    #: genbutsu and suji safe against a ready player.
    furiten: bool = True
    # Riichi scoring (app/core/value/riichi_scoring.py); other scoring profiles ignore them.
    #: All simples (tanyao) counts with an open hand.
    open_tanyao: bool = True
    #: Each red five (0m, 0p, 0s) held is a dora.
    red_fives: bool = True
    #: What 13 han or more without a yakuman is worth: "yakuman" (kazoe) or "sanbaiman".
    kazoe_limit: str = "yakuman"
    #: 4 han 30 fu and 3 han 60 fu round up to mangan.
    kiriage: bool = False
    #: Suuankou tanki, kokushi's 13-sided wait, junsei chuuren and daisuushii count two yakuman.
    double_yakuman: bool = True
    #: Several yakuman add up; off, only the largest counts.
    yakuman_stacking: bool = True
    #: Tiles the set does not have (sanma: 2m-8m): never held, never a wait or an ukeire tile,
    #: no copies unseen.  Simples (2-8 of a suit) may be absent, and honours where thirteen
    #: orphans is off (sichuan); terminals always exist, which keeps seven pairs possible.
    absent_tiles: tuple[Tile, ...] = ()
    #: Players at the table (3: sanma); read by the table simulator and the scoring.
    seats: int = DEFAULT_SEATS
    #: Riichi scoring at three seats: a self-draw loses the missing north's share (Tenhou's
    #: sanma); off, each payer adds half of it.
    tsumo_loss: bool = True
    # Sichuan bloody rules (app/core/value/sichuan_scoring.py and the table); other profiles ignore them.
    # Defaults follow the 血战到底 rule screen docs/sichuan.md names (sichuan_scoring.RULE_TEXT);
    # where its room rules leave a choice open, docs/sichuan.md says which was taken and why.
    #: Whether every hand declares a void suit (定缺) and wins only without a tile of it.
    void_suit: bool = False
    #: The fan cap: a win pays 2 ** min(fan, max_fan) times the base (the text's 封顶倍数 x64).
    max_fan: int = 6
    #: What a self-draw adds: "base" (自摸加底: one more base) or "fan" (自摸加番: one more fan).
    self_draw_bonus: str = "base"
    #: Three tiles of one suit passed before the void suit is declared (换三张).
    exchange_three: bool = True
    #: Winners stay in the hand and may win again (血流成河); off, a winner leaves it (血战到底).
    bloody_river: bool = False
    #: Heavenly and earthly hands (天胡, 地胡) are counted.
    heaven_earth: bool = True
    #: A closed hand (门清) and all simples (断幺九) are one fan each.
    menqing_duanyao: bool = False
    #: How a win on the replacement draw of a kong fed by a discard (点杠花) pays: "self_draw"
    #: (every seat still in pays) or "discard" (the seat that fed the kong pays alone).
    kong_flower: str = "self_draw"
    #: A rule family's own typed options (a frozen, hashable dataclass of
    #: :mod:`app.core.families`), for presets that bring them: the profile's section the
    #: family reads; the shape wing never does.  Part of equality, so every cache key stays exact.
    family_options: Hashable | None = None

    def __hash__(self) -> int:
        # Every cache key holds a profile: hashing its ~25 fields on each look-up cost a
        # microsecond. Equal profiles share a name, so this agrees with ==; profiles that
        # differ only in options share a hash, and look-ups tell them apart by equality.
        return hash(self.name)

    @property
    def tile_total(self) -> int:
        """Physical tiles in the set: four of each kind that exists (136; sanma 108)."""
        return 4 * (NUM_TILE_KINDS - len(self.absent_tiles))

    def check_tiles_exist(self, tiles: Iterable[Tile], *, field: str) -> None:
        """Raise :class:`AbsentTile` at ``field`` for the first tile the set does not have.

        >>> rule_profile("sanma").check_tiles_exist([0, 4], field="hand")
        Traceback (most recent call last):
        ...
        app.core.errors.AbsentTile: 5m does not exist in sanma: 108 tiles, no 2m-8m
        >>> rule_profile("riichi").check_tiles_exist([4], field="hand")
        """
        if not self.absent_tiles:
            return
        absent = frozenset(self.absent_tiles)
        for tile in tiles:
            if tile in absent:
                raise AbsentTile(
                    f"{format_tile(tile)} does not exist in {self.name}: {self.tile_total} tiles, "
                    f"no {_spans(self.absent_tiles)}",
                    field=field,
                )

    def check_meld_allowed(self, kind: MeldKind, *, field: str) -> None:
        """Raise :class:`InvalidMeld` at ``field`` (the meld's kind) for a meld these rules
        have no call for: a chi where ``chi_allowed`` is off.

        >>> rule_profile("sanma").check_meld_allowed(MeldKind.CHI, field="melds[0].kind")
        Traceback (most recent call last):
        ...
        app.core.errors.InvalidMeld: chi is not allowed under these rules (sanma: chi_allowed is false); declare pon or kong melds only
        >>> rule_profile("riichi").check_meld_allowed(MeldKind.CHI, field="kind")
        """
        if kind is MeldKind.CHI and not self.chi_allowed:
            raise InvalidMeld(
                f"chi is not allowed under these rules ({self.name}: chi_allowed is false); "
                "declare pon or kong melds only",
                field=field,
            )

    def describe(self) -> dict[str, Any]:
        """The profile as plain data (tiles in mpsz), one entry per option of :data:`OPTIONS`."""
        described: dict[str, Any] = {"name": self.name}
        for option in OPTIONS:
            described[option.name] = option.kind.describe(getattr(self, option.name))
        return described


def _spans(tiles: Iterable[Tile]) -> str:
    """Tiles as runs within a suit: ``2m-8m``, ``5m, 5p``."""
    runs: list[list[Tile]] = []
    for tile in sorted(tiles):
        if runs and tile == runs[-1][-1] + 1 and tile // 9 == runs[-1][0] // 9:
            runs[-1].append(tile)
        else:
            runs.append([tile])
    return ", ".join(
        format_tile(run[0]) if len(run) == 1 else f"{format_tile(run[0])}-{format_tile(run[-1])}" for run in runs
    )


_SANMA_ABSENT: Final = tuple(range(1, 8))  # 2m..8m

PRESETS: Final[Mapping[str, RuleProfile]] = MappingProxyType(
    {
        "riichi": RuleProfile("riichi"),
        "chinese": RuleProfile("chinese", seven_pairs=SevenPairs.QUAD_AS_TWO, furiten=False),
        "qiqihar": RuleProfile(
            "qiqihar",
            seven_pairs=SevenPairs.OFF,
            thirteen_orphans=False,
            wildcards=(RED,),
            win_requires_meld=frozenset({MeldKind.PON, MeldKind.OPEN_KAN, MeldKind.ADDED_KAN}),
            furiten=False,
        ),
        # Three-player riichi: 108 tiles (no 2m-8m), three seats, no chi; the riichi scoring
        # options keep their riichi defaults.
        "sanma": RuleProfile("sanma", chi_allowed=False, absent_tiles=_SANMA_ABSENT, seats=3),
        # Chinese Official rules (MCR, 国标麻将): seven pairs with a quad as two pairs, the
        # knitted forms (app/core/value/mcr_scoring.py scores the 81 fans; a win needs 8).
        "mcr": RuleProfile("mcr", seven_pairs=SevenPairs.QUAD_AS_TWO, knitted_forms=True, furiten=False),
        # Sichuan bloody rules (血战到底): 108 tiles, no honours; pon and kong but no chi; a void
        # suit per hand; seven pairs with a quad as two pairs (龙七对). Scoring options above.
        "sichuan": RuleProfile(
            "sichuan",
            seven_pairs=SevenPairs.QUAD_AS_TWO,
            thirteen_orphans=False,
            chi_allowed=False,
            furiten=False,
            red_fives=False,
            absent_tiles=HONORS,
            void_suit=True,
        ),
    }
)
"""The named rule presets."""

KAZOE_LIMITS: Final = ("yakuman", "sanbaiman")
_ALWAYS_PRESENT: Final = frozenset(TERMINALS)


class OptionKind(NamedTuple):
    """How the values of one kind of option cross the boundary, both ways."""

    #: Request value -> profile value; raises :class:`InvalidRuleOption` naming the option.
    coerce: Callable[[str, Any], Any]
    #: Profile value -> plain data (tiles in mpsz), for ``describe`` and ``/rules``.
    describe: Callable[[Any], Any]
    #: The request value's JSON Schema, as plain data (the HTTP layer documents it); None for
    #: tiles, which the HTTP layer documents with its own notation schema.
    schema: Mapping[str, Any] | None
    #: The plain-data type ``describe`` gives: bool, str, int or list (of str).
    plain_type: type
    #: Whether the value may also be null (an option that may be off altogether).
    nullable: bool = False


def _boolean(option: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise InvalidRuleOption(f"{option} must be true or false, got {quoted(value)}", field=option)
    return value


def _choice(choices: tuple[Any, ...]) -> Callable[[str, Any], Any]:
    def coerce(option: str, value: Any) -> Any:
        # Exact types: 3.0 is not the seat count 3, nor True the number 1.
        if not any(type(value) is type(choice) and value == choice for choice in choices):
            allowed = ", ".join(str(choice) for choice in choices)
            raise InvalidRuleOption(f"{option} must be one of {allowed}, got {quoted(value)}", field=option)
        return value

    return coerce


def _seven_pairs(option: str, value: Any) -> SevenPairs:
    if isinstance(value, bool):  # tolerate true/false as on/off
        return SevenPairs.DISTINCT if value else SevenPairs.OFF
    try:
        return SevenPairs(value)
    except ValueError:
        allowed = ", ".join(v.value for v in SevenPairs)
        raise InvalidRuleOption(f"{option} must be one of {allowed}, got {quoted(value)}", field=option) from None


def _tiles(option: str, value: Any) -> tuple[Tile, ...]:
    """Tiles in any notation, or a list of one-tile names as ``describe`` writes them (["7z"])."""
    try:
        if isinstance(value, (list, tuple)) and value and all(isinstance(item, str) for item in value):
            tiles = []
            for index, item in enumerate(value):
                one = parse_tiles(item)
                if len(one) != 1:
                    raise InvalidNotation(f"item {index} is {quoted(item)}, not one tile")
                tiles.extend(one)
        else:
            tiles = parse_tiles(value)
    except InvalidNotation as error:
        raise InvalidRuleOption(f"{option}: {error.message}", field=option) from None
    return tuple(sorted(set(tiles)))


def _absent_tiles(option: str, value: Any) -> tuple[Tile, ...]:
    tiles = _tiles(option, value)
    for tile in tiles:
        if tile in _ALWAYS_PRESENT:
            raise InvalidRuleOption(
                f"{option}: {format_tile(tile)} is a terminal; only simples (2-8) and honours may be absent",
                field=option,
            )
    return tiles


def _meld_kinds(option: str, value: Any) -> frozenset[MeldKind]:
    if not isinstance(value, (list, tuple, set, frozenset)):
        raise InvalidRuleOption(f"{option} must be a list of meld kinds, got {quoted(value)}", field=option)
    kinds = set()
    for item in value:
        try:
            kinds.add(MeldKind(item))
        except ValueError:
            allowed = ", ".join(k.value for k in MeldKind)
            raise InvalidRuleOption(
                f"{option}: unknown meld kind {quoted(item)}; expected {allowed}", field=option
            ) from None
    return frozenset(kinds)


def _same(value: Any) -> Any:
    return value


def _tile_names(tiles: Iterable[Tile]) -> list[str]:
    return [format_tile(tile) for tile in tiles]


def _integer_or_none(low: int, high: int) -> Callable[[str, Any], int | None]:
    integer = _integer(low, high)

    def coerce(option: str, value: Any) -> int | None:
        if value is None:
            return None
        try:
            return integer(option, value)
        except InvalidRuleOption:
            raise InvalidRuleOption(
                f"{option} must be null or an integer from {low} to {high}, got {quoted(value)}", field=option
            ) from None

    return coerce


def _integer(low: int, high: int) -> Callable[[str, Any], int]:
    def coerce(option: str, value: Any) -> int:
        if type(value) is not int or not low <= value <= high:
            raise InvalidRuleOption(
                f"{option} must be an integer from {low} to {high}, got {quoted(value)}", field=option
            )
        return value

    return coerce


SELF_DRAW_BONUSES: Final = ("base", "fan")
KONG_FLOWER_PAYERS: Final = ("self_draw", "discard")
MAX_FAN_LIMIT: Final = 13
#: The most wildcard copies ``wildcards_held_win`` may ask for: a tile has four.
MAX_WILDCARDS_HELD: Final = 4


def _string_choice(choices: tuple[str, ...]) -> OptionKind:
    """An option whose value is one of ``choices``, strings named alike in requests and answers."""
    return OptionKind(_choice(choices), _same, MappingProxyType({"type": "string", "enum": list(choices)}), str)


_BOOLEAN: Final = OptionKind(_boolean, _same, MappingProxyType({"type": "boolean"}), bool)
_TILE_SET: Final = OptionKind(_tiles, _tile_names, None, list)


class RuleOption(NamedTuple):
    """One overridable field of :class:`RuleProfile`: its kind, what it means, an example."""

    name: str
    kind: OptionKind
    doc: str
    #: A request value to show in the documentation (None: the kind speaks for itself).
    example: Any = None
    #: A ``describe`` value to show in the documentation.
    described_example: Any = None


#: Every rule option, once: coercion, description, request schema and meaning all come from here
#: (``describe``, ``/rules``, the request schema and its docs).  Order: as the profile's fields.
OPTIONS: Final[tuple[RuleOption, ...]] = (
    RuleOption(
        "seven_pairs",
        OptionKind(
            _seven_pairs,
            lambda value: value.value,
            MappingProxyType(
                {"anyOf": [{"type": "string", "enum": [v.value for v in SevenPairs]}, {"type": "boolean"}]}
            ),
            str,
        ),
        "Seven pairs: 'off', 'distinct' (seven different pairs; four of a kind is one pair) "
        "or 'quad_as_two' (four of a kind counts as two pairs).",
        described_example="off",
    ),
    RuleOption(
        "thirteen_orphans", _BOOLEAN, "Whether thirteen orphans (one of each terminal and honour plus a pair) wins."
    ),
    RuleOption(
        "knitted_forms",
        _BOOLEAN,
        "Whether the Chinese Official knitted forms win: knitted straight (组合龙: 147, 258 and 369, one "
        "pattern per suit, plus a meld and a pair; the meld may be declared) and honours and knitted tiles "
        "(全不靠: 14 distinct tiles of one such straight's nine and the seven honours; closed hands).",
    ),
    RuleOption(
        "wildcards",
        _TILE_SET,
        "Tiles that stand for any tile (itself included); every copy held is a wildcard. "
        "The concealed part of a complete hand may not hold more than 4 of any tile.",
        example="7z",
        described_example=["7z"],
    ),
    RuleOption(
        "wildcards_in_seven_pairs",
        _BOOLEAN,
        "Whether a wildcard stands in within seven pairs. Off (Hunan 红中麻将: '胡7对时红中不能作为万能牌使用'): "
        "in seven pairs a wildcard tile is a plain tile of its own kind (two of them a pair), while the "
        "other forms still take it as any tile. No effect without wildcards or seven pairs.",
    ),
    RuleOption(
        "wildcards_held_win",
        OptionKind(
            _integer_or_none(1, MAX_WILDCARDS_HELD),
            _same,
            MappingProxyType(
                {"anyOf": [{"type": "integer", "minimum": 1, "maximum": MAX_WILDCARDS_HELD}, {"type": "null"}]}
            ),
            int,
            nullable=True,
        ),
        "Holding this many wildcard copies in the concealed hand wins at once, whatever the rest "
        "(红中麻将: '摸到四张红中，自动胡牌'; Guangdong's 满鬼): the form 'wildcards_held', for a hand of "
        "3n+2 concealed tiles. Its shanten is max(need - held, 1 for a 3n+1 hand, else 0) - 1. "
        "null: no such form; no effect without wildcards.",
        example=4,
        described_example=4,
    ),
    RuleOption(
        "win_requires_meld",
        OptionKind(
            _meld_kinds,
            lambda kinds: sorted(kind.value for kind in kinds),
            MappingProxyType({"type": "array", "items": {"type": "string", "enum": [kind.value for kind in MeldKind]}}),
            list,
        ),
        "Meld kinds of which a hand needs at least one to win (e.g. ['pon', 'open_kan', "
        "'added_kan']); empty: no precondition. Shanten stays a shape measure; win and waits honour it.",
        example=["pon", "open_kan", "added_kan"],
        described_example=["added_kan", "open_kan", "pon"],
    ),
    RuleOption(
        "melded_tiles_count_toward_limit",
        _BOOLEAN,
        "Count melded copies toward the 4-copy limit of every answer "
        "(a pon of 1m leaves room for one more 1m). Off: only concealed tiles are limited, as Tenhou does.",
    ),
    RuleOption(
        "chi_allowed",
        _BOOLEAN,
        "Whether chi may be called. Off (sanma): the table simulator calls none, and a declared chi "
        "meld is refused on every route (422 invalid_meld at the meld's kind).",
    ),
    RuleOption(
        "furiten",
        _BOOLEAN,
        "Whether a player may not win on a tile they discarded (riichi's furiten rule); "
        "the discard advisor trusts genbutsu and suji fully only when it holds.",
    ),
    RuleOption("open_tanyao", _BOOLEAN, "Riichi scoring: all simples (tanyao) counts with an open hand (kuitan)."),
    RuleOption("red_fives", _BOOLEAN, "Riichi scoring: each red five (0m, 0p, 0s) held is a dora (aka_dora)."),
    RuleOption(
        "kazoe_limit",
        _string_choice(KAZOE_LIMITS),
        "Riichi scoring: what 13 han or more without a yakuman is worth: 'yakuman' (kazoe yakuman) or 'sanbaiman'.",
        described_example="yakuman",
    ),
    RuleOption("kiriage", _BOOLEAN, "Riichi scoring: 4 han 30 fu and 3 han 60 fu round up to mangan."),
    RuleOption(
        "double_yakuman",
        _BOOLEAN,
        "Riichi scoring: suuankou tanki, kokushi's 13-sided wait, junsei chuuren and daisuushii count as two yakuman.",
    ),
    RuleOption(
        "yakuman_stacking",
        _BOOLEAN,
        "Riichi scoring: several yakuman in one hand add up; off, only the largest counts.",
    ),
    RuleOption(
        "absent_tiles",
        OptionKind(_absent_tiles, _tile_names, None, list),
        "Tiles the set does not have (sanma: 2m-8m, 108 tiles; sichuan: the honours). Simples (2-8 of a "
        "suit) may be absent, and honours where thirteen_orphans is off; terminals may not. They are never a wait or an ukeire tile and have no unseen copies; a hand, "
        "meld, visible tile or wildcard holding one is refused.",
        example="2345678m",
        described_example=["2m", "3m", "4m", "5m", "6m", "7m", "8m"],
    ),
    RuleOption(
        "seats",
        OptionKind(_choice(SEAT_COUNTS), _same, MappingProxyType({"type": "integer", "enum": list(SEAT_COUNTS)}), int),
        "Players at the table: 4, or 3 for sanma (table simulation and scoring); mcr is played by four only.",
        described_example=3,
    ),
    RuleOption(
        "tsumo_loss",
        _BOOLEAN,
        "Riichi scoring with three seats (sanma): a self-draw loses the missing north's share, "
        "as Tenhou's sanma does; off, each of the two payers adds half of it (rounded up to 100).",
    ),
    RuleOption(
        "void_suit",
        _BOOLEAN,
        "Sichuan: every hand declares a void suit (定缺: m, p or s) and wins only without a tile of it; "
        "shanten and waits count its tiles as tiles to throw.",
    ),
    RuleOption(
        "max_fan",
        OptionKind(
            _integer(1, MAX_FAN_LIMIT),
            _same,
            MappingProxyType({"type": "integer", "minimum": 1, "maximum": MAX_FAN_LIMIT}),
            int,
        ),
        "Sichuan scoring: the fan cap; a win pays the base times 2 ** min(fan, max_fan).",
        described_example=3,
    ),
    RuleOption(
        "self_draw_bonus",
        _string_choice(SELF_DRAW_BONUSES),
        "Sichuan scoring: what a self-draw adds: 'base' (自摸加底, one more base from each payer) "
        "or 'fan' (自摸加番, one more fan).",
        described_example="base",
    ),
    RuleOption("exchange_three", _BOOLEAN, "Sichuan table: three tiles of one suit are passed first (换三张)."),
    RuleOption(
        "bloody_river",
        _BOOLEAN,
        "Sichuan table: winners stay in the hand and may win again (血流成河); off, a winner leaves it (血战到底).",
    ),
    RuleOption("heaven_earth", _BOOLEAN, "Sichuan scoring: heavenly and earthly hands (天胡, 地胡) are counted."),
    RuleOption(
        "menqing_duanyao", _BOOLEAN, "Sichuan scoring: a closed hand (门清) and all simples (断幺九) are one fan each."
    ),
    RuleOption(
        "kong_flower",
        _string_choice(KONG_FLOWER_PAYERS),
        "Sichuan scoring: how a win on the replacement draw of a kong fed by a discard (点杠花) pays: "
        "'self_draw' (every seat still in the hand pays) or 'discard' (the seat that fed the kong pays alone).",
        described_example="self_draw",
    ),
)
OPTIONS_BY_NAME: Final[Mapping[str, RuleOption]] = MappingProxyType({option.name: option for option in OPTIONS})

OPTION_DOCS: Final[Mapping[str, str]] = MappingProxyType({option.name: option.doc for option in OPTIONS})
"""What each override means, for ``/rules``."""


def _coerce(option: str, value: Any) -> Any:
    try:
        kind = OPTIONS_BY_NAME[option].kind
    except KeyError:
        raise InvalidRuleOption(
            f"unknown rule option {quoted(option)}; options are {', '.join(OPTIONS_BY_NAME)}", field=option
        ) from None
    return kind.coerce(option, value)


def rule_profile(preset: str = "riichi", **overrides: Any) -> RuleProfile:
    """The preset ``preset`` with ``overrides`` applied (validated).

    >>> rule_profile("mcr").knitted_forms, rule_profile("riichi").knitted_forms
    (True, False)
    >>> rule_profile("mahjong")
    Traceback (most recent call last):
    ...
    app.core.errors.UnknownRules: unknown rules preset 'mahjong'; presets are riichi, chinese, qiqihar, sanma, mcr, sichuan
    """
    try:
        base = PRESETS[preset]
    except (KeyError, TypeError):
        raise UnknownRules(
            f"unknown rules preset {quoted(preset)}; presets are {', '.join(PRESETS)}", field="preset"
        ) from None
    if not overrides:
        return base
    changes = {option: _coerce(option, value) for option, value in overrides.items()}
    profile = replace(base, **changes)
    profile.check_tiles_exist(profile.wildcards, field="wildcards")
    if profile.seats != DEFAULT_SEATS and profile.name in FOUR_SEATS_ONLY:
        raise InvalidRuleOption(f"seats: {profile.name} is played by four seats", field="seats")
    if profile.thirteen_orphans and set(profile.absent_tiles) & set(HONORS):
        raise InvalidRuleOption(
            "absent_tiles: honours may be absent only with thirteen_orphans off", field="absent_tiles"
        )
    return profile

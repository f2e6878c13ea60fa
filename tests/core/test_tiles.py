"""Tests for app.core.shape.tiles: names, groups, every notation's round trip, and errors."""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.errors import InvalidNotation, TooManyCopies
from app.core.shape import tiles as T

ALL_TILES = range(T.NUM_TILE_KINDS)

# --- oracles written independently of the module's tables --------------------------

MPSZ_ORACLE = [f"{n}{suit}" for suit in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
CHINESE_NUMERALS = "一二三四五六七八九"
CHINESE_ORACLE = (
    [c + "万" for c in CHINESE_NUMERALS]
    + [c + "筒" for c in CHINESE_NUMERALS]
    + [c + "条" for c in CHINESE_NUMERALS]
    + list("东南西北白发中")
)
UNICODE_ORACLE = (
    "🀇🀈🀉🀊🀋🀌🀍🀎🀏"  # 1m..9m
    "🀙🀚🀛🀜🀝🀞🀟🀠🀡"  # 1p..9p
    "🀐🀑🀒🀓🀔🀕🀖🀗🀘"  # 1s..9s
    "🀀🀁🀂🀃"  # E S W N
    "🀆🀅🀄"  # White Green Red
)
SEED_ORACLE = list(range(11, 20)) + list(range(31, 40)) + list(range(21, 30)) + [41, 43, 45, 47, 55, 53, 51]


def tiles_of(mpsz: str) -> list[int]:
    return T.parse_mpsz(mpsz)


# --- constants and helpers ---------------------------------------------------------


def test_named_constants_follow_tenhou_order():
    assert (T.M1, T.M9, T.P1, T.P9, T.S1, T.S9) == (0, 8, 9, 17, 18, 26)
    assert (T.EAST, T.SOUTH, T.WEST, T.NORTH, T.WHITE, T.GREEN, T.RED) == tuple(range(27, 34))
    assert [getattr(T, f"M{n}") for n in range(1, 10)] == list(range(0, 9))
    assert [getattr(T, f"P{n}") for n in range(1, 10)] == list(range(9, 18))
    assert [getattr(T, f"S{n}") for n in range(1, 10)] == list(range(18, 27))
    assert T.NUM_TILE_KINDS == 34


def test_groups():
    assert T.MAN + T.PIN + T.SOU + T.HONORS == tuple(ALL_TILES)
    assert T.WINDS + T.DRAGONS == T.HONORS
    assert T.TERMINALS == (0, 8, 9, 17, 18, 26)
    assert len(T.ORPHANS) == 13
    assert list(T.ORPHANS) == sorted(T.ORPHANS)
    assert set(T.ORPHANS) == {t for t in ALL_TILES if t >= 27 or t % 9 in (0, 8)}
    for group in (T.MAN, T.PIN, T.SOU, T.HONORS, T.WINDS, T.DRAGONS, T.TERMINALS, T.ORPHANS):
        assert isinstance(group, tuple)


@pytest.mark.parametrize("tile", ALL_TILES)
def test_suit_number_and_names_of_every_tile(tile):
    name = MPSZ_ORACLE[tile]
    assert T.TILE_NAMES[tile] == name
    assert T.suit_of(tile) == "mpsz".index(name[1])
    assert T.number_of(tile) == int(name[0])
    assert T.is_honor(tile) == (name[1] == "z")
    assert T.format_tile(tile) == name
    assert T.parse_tile(name) == tile
    assert T.parse_tile(name.upper()) == tile


def test_tile_from_name_reads_red_five_and_rejects_several_tiles():
    assert T.parse_tile("0s") == T.S5
    with pytest.raises(InvalidNotation, match="names 2 tiles"):
        T.parse_tile("12m")
    with pytest.raises(InvalidNotation, match="names 0 tiles"):
        T.parse_tile("")


@pytest.mark.parametrize("bad", [34, -1, True, 1.0, "1m", None])
def test_format_tile_rejects_non_tiles(bad):
    with pytest.raises(InvalidNotation, match="is not a tile"):
        T.format_tile(bad)


# --- exhaustive single-tile round trips --------------------------------------------


@pytest.mark.parametrize("tile", ALL_TILES)
def test_every_tile_in_every_notation(tile):
    assert T.format_mpsz([tile]) == MPSZ_ORACLE[tile]
    assert T.parse_mpsz(MPSZ_ORACLE[tile]) == [tile]
    assert T.format_chinese([tile]) == CHINESE_ORACLE[tile]
    assert T.parse_chinese(CHINESE_ORACLE[tile]) == [tile]
    assert T.format_unicode([tile]) == UNICODE_ORACLE[tile]
    assert T.parse_unicode(UNICODE_ORACLE[tile]) == [tile]
    assert T.format_seed_codes([tile]) == [SEED_ORACLE[tile]]
    assert T.parse_seed_codes([SEED_ORACLE[tile]]) == [tile]
    assert T.format_int_list([tile]) == [tile]
    assert T.parse_int_list([tile]) == [tile]
    assert T.format_ids136([tile]) == [4 * tile]
    for notation in (MPSZ_ORACLE[tile], CHINESE_ORACLE[tile], UNICODE_ORACLE[tile], [tile]):
        assert T.parse_tiles(notation) == [tile]


@pytest.mark.parametrize("tile_id", range(136))
def test_every_136_id(tile_id):
    assert T.parse_ids136([tile_id]) == [tile_id // 4]


def test_unicode_table_matches_code_points():
    for offset in range(9):
        assert T.UNICODE_CHARS[T.M1 + offset] == chr(0x1F007 + offset)
        assert T.UNICODE_CHARS[T.P1 + offset] == chr(0x1F019 + offset)
        assert T.UNICODE_CHARS[T.S1 + offset] == chr(0x1F010 + offset)
    assert T.UNICODE_CHARS[T.EAST : T.NORTH + 1] == tuple(chr(0x1F000 + i) for i in range(4))
    assert T.UNICODE_CHARS[T.WHITE] == "\U0001f006"
    assert T.UNICODE_CHARS[T.GREEN] == "\U0001f005"
    assert T.UNICODE_CHARS[T.RED] == "\U0001f004"


# --- random round trips ------------------------------------------------------------

tile_lists = st.lists(st.integers(0, 33), max_size=20)
# Physical tile lists: at most 4 copies, as 136-tile ids require.
physical_tile_lists = tile_lists.filter(lambda ts: max(Counter(ts).values(), default=0) <= 4)


@given(tile_lists)
def test_mpsz_round_trip_sorts(tiles):
    assert T.parse_mpsz(T.format_mpsz(tiles)) == sorted(tiles)
    assert T.format_mpsz(sorted(tiles)) == T.format_mpsz(tiles)


@given(tile_lists, st.data())
def test_mpsz_round_trip_with_red_fives(tiles, data):
    fives = [t for t in tiles if t in (T.M5, T.P5, T.S5)]
    # Mark a random subset of the held fives red.
    chosen = data.draw(st.lists(st.booleans(), min_size=len(fives), max_size=len(fives)))
    red = [five for five, is_red in zip(fives, chosen, strict=True) if is_red]
    text = T.format_mpsz(tiles, red=red)
    assert text.count("0") == len(red)
    assert T.parse_mpsz_with_red(text) == (sorted(tiles), tuple(sorted(red)))


@given(tile_lists)
def test_ordered_notations_round_trip_sorted_lists(tiles):
    tiles = sorted(tiles)
    assert T.parse_chinese(T.format_chinese(tiles)) == tiles
    assert T.parse_unicode(T.format_unicode(tiles)) == tiles
    assert T.parse_seed_codes(T.format_seed_codes(tiles)) == tiles
    assert T.parse_int_list(T.format_int_list(tiles)) == tiles
    assert T.tiles_from_counts(T.counts_from_tiles(tiles)) == tiles


@given(tile_lists)
def test_ordered_notations_keep_order(tiles):
    assert T.parse_chinese(T.format_chinese(tiles)) == tiles
    assert T.parse_unicode(T.format_unicode(tiles)) == tiles
    assert T.parse_seed_codes(T.format_seed_codes(tiles)) == tiles
    assert T.parse_tiles(T.format_chinese(tiles)) == tiles
    assert T.parse_tiles(T.format_unicode(tiles)) == tiles
    assert T.parse_tiles(tiles) == tiles


@given(physical_tile_lists)
def test_ids136_round_trip(tiles):
    ids = T.format_ids136(tiles)
    assert len(set(ids)) == len(ids)
    assert T.parse_ids136(ids) == tiles
    assert T.parse_ids136(T.format_ids136(sorted(tiles))) == sorted(tiles)


def test_ids136_use_lowest_unused_copy():
    assert T.format_ids136([T.P1, T.M1, T.P1, T.P1, T.P1]) == [36, 0, 37, 38, 39]
    with pytest.raises(TooManyCopies, match="fifth 1p"):
        T.format_ids136([T.P1] * 5)


@given(st.lists(st.integers(0, 300), min_size=34, max_size=34))
def test_counts_helpers(raw_counts):
    counts = bytes(min(c, 255) for c in raw_counts)
    tiles = T.tiles_from_counts(counts)
    assert tiles == sorted(tiles)
    assert T.counts_from_tiles(tiles) == counts


def test_counts_cap_at_255_and_ignore_the_copy_limit():
    counts = T.counts_from_tiles([T.RED] * 300 + [T.M1] * 5)
    assert isinstance(counts, bytes) and len(counts) == 34
    assert counts[T.RED] == 255 and counts[T.M1] == 5
    assert T.counts_from_tiles([]) == bytes(34)
    assert T.tiles_from_counts([0] * 33 + [2]) == [T.RED, T.RED]
    with pytest.raises(InvalidNotation, match="expected 34 tile counts, got 3"):
        T.tiles_from_counts(b"\x01\x02\x03")
    with pytest.raises(InvalidNotation, match="item 0 is 34"):
        T.counts_from_tiles([34])


# --- contract examples and accepted spellings --------------------------------------


def test_contract_examples():
    assert T.parse_tiles("123m406p789s1122z") == tiles_of("123m456p789s1122z")
    assert T.parse_mpsz_with_red("123m406p789s1122z")[1] == (T.P5,)
    assert T.parse_tiles("一万二万三万 东东 中发白") == tiles_of("123m11z765z")
    assert T.parse_tiles("1万2万") == [T.M1, T.M2]
    assert T.parse_tiles("五筒") == [T.P5]
    assert T.parse_tiles("九条") == [T.S9]
    assert T.parse_tiles("發") == [T.GREEN]
    assert T.parse_tiles("🀇🀈🀉🀀🀀") == tiles_of("123m11z")
    assert T.parse_tiles([0, 1, 33]) == [T.M1, T.M2, T.RED]
    assert T.format_mpsz([0, 1, 2, 27]) == "123m1z"


@pytest.mark.parametrize(
    ("text", "tile"),
    [
        *((f"{c}萬", T.M1 + i) for i, c in enumerate(CHINESE_NUMERALS)),
        *((f"{i + 1}万", T.M1 + i) for i in range(9)),
        *((f"{chr(0xFF11 + i)}万", T.M1 + i) for i in range(9)),  # full-width digits
        *((f"{c}饼", T.P1 + i) for i, c in enumerate(CHINESE_NUMERALS)),
        *((f"{c}餅", T.P1 + i) for i, c in enumerate(CHINESE_NUMERALS)),
        *((f"{i + 1}筒", T.P1 + i) for i in range(9)),
        *((f"{c}條", T.S1 + i) for i, c in enumerate(CHINESE_NUMERALS)),
        *((f"{c}索", T.S1 + i) for i, c in enumerate(CHINESE_NUMERALS)),
        *((f"{i + 1}条", T.S1 + i) for i in range(9)),
        ("幺鸡", T.S1),
        ("幺雞", T.S1),
        ("么鸡", T.S1),
        ("东", T.EAST),
        ("東", T.EAST),
        ("南", T.SOUTH),
        ("西", T.WEST),
        ("北", T.NORTH),
        ("白", T.WHITE),
        ("白板", T.WHITE),
        ("发", T.GREEN),
        ("發", T.GREEN),
        ("发财", T.GREEN),
        ("發財", T.GREEN),
        ("青发", T.GREEN),
        ("青發", T.GREEN),
        ("中", T.RED),
        ("红中", T.RED),
        ("紅中", T.RED),
    ],
)
def test_every_chinese_alias(text, tile):
    assert T.parse_chinese(text) == [tile]
    assert T.parse_tiles(text) == [tile]


@pytest.mark.parametrize(
    ("text", "mpsz"),
    [
        ("一二三万", "123m"),
        ("123万", "123m"),
        ("一二三万四五六筒七八九条", "123m456p789s"),
        ("一万,二万，三万、四万\u3000五万\t六万", "123456m"),
        ("白板白发财发红中中", "556677z"),
        ("幺鸡一条", "11s"),
        ("", ""),
        (" 、 ", ""),
    ],
)
def test_chinese_groups_and_separators(text, mpsz):
    assert T.parse_chinese(text) == tiles_of(mpsz)


def test_format_chinese_is_canonical():
    assert T.format_chinese(tiles_of("12m1z7z")) == "一万 二万 东 中"
    assert T.format_chinese([]) == ""


@pytest.mark.parametrize(
    ("text", "mpsz"),
    [
        ("123m 406p\t789S 1122Z", "123m456p789s1122z"),
        ("1m2m3m", "123m"),
        ("   ", ""),
        ("", ""),
    ],
)
def test_mpsz_spellings(text, mpsz):
    assert T.parse_mpsz(text) == tiles_of(mpsz)


def test_mpsz_keeps_text_order_and_reports_each_red():
    tiles, red = T.parse_mpsz_with_red("0s0m5m")
    assert tiles == [T.S5, T.M5, T.M5]
    assert red == (T.M5, T.S5)


def test_format_mpsz_red_checks():
    assert T.format_mpsz(tiles_of("555p"), red=[T.P5]) == "055p"
    with pytest.raises(InvalidNotation, match="not a five"):
        T.format_mpsz(tiles_of("4p"), red=[T.P4])
    with pytest.raises(InvalidNotation, match="2 red 5p asked for, but the tiles hold 1 5p"):
        T.format_mpsz(tiles_of("5p"), red=[T.P5, T.P5])


def test_unicode_accepts_variation_selectors_and_separators():
    assert T.parse_unicode("🀄\ufe0f🀄️ 🀄\ufe0e,🀅、🀆") == tiles_of("77765z")
    assert T.parse_tiles("🀄\ufe0f") == [T.RED]


# --- auto-detection ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "notation"),
    [
        ("123m", "mpsz"),
        ("", "mpsz"),
        ("123", "mpsz"),
        ("1万", "chinese"),
        ("中", "chinese"),
        ("🀄", "unicode"),
        ("🀄\ufe0f", "unicode"),
    ],
)
def test_detect_notation(value, notation):
    assert T.detect_notation(value) == notation


def test_parse_tiles_dispatch():
    assert T.parse_tiles("") == []
    assert T.parse_tiles([]) == []
    assert T.parse_tiles(()) == []
    assert T.parse_tiles((1, 2)) == [1, 2]
    assert T.parse_tiles("1m 2p") == [T.M1, T.P2]


# --- errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "message"),
    [
        # mpsz
        ("123x", "unexpected character 'x' at position 3"),
        ("12m,3p", "unexpected character ',' at position 3"),
        ("123", "digits '123' at position 0 must be followed by a suit letter"),
        ("123m45", "digits '45' at position 4 must be followed by a suit letter"),
        ("12 3m", "digits '12' at position 0 must be followed by a suit letter"),
        ("m", "suit letter 'm' at position 0 has no digits before it"),
        ("1m p", "suit letter 'p' at position 3 has no digits before it"),
        ("10z", "digit '0' at position 1 is not an honour"),
        ("8z", "digit '8' at position 0 is not an honour: honours are 1z..7z"),
        ("129z", "digit '9' at position 2 is not an honour"),
        # Chinese
        ("一万x", "unexpected character 'x' at position 2"),
        ("一万十万", "unexpected character '十' at position 2"),
        ("一", "'一' at position 0 has no suit after it"),
        ("一二三", "'一二三' at position 0 has no suit after it"),
        ("一二 三万", "'一二' at position 0 must be followed by a suit (万, 筒 or 条), not U+0020"),
        ("五东", "'五' at position 0 must be followed by a suit (万, 筒 or 条), not '东' at position 1"),
        ("万", "suit '万' at position 0 has no number before it"),
        ("一万筒", "suit '筒' at position 2 has no number before it"),
        ("0万", "'0' at position 0: Chinese notation has no red fives"),
        ("4０6筒", "'０' at position 1: Chinese notation has no red fives"),
        ("红", "'红' at position 0 is not a tile on its own; did you mean 红中?"),
        ("幺", "did you mean 幺鸡?"),
        ("板", "unexpected character '板' at position 0"),
        # Unicode
        ("🀇a", "unexpected character 'a' at position 1"),
        ("🀇🀢", "(U+1F022) at position 1 is not one of the 34 tiles"),
        ("🀫", "(U+1F02B) at position 0 is not one of the 34 tiles"),
        ("\ufe0f🀄", "U+FE0F at position 0"),
        # mixed notations
        ("123m一万", "'一' at position 4 is Chinese notation, but 'm' at position 3 is mpsz"),
        ("一万1m", "'m' at position 3 is mpsz notation, but '一' at position 0 is Chinese"),
        ("🀇1m", "'m' at position 2 is mpsz notation, but '🀇' at position 0 is Unicode tile"),
        ("中🀄", "'🀄' at position 1 is Unicode tile notation, but '中' at position 0 is Chinese"),
        # lists and other types
        ([0, 34], "item 1 is 34, which is not a tile; tiles are integers 0..33"),
        ([-1], "item 0 is -1, which is not a tile"),
        ([0, True], "item 1 is True (bool), not an integer"),
        ([False], "item 0 is False (bool), not an integer"),
        ([1, "3m"], "item 1 is '3m' (str), not an integer"),
        ([1.0], "item 0 is 1.0 (float), not an integer"),
        ([None], "item 0 is None, not an integer"),
        ([[1]], "item 0 is [1] (list), not an integer"),
        (None, "expected tiles as a string or a list of integers, got None"),
        (3, "got 3 (int)"),
        (1.5, "got 1.5 (float)"),
        (True, "got True (bool)"),
        ({"hand": "1m"}, "got {'hand': '1m'} (dict)"),
        (b"1m", "got b'1m' (bytes)"),
    ],
)
def test_parse_tiles_errors(value, message):
    with pytest.raises(InvalidNotation) as caught:
        T.parse_tiles(value)
    assert message in str(caught.value)
    assert caught.value.code == "invalid_notation"


@pytest.mark.parametrize(
    ("parse", "values", "message"),
    [
        (T.parse_int_list, "0123", "expected a list of tile integers 0..33, got '0123' (str)"),
        (T.parse_int_list, {1, 2}, "got {1, 2} (set)"),
        (T.parse_int_list, None, "got None"),
        (T.parse_ids136, [136], "item 0 is 136, which is not a 136-tile id; ids are 0..135"),
        (T.parse_ids136, [-1], "item 0 is -1, which is not a 136-tile id"),
        (T.parse_ids136, [5, 9, 5], "item 2 repeats id 5 (first at item 0)"),
        (T.parse_ids136, [True], "item 0 is True (bool), not an integer"),
        (T.parse_seed_codes, [11, 10], "item 1 is 10, which is not a seed-003 tile code"),
        (T.parse_seed_codes, [42], "item 0 is 42, which is not a seed-003 tile code"),
        (T.parse_seed_codes, [57], "item 0 is 57"),
        (T.parse_seed_codes, ["11"], "item 0 is '11' (str), not an integer"),
        (T.format_mpsz, [0, 34], "item 1 is 34"),
        (T.format_chinese, [True], "item 0 is True (bool)"),
        (T.format_unicode, [-1], "item 0 is -1"),
        (T.format_seed_codes, [99], "item 0 is 99"),
        (T.format_ids136, [0.5], "item 0 is 0.5 (float)"),
    ],
)
def test_list_notation_errors(parse, values, message):
    with pytest.raises(InvalidNotation) as caught:
        parse(values)
    assert message in str(caught.value)


def test_int_list_accepts_any_integer_like():
    assert T.parse_int_list(range(3)) == [0, 1, 2]
    assert T.parse_int_list(iter([33])) == [33]


# --- dependencies ------------------------------------------------------------------


def test_tiles_module_imports_only_the_standard_library_and_app_core():
    source = Path(T.__file__).read_text(encoding="utf-8")
    imported = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "use absolute imports"
            imported.append(node.module)
    assert imported, "the parser found no imports at all"
    for name in imported:
        top = name.split(".")[0]
        assert top in sys.stdlib_module_names or name == "app.core" or name.startswith("app.core."), name


@given(st.lists(st.integers(min_value=0, max_value=33), max_size=14), st.booleans())
def test_compact_mpsz_fast_path_equals_general_parser(tiles: list[int], red: bool) -> None:
    text = T.format_mpsz(tiles)
    if red and "5m" not in text:
        text = text.replace("5p", "0p", 1)
    assert T._COMPACT_MPSZ.fullmatch(text) or not text
    assert sorted(T.parse_tiles(text)) == sorted(T.parse_mpsz(text))


# --- dora: the next tile of the indicator's cycle that the set has -----------------------

#: The cycles written out by hand: each suit's nine, the four winds, the three dragons.
DORA_CYCLES = [list(range(base, base + 9)) for base in (0, 9, 18)] + [[27, 28, 29, 30], [31, 32, 33]]


def _dora_oracle(indicator: int, absent: set[int]) -> int:
    """The first tile after ``indicator`` going round its cycle that is not absent; the
    indicator itself when the lap finds none (a cycle with no tile left has no dora)."""
    cycle = next(cycle for cycle in DORA_CYCLES if indicator in cycle)
    at = cycle.index(indicator)
    for step in range(1, len(cycle) + 1):
        tile = cycle[(at + step) % len(cycle)]
        if tile not in absent:
            return tile
    return indicator


@given(st.sets(st.sampled_from(list(ALL_TILES))))
def test_dora_table_agrees_with_the_cycle_walk_for_any_absent_set(absent: set[int]) -> None:
    # Any subset ends, a whole cycle absent included (issue 33: every wind or dragon absent looped forever).
    table = T.dora_table(tuple(sorted(absent)))
    assert list(table) == [_dora_oracle(tile, absent) for tile in ALL_TILES]


@pytest.mark.parametrize(
    "absent",
    [range(27, 31), range(31, 34), range(27, 34), range(0, 9), range(9, 18)],
    ids=["winds", "dragons", "honours", "characters", "dots"],
)
def test_a_cycle_with_nothing_left_names_no_tile_a_hand_can_hold(absent: range) -> None:
    table = T.dora_table(tuple(absent))
    assert all(table[tile] == tile for tile in absent)
    assert all(table[tile] not in absent for tile in ALL_TILES if tile not in absent)

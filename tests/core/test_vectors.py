"""Known-answer vectors from outside the team, read at test time from ``shared/testdata``.

* ``ara-shanten``: 40,000 hands with regular / kokushi / chiitoi shanten (riichi rules).
* ``nyanten-exact``: 40,052 hands of every legal size with exact (4-copy aware)
  shanten, agari and waits computed by Cryolite/nyanten.
* ``apricot-handgen``: 40,000 hands without answers; the engine is compared with
  the oracles (the batch DP on all of them, branch and bound on 50 a file).

The answered vectors are cheap and all run.  The comparisons with this suite's own
oracles (``oracles.py``, slower than the engine by far) take every 5th apricot hand
and every 20th nyanten row by default, every one under ``--full-oracles``; the
branch-and-bound oracle sees the same number of hands either way.

The data is never copied into the project; when the folder is missing the
tests skip (set ``TENPAI_TESTDATA`` to point elsewhere).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import oracles as O
import pytest
from oracle_sample import every_kth

from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.rules import rule_profile

# Large comparisons: the full suite runs them, the fast tier does not.
pytestmark = pytest.mark.slow

RIICHI = Checker(rule_profile("riichi"))

SHA256 = {
    "ara-shanten/p_normal_10000.txt": "951b671df158a702cf48b77bd0a3625309989dfc325972615f6d293d08bcf5db",
    "ara-shanten/p_hon_10000.txt": "b2514f4e0994185e3760b04efab3593754a42aa79970aa30704ca17eedcde838",
    "ara-shanten/p_tin_10000.txt": "6a8dd006c18cad6012aaf35abb09daa14b2894b17a6f1b3b6737ada697ccefee",
    "ara-shanten/p_koku_10000.txt": "26beb609091ab808268b65b4ab8116fbbbf2eaf60958b45675678bcc19f0d971",
    "nyanten-exact/random_40k.tsv": "f29b706bbd9f52994c8274319f007445eeae980d48b66d8b8e6d5626c65a4112",
    "nyanten-exact/edge_cases.tsv": "84fe38dda56767a97b143bf2b2c2e493672947c0c4557c0b2cb3ad0873a084a5",
    "apricot-handgen/hands_normal_10000.txt": "39edcbcd109a6decd2c1a9a3f4dc8da74da91bf428ebbb101b322db93f65ab9f",
    "apricot-handgen/hands_half_flush_10000.txt": "e6fa21f845b88c011e7cfe904a2874627efb561e4481395e6e4b638defd8e574",
    "apricot-handgen/hands_full_flush_10000.txt": "6b72d21e219bcf9d667c08ed12bd157ff73d2050772ab32ef18bd6f221f070d2",
    "apricot-handgen/hands_thirteen_orphans_10000.txt": "968626458c54271f250ee92c9124fc8030bab6f964069714201d1722b905bfc0",
}
ARA_FILES = [name for name in SHA256 if name.startswith("ara-")]
APRICOT_FILES = [name for name in SHA256 if name.startswith("apricot-")]


def _path(testdata: Path, name: str) -> Path:
    path = testdata / name
    if not path.is_file():
        pytest.skip(f"{path} not found")
    return path


def _counts(tiles: list[int]) -> bytes:
    counts = [0] * 34
    for tile in tiles:
        counts[tile] += 1
    return bytes(counts)


@pytest.mark.parametrize("name", sorted(SHA256))
def test_files_are_the_documented_ones(testdata, name):
    digest = hashlib.sha256(_path(testdata, name).read_bytes()).hexdigest()
    assert digest == SHA256[name], f"{name} differs from the copy its README describes"


# --- Ara ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ARA_FILES)
def test_ara_shanten(testdata, name):
    rows = [line.split() for line in _path(testdata, name).read_text().splitlines() if line.strip()]
    assert len(rows) == 10_000
    wrong = []
    for row in rows:
        values = [int(v) for v in row]
        tiles, expected = values[:14], tuple(values[14:])
        result = RIICHI.shanten(Hand(_counts(tiles)))
        got = (result.regular, result.thirteen_orphans, result.seven_pairs)
        if got != expected or result.shanten != min(expected):
            wrong.append((tiles, expected, got))
    assert not wrong, f"{len(wrong)} of {len(rows)} disagree (tiles, expected, got): {wrong[:5]}"


# --- nyanten -------------------------------------------------------------------------------


def _nyanten_rows(testdata: Path, name: str) -> list[dict]:
    lines = _path(testdata, name).read_text().splitlines()
    header = lines[0].lstrip("# ").split("\t")
    assert header == ["category", "hand", "counts34", "n", "regular", "chiitoi", "kokushi", "min", "agari", "waits"]
    rows = []
    for line in lines[1:]:
        fields = dict(zip(header, line.split("\t"), strict=True))
        counts = bytes(int(c) for c in fields["counts34"])
        assert sum(counts) == int(fields["n"])
        rows.append(
            {
                "name": f"{fields['category']} {fields['hand']}",
                "counts": counts,
                "regular": int(fields["regular"]),
                "chiitoi": None if fields["chiitoi"] == "NA" else int(fields["chiitoi"]),
                "kokushi": None if fields["kokushi"] == "NA" else int(fields["kokushi"]),
                "min": int(fields["min"]),
                "agari": None if fields["agari"] == "NA" else fields["agari"] == "1",
                "waits": None
                if fields["waits"] == "NA"
                else []
                if fields["waits"] == "-"
                else [int(t) for t in fields["waits"].split(",")],
            }
        )
    return rows


@pytest.mark.parametrize(
    ("name", "size"), [("nyanten-exact/random_40k.tsv", 40_000), ("nyanten-exact/edge_cases.tsv", 52)]
)
def test_nyanten_vectors(testdata, name, size):
    rows = _nyanten_rows(testdata, name)
    assert len(rows) == size
    wrong = []
    for row in rows:
        hand = Hand(row["counts"])
        result = RIICHI.shanten(hand)
        got = {
            "regular": result.regular,
            "chiitoi": result.seven_pairs,
            "kokushi": result.thirteen_orphans,
            "min": result.shanten,
        }
        if row["agari"] is not None:
            win = RIICHI.win(hand)
            got["agari"] = win.win
            if RIICHI.is_win(hand) != win.win or win.complete_shape != win.win:
                wrong.append((row["name"], "is_win / complete_shape disagree with win"))
        else:
            waits = RIICHI.waits(hand)
            got["waits"] = list(waits.shape_waits)
            if [w.tile for w in waits.waits] != got["waits"] or waits.tenpai != bool(got["waits"]):
                wrong.append((row["name"], "waits disagree with shape_waits"))
        expected = {key: row[key] for key in got}
        if got != expected:
            wrong.append((row["name"], expected, got))
    assert not wrong, f"{len(wrong)} of {len(rows)} disagree: {wrong[:5]}"


def test_oracles_agree_with_nyanten(testdata):
    """The oracles themselves against an outside exact calculator (checking the checkers)."""
    random_rows = _nyanten_rows(testdata, "nyanten-exact/random_40k.tsv")
    edge_rows = _nyanten_rows(testdata, "nyanten-exact/edge_cases.tsv")
    rows = every_kth(random_rows, 2_000) + edge_rows
    counts = np.array([list(r["counts"]) for r in rows])
    sizes = counts.sum(axis=1)
    regular = O.regular_distance_batch(counts, sizes // 3) - 1
    assert regular.tolist() == [r["regular"] for r in rows]
    rules = O.OracleRules()
    for row in rows:
        if row["chiitoi"] is not None:
            assert O.seven_pairs_distance(row["counts"], quad_as_two=False) - 1 == row["chiitoi"], row["name"]
            assert O.thirteen_orphans_distance(row["counts"]) - 1 == row["kokushi"], row["name"]
    # The slow oracles on a sample: every edge case and every 200th random row.
    for row in random_rows[::200] + edge_rows:
        assert O.shanten(row["counts"], [], rules)["shanten"] == row["min"], row["name"]
        if row["waits"] is not None:
            assert O.shape_waits(row["counts"], [], rules) == row["waits"], row["name"]
        else:
            assert O.is_complete(row["counts"], [], rules) == row["agari"], row["name"]


# --- Apricot ------------------------------------------------------------------------------


def _apricot_hands(testdata: Path, name: str) -> np.ndarray:
    hands = [[int(t) for t in line.split()] for line in _path(testdata, name).read_text().splitlines() if line.strip()]
    assert len(hands) == 10_000 and all(len(h) == 14 for h in hands)
    counts = np.zeros((len(hands), 34), dtype=np.int64)
    for i, tiles in enumerate(hands):
        for tile in tiles:
            counts[i, tile] += 1
    assert counts.max() <= 4
    return counts


@pytest.mark.parametrize("name", APRICOT_FILES)
def test_apricot_hands_against_oracles(testdata, name):
    counts = np.array(every_kth(_apricot_hands(testdata, name), 2_000))
    regular = O.regular_distance_batch(counts, np.full(len(counts), 4)) - 1
    bound_step = len(counts) // 50  # branch and bound on 50 hands a file
    wrong = []
    for index, row in enumerate(counts):
        hand_counts = tuple(int(c) for c in row)
        result = RIICHI.shanten(Hand(bytes(hand_counts)))
        expected = {
            "regular": int(regular[index]),
            "seven_pairs": O.seven_pairs_distance(hand_counts, quad_as_two=False) - 1,
            "thirteen_orphans": O.thirteen_orphans_distance(hand_counts) - 1,
        }
        expected["shanten"] = min(expected.values())
        got = {
            "regular": result.regular,
            "seven_pairs": result.seven_pairs,
            "thirteen_orphans": result.thirteen_orphans,
            "shanten": result.shanten,
        }
        if got != expected:
            wrong.append((hand_counts, expected, got))
        if index % bound_step == 0:  # branch and bound, and the win check by decomposition
            assert O.regular_distance(hand_counts, 4) - 1 == expected["regular"], hand_counts
            assert RIICHI.is_win(Hand(bytes(hand_counts))) == O.is_complete(hand_counts, [], O.OracleRules())
    assert not wrong, f"{len(wrong)} of {len(counts)} disagree: {wrong[:5]}"

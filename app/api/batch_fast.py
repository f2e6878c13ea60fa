"""The vectorised answer to /shanten/batch and /ting/batch.

A batch of plain mpsz hands is parsed, analysed and written out as JSON with
numpy, a few microseconds per hand instead of a Python round trip per hand.
Any request this path does not fully understand (other notations, an error
anywhere, the melded-copies option with melds, rules with absent tiles such as
sanma's) returns ``None`` and takes the
per-hand path, which gives exactly the same answers (a test compares them) and
explains every error precisely.  Batch answers skip the result cache: computing
one costs less than looking it up.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Final

import numpy as np

from app.api.render import REMAINING_JSON, TILE_JSON
from app.api.schemas.common import BatchRequest
from app.core.errors import TenpaiError
from app.core.shape.batch import (
    NOT_APPLICABLE,
    BatchAnalysis,
    analyse_batch,
    parse_mpsz_batch,
)
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import RuleProfile, rule_profile
from app.core.shape.tiles import MAX_MELDS, NUM_TILE_KINDS, counts_from_tiles, parse_tiles

# The single answers' fragments (app.api.render), as numpy object arrays.
#: ``{"tile": .., "remaining": ..}`` for every tile (rows) and remaining count (columns).
_REMAINING_GRID: Final = np.array(REMAINING_JSON, dtype=object)
_REMAINING_GRID_LATER: Final = np.array([["," + text for text in row] for row in REMAINING_JSON], dtype=object)
_SHAPE_JSON: Final = np.array(TILE_JSON, dtype=object)
_SHAPE_JSON_LATER: Final = np.array(["," + text for text in TILE_JSON], dtype=object)
#: The end of the forms object for rules without the knitted forms.
_NO_KNITTED_FORMS: Final = ',"knitted_straight":null,"honors_and_knitted":null}'


class _Prepared:
    """A batch turned into arrays, or the reason it cannot be."""

    __slots__ = ("rules", "counts", "seen", "precondition")

    def __init__(self, rules: RuleProfile, counts: np.ndarray, seen: np.ndarray, precondition: str | None):
        self.rules = rules
        self.counts = counts
        #: Copies accounted for per hand: its own, the melds' and the visible tiles.
        self.seen = seen
        self.precondition = precondition

    @property
    def remaining(self) -> np.ndarray:
        """Unseen copies per hand and tile (asked only when some answer lists tiles)."""
        return (4 - self.seen).astype(np.int64)


def _prepare(
    body: BatchRequest, max_batch_size: int, *, with_ukeire: bool = True
) -> tuple[_Prepared, BatchAnalysis] | None:
    if len(body.hands) > max_batch_size or len(body.melds) > MAX_MELDS or not set(map(type, body.hands)) <= {str}:
        return None
    try:
        rules = rule_profile(body.rules.preset, **body.rules.overrides())
        melds = [Meld.of(meld.kind, parse_tiles(meld.tiles)) for meld in body.melds]
        for meld in melds:
            rules.check_meld_allowed(meld.kind, field="kind")  # refused, and located, by the per-hand path
        if rules.melded_tiles_count_toward_limit and melds:
            return None
        if rules.absent_tiles or rules.void_suit or body.void_suit is not None:
            # Sanma's missing tiles and Sichuan's void suit are the per-hand Checker's (analyse_batch refuses them).
            return None
        visible = np.frombuffer(counts_from_tiles(parse_tiles(body.visible)), dtype=np.uint8)
    except TenpaiError:
        return None
    counts = parse_mpsz_batch(body.hands)  # all str, checked above
    if counts is None:
        return None
    melded = np.frombuffer(counts_from_tiles(t for meld in melds for t in meld.tiles), dtype=np.uint8)
    if melds or visible.any():
        seen = counts.astype(np.int16) + melded + visible
        if seen.size and seen.max() > 4:
            return None
    else:
        seen = counts  # the parser already refused a fifth copy in a hand
    try:
        analysis = analyse_batch(counts, rules, declared_melds=len(melds), with_ukeire=with_ukeire)
    except TenpaiError:
        return None
    # The same judge as the single routes: the precondition depends on the melds alone.
    precondition = Checker(rules).precondition_failure(Hand(bytes(NUM_TILE_KINDS), tuple(melds)))
    return _Prepared(rules, counts, seen, precondition), analysis


#: Values from -1 up to this bound are labelled from a table (shanten, forms, ukeire counts).
_TABLED: Final = 160


@lru_cache(maxsize=64)
def _label_table(prefix: str, null: int | None) -> np.ndarray:
    values = range(-1, _TABLED)
    return np.array([prefix + ("null" if value == null else str(value)) for value in values], dtype=object)


def _labelled(prefix: str, values: np.ndarray, *, null: int | None = None) -> np.ndarray:
    """``prefix`` + each value as JSON (``null`` where it equals ``null``), each text made once."""
    if values.size == 0 or (values.min() >= -1 and values.max() < _TABLED):
        return _label_table(prefix, null)[values.astype(np.intp) + 1]
    distinct, where = np.unique(values, return_inverse=True)
    texts = np.array([prefix + ("null" if v == null else str(v)) for v in distinct.tolist()], dtype=object)
    return texts[where.reshape(-1)]


def _choose(condition: np.ndarray, yes: str, no: str) -> np.ndarray:
    """``yes`` where ``condition``, else ``no``: the two string objects, shared by every row."""
    return np.array([no, yes], dtype=object)[condition.astype(np.intp)]


class _Rows:
    """Builds one JSON array from per-row strings and per-row lists, with numpy.

    Segments are added in output order: :meth:`text` gives one string per row,
    :meth:`items` a comma-separated run of strings to some rows.  :meth:`json`
    lays every piece at its place and joins once, instead of formatting row by
    row in Python.
    """

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.segments: list[tuple[np.ndarray | None, np.ndarray, np.ndarray | None]] = []

    def text(self, per_row: np.ndarray) -> None:
        self.segments.append((None, per_row, None))

    def items(self, flags: np.ndarray, first: np.ndarray, later: np.ndarray, column: np.ndarray | None = None) -> None:
        """For each True ``flags[row, kind]``: ``first[kind]`` (or ``first[kind, column[row, kind]]``),
        or its ``later`` twin (with the separating comma) after the row's first item."""
        rows, kinds = np.nonzero(flags)
        index = (kinds,) if column is None else (kinds, column[rows, kinds])
        self.segments.append((rows, first[index], later[index]))

    def json(self) -> bytes:
        counts = [
            np.ones(self.rows, dtype=np.int64) if rows is None else np.bincount(rows, minlength=self.rows)
            for rows, _, _ in self.segments
        ]
        sizes = np.sum(counts, axis=0) if counts else np.zeros(self.rows, dtype=np.int64)
        cursor = np.cumsum(sizes) - sizes
        out = np.empty(int(sizes.sum()), dtype=object)
        for (rows, first, later), count in zip(self.segments, counts, strict=True):
            if rows is None:
                out[cursor] = first
            else:
                assert later is not None  # an items() segment has both strings
                within = np.arange(len(rows)) - (np.cumsum(count) - count)[rows]
                out[cursor[rows] + within] = np.where(within > 0, later, first)
            cursor += count
        return ("[" + "".join(out.tolist()) + "]").encode()


def _separators(rows: int, between: str, last: str) -> np.ndarray:
    return _choose(np.arange(rows) < rows - 1, between, last)


def shanten_batch_json(body: BatchRequest, *, max_batch_size: int, with_ukeire: bool = True) -> bytes | None:
    """The /shanten/batch answer as JSON bytes, or None to take the per-hand path."""
    prepared = _prepare(body, max_batch_size, with_ukeire=with_ukeire)
    if prepared is None:
        return None
    batch, analysis = prepared
    n = len(analysis.shanten)
    ready = analysis.sizes % 3 == 1
    if not with_ukeire:
        ready = np.zeros(n, dtype=bool)  # every answer as a 3n+2 hand's: ukeire null
    listed = bool(ready.any())  # some answer lists its ukeire
    reason = "null" if batch.precondition is None else json.dumps(batch.precondition)
    rows = _Rows(n)
    rows.text(_labelled('{"shanten":', analysis.shanten))
    rows.text(_labelled(',"forms":{"regular":', analysis.regular))
    rows.text(_labelled(',"seven_pairs":', analysis.seven_pairs, null=NOT_APPLICABLE))
    rows.text(_labelled(',"thirteen_orphans":', analysis.thirteen_orphans, null=NOT_APPLICABLE))
    if batch.rules.knitted_forms:
        rows.text(_labelled(',"knitted_straight":', analysis.knitted_straight, null=NOT_APPLICABLE))
        rows.text(_labelled(',"honors_and_knitted":', analysis.honors_and_knitted, null=NOT_APPLICABLE))
        forms_end = "}"
    else:
        forms_end = _NO_KNITTED_FORMS
    if listed:
        remaining = batch.remaining
        totals = np.where(ready, np.where(analysis.ukeire, remaining, 0).sum(axis=1), -1)
        rows.text(_choose(ready, forms_end + ',"ukeire":[', forms_end + ',"ukeire":null'))
        rows.items(analysis.ukeire, _REMAINING_GRID, _REMAINING_GRID_LATER, remaining)
        rows.text(_choose(ready, "]", ""))
        rows.text(_labelled(',"ukeire_count":', totals, null=-1))
        no_count = ""
    else:  # 3n+2 hands, or ukeire: false: the same text after the forms in every answer but the reason
        no_count = forms_end + ',"ukeire":null,"ukeire_count":null'
    rows.text(_choose(analysis.shanten == -1, f'{no_count},"reason":{reason}}}', f'{no_count},"reason":null}}'))
    rows.text(_separators(n, ",", ""))
    return b'{"results":' + rows.json() + b"}"


def ting_batch_json(body: BatchRequest, *, max_batch_size: int) -> bytes | None:
    """The /ting/batch answer as JSON bytes, or None to take the per-hand path."""
    prepared = _prepare(body, max_batch_size)
    if prepared is None:
        return None
    batch, analysis = prepared
    if (analysis.sizes % 3 != 1).any():
        return None  # the per-hand path explains the wrong tile count
    n = len(analysis.shanten)
    shape_ready = analysis.shanten == 0
    shape = analysis.ukeire & shape_ready[:, None]
    blocked = batch.precondition is not None
    waits = np.zeros_like(shape) if blocked else shape
    tenpai = shape_ready & (not blocked)
    karaten = tenpai & ~(np.where(waits, batch.remaining, 0) > 0).any(axis=1)
    reason = json.dumps(batch.precondition)
    rows = _Rows(n)
    rows.text(_choose(tenpai, '{"tenpai":true,"waits":[', '{"tenpai":false,"waits":['))
    rows.items(waits, _REMAINING_GRID, _REMAINING_GRID_LATER, batch.remaining)
    rows.text(_choose(karaten, '],"karaten":true', '],"karaten":false'))
    rows.text(_choose(shape_ready & blocked, f',"reason":{reason},"shape_waits":[', ',"reason":null,"shape_waits":['))
    rows.items(shape, _SHAPE_JSON, _SHAPE_JSON_LATER)
    rows.text(_separators(n, "]},", "]}"))
    return b'{"results":' + rows.json() + b"}"

"""Set tenpai's tenhou.net/6 reader against an independent one: mjai-reviewer's ``convlog``.

``convlog`` (Equim-chan/mjai-reviewer, Rust) turns a tenhou.net/6 JSON log into mjai events.
It is built outside the project (see ``docs/records.md``, "An independent converter"); this
script only runs it. Two sets of logs go through both converters and the events are compared
one by one (parsed JSON, aligned with ``difflib`` so a missing or extra event shows as one):

* every shared Tenhou game (``tenhou-games/*.jsonl`` and ``sanma/``): written to tenhou.net/6 by
  tenpai's writer, then read by tenpai's reader (which must give the shared events back) and by
  ``convlog``;
* optionally the tenhou.net/6 files of ``convlog``'s own tests (``--convlog-tests FOLDER``),
  files tenpai did not write.

Differences are printed grouped by kind (the event types and the fields that differ), with a
count and the first example of each. A log that ``convlog`` refuses is reported with its error.

    python scripts/compare_convlog.py [--convlog BIN] [--convlog-tests FOLDER] [--json]

``BIN`` defaults to ``$TENPAI_CONVLOG`` or /work/peers/convlog-debian/convlog/target/release/tenhou2mjai.
Without the binary or the shared games it says so and exits 0: nothing in the test suite
depends on it.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
from shared_data import shared_testdata_dir  # noqa: E402

from app.core.families.registry import family_of  # noqa: E402
from app.core.table.records import read_log, write_log  # noqa: E402

DEFAULT_CONVLOG = Path("/work/peers/convlog-debian/convlog/target/release/tenhou2mjai")

Event = dict[str, Any]

#: How far apart (in events) the same event may sit in the two lists to count as moved.
MOVE_WINDOW = 3
#: A kind seen this often or less has every place it occurs printed (log#event index).
PLACES_LISTED = 10


@dataclass
class Comparison:
    """What the two converters gave, over every log compared."""

    logs: int = 0
    events_ours: int = 0
    events_convlog: int = 0
    identical_logs: int = 0
    refused: list[tuple[str, str]] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    examples: dict[str, dict[str, Any]] = field(default_factory=dict)
    places: dict[str, list[str]] = field(default_factory=dict)

    def note(self, kind: str, log: str, index: int, ours: Any, convlog: Any) -> None:
        self.kinds[kind] += 1
        self.places.setdefault(kind, []).append(f"{log}#{index}")
        self.examples.setdefault(kind, {"log": log, "event": index, "ours": ours, "convlog": convlog})


def run_convlog(binary: Path, tenhou6: str) -> tuple[list[Event] | None, str]:
    """convlog's events for one log, or None and its error message."""
    done = subprocess.run([str(binary)], input=tenhou6, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None, done.stderr.strip()
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()], ""


def compare_events(result: Comparison, name: str, ours: list[Event], theirs: list[Event]) -> None:
    """Align the two event lists and record each difference under its kind."""
    result.logs += 1
    result.events_ours += len(ours)
    result.events_convlog += len(theirs)
    if ours == theirs:
        result.identical_logs += 1
        return
    keys_ours = [json.dumps(event, sort_keys=True) for event in ours]
    keys_theirs = [json.dumps(event, sort_keys=True) for event in theirs]
    matcher = difflib.SequenceMatcher(a=keys_ours, b=keys_theirs, autojunk=False)
    only_ours: list[int] = []
    only_theirs: list[int] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        if op == "replace" and i2 - i1 == j2 - j1:
            # Same place, different content: name the fields that differ.
            for offset, (mine, other) in enumerate(zip(ours[i1:i2], theirs[j1:j2], strict=True)):
                fields = sorted(key for key in mine.keys() | other.keys() if mine.get(key) != other.get(key))
                kind = f"{mine['type']} vs {other['type']}: fields {', '.join(fields)} differ"
                result.note(kind, name, i1 + offset, mine, other)
            continue
        only_ours.extend(range(i1, i2))
        only_theirs.extend(range(j1, j2))
    # An event both give, a few places apart, is one difference (moved), not two.
    for i in list(only_ours):
        for j in only_theirs:
            if keys_ours[i] == keys_theirs[j] and abs(i - j) <= MOVE_WINDOW:
                only_ours.remove(i)
                only_theirs.remove(j)
                kind = f"{ours[i]['type']} placed elsewhere"
                around = {"tenpai": ours[max(min(i, j) - 1, 0) : max(i, j) + 2]}
                around["convlog"] = theirs[max(min(i, j) - 1, 0) : max(i, j) + 2]
                result.note(kind, name, i, around["tenpai"], around["convlog"])
                break
    for i in only_ours:
        result.note(f"an event only tenpai gives: {ours[i]['type']}", name, i, ours[max(i - 2, 0) : i + 2], None)
    for j in only_theirs:
        result.note(f"an event only convlog gives: {theirs[j]['type']}", name, j, None, theirs[max(j - 2, 0) : j + 2])


def shared_games(testdata: Path) -> list[Path]:
    folder = testdata / "tenhou-games"
    return sorted(folder.glob("*.jsonl")) + sorted((folder / "sanma").glob("*.jsonl"))


def compare_shared_games(binary: Path, testdata: Path) -> Comparison | None:
    paths = shared_games(testdata)
    if not paths:
        return None
    result = Comparison()
    for path in paths:
        original = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        tenhou6 = write_log(original, "tenhou6", family_of("riichi"))
        ours = read_log(tenhou6, "tenhou6")
        if ours != original:
            raise SystemExit(f"{path.name}: tenpai's own round trip differs; fix that first")
        _compare_one(result, binary, path.name, tenhou6, ours)
    return result


def _compare_one(result: Comparison, binary: Path, name: str, tenhou6: str, ours: list[Event]) -> None:
    """convlog's events for ``tenhou6`` set against ``ours`` (a refusal recorded as one)."""
    theirs, error = run_convlog(binary, tenhou6)
    if theirs is None:
        result.refused.append((name, error))
    else:
        compare_events(result, name, ours, theirs)


def compare_convlog_tests(binary: Path, folder: Path) -> Comparison:
    result = Comparison()
    for path in sorted(folder.glob("*.json")):
        tenhou6 = path.read_text()
        ours = read_log(tenhou6, "tenhou6")
        _compare_one(result, binary, path.name, tenhou6, ours)
    return result


def report(title: str, result: Comparison) -> dict[str, Any]:
    differing = sum(result.kinds.values())
    print(f"== {title}")
    print(
        f"   logs compared: {result.logs} ({result.identical_logs} identical), "
        f"events: tenpai {result.events_ours}, convlog {result.events_convlog}; "
        f"differences: {differing} in {len(result.kinds)} kinds"
    )
    for name, error in result.refused:
        print(f"   convlog refused {name}: {error}")
    for kind, count in result.kinds.most_common():
        example = result.examples[kind]
        print(f"   {count} x {kind}")
        print(f"      e.g. {example['log']} event {example['event']}")
        print(f"        tenpai:  {json.dumps(example['ours'], ensure_ascii=False)}")
        print(f"        convlog: {json.dumps(example['convlog'], ensure_ascii=False)}")
        if count <= PLACES_LISTED:
            print(f"      at: {' '.join(result.places[kind])}")
    return {
        "logs": result.logs,
        "identical_logs": result.identical_logs,
        "events_tenpai": result.events_ours,
        "events_convlog": result.events_convlog,
        "refused": result.refused,
        "differences": {
            kind: {"count": n, "example": result.examples[kind], "at": result.places[kind]}
            for kind, n in result.kinds.items()
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--convlog", type=Path, default=Path(os.environ.get("TENPAI_CONVLOG", DEFAULT_CONVLOG)))
    parser.add_argument("--convlog-tests", type=Path, help="convlog's tests/testdata folder (tenhou.net/6 files)")
    parser.add_argument("--json", action="store_true", help="also print the whole result as one JSON object")
    args = parser.parse_args()

    if not args.convlog.is_file():
        print(f"skipped: no convlog binary at {args.convlog} (it is built outside the project; see docs/records.md)")
        return 0
    summary: dict[str, Any] = {}
    shared = compare_shared_games(args.convlog, shared_testdata_dir())
    if shared is None:
        print(f"skipped the shared games: none under {shared_testdata_dir() / 'tenhou-games'}")
    else:
        summary["shared_games"] = report("shared Tenhou games, written to tenhou.net/6 by tenpai", shared)
    if args.convlog_tests is not None:
        tests = compare_convlog_tests(args.convlog, args.convlog_tests)
        summary["convlog_tests"] = report(f"convlog's own tenhou.net/6 test files ({args.convlog_tests})", tests)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())

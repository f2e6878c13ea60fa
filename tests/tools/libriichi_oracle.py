"""libriichi's legal actions at every decision point of a four-player mjai game.

A test tool, run by the Python of the mjai virtual environment (``scripts/mjai_venv.sh``),
never imported by the service or by the main test process: the PyPI package ``mjai`` 0.2.1
(AGPL) carries Mortal's libriichi, the referee of mjai.app, and this script asks it.

The method is the one ``../shared/testdata/tenhou-games/legal-actions.jsonl.gz`` was made
with: one ``PlayerState`` per seat, fed the events as that seat sees them (the other seats'
``tehais`` and ``tsumo`` as ``?``).  Wherever the state says the seat can act (after its
draw, after its own chi or pon, after another seat's discard or added kan it may claim,
after its own riichi declaration), the seat's legal actions are spelled in mjai form from
libriichi's ``last_cans``, ``forbidden_tiles`` (kuikae), ``ankan_candidates`` and
``kakan_candidates``, with every ``consumed`` choice of a chi, pon or kan (a red five is a
choice of its own), every discard with its ``tsumogiri`` flag, and, after a riichi
declaration, the discards that keep the hand ready (libriichi's own shanten, on a replay).

Every action produced is also put to ``PlayerState.validate_reaction``: an action libriichi
itself refuses stops the run, so a slip here cannot pass for a verdict of libriichi's.

Input on stdin: one game as a JSON array of events, or JSON lines of events.  Output on
stdout: one JSON object per decision point, the fields of ``legal-actions.jsonl.gz``
(``index`` in the event list, ``seat``, ``after``: the type of the event there, ``legal``,
``taken``: the action the log shows, ``null`` where a claim of higher priority took the
tile first).  ``--games FILE...`` reads game files instead (each point also gets ``game``,
the file's stem), and ``--compare FILE`` checks them against a ``legal-actions`` file.

    .venv-mjai/bin/python tests/tools/libriichi_oracle.py < game.jsonl > points.jsonl
    .venv-mjai/bin/python tests/tools/libriichi_oracle.py \
        --games ../shared/testdata/tenhou-games/*.jsonl \
        --compare ../shared/testdata/tenhou-games/legal-actions.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from mjai.mlibriichi.state import PlayerState

Event = dict[str, Any]
Action = dict[str, Any]

SEATS = 4

#: libriichi's 34 tile kinds, in its order (1m..9m, 1p..9p, 1s..9s, E S W N P F C).
KINDS = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNPFC")
KIND_INDEX = {name: i for i, name in enumerate(KINDS)}
#: ``akas_in_hand`` is indexed by suit: the red five of m, p, s.
RED_FIVES = {"5mr": 0, "5pr": 1, "5sr": 2}

#: Claim priority on one discard: a win outranks pon and kan, which outrank chi.
CLAIM_PRIORITY = {"hora": 3, "pon": 2, "daiminkan": 2, "chi": 1}
CLAIMS = frozenset(CLAIM_PRIORITY)
#: The events after which a seat other than the actor may claim (a discard, an added kan).
CLAIMABLE = frozenset({"dahai", "kakan"})


def plain(tile: str) -> str:
    """The kind of a tile: ``5mr`` -> ``5m``."""
    return tile[:2] if tile in RED_FIVES else tile


def tile_key(tile: str) -> tuple[int, int]:
    """Sort key of ``consumed`` lists: by kind, a red five before the plain ones (Tenhou's id order)."""
    return (KIND_INDEX[plain(tile)], 0 if tile in RED_FIVES else 1)


def sorted_tiles(tiles: Iterable[str]) -> list[str]:
    return sorted(tiles, key=tile_key)


def canonical(action: Action) -> str:
    """One string per action, so that legal sets compare as sets (``consumed`` in id order)."""
    fields = dict(action)
    if "consumed" in fields:
        fields["consumed"] = sorted_tiles(fields["consumed"])
    return json.dumps(fields, sort_keys=True, separators=(",", ":"))


def seat_view(event: Event, seat: int) -> Event:
    """The event as ``seat`` sees it: the other hands and the other seats' draws hidden."""
    if event["type"] == "start_kyoku":
        tehais = [hand if i == seat else ["?"] * len(hand) for i, hand in enumerate(event["tehais"])]
        return {**event, "tehais": tehais}
    if event["type"] == "tsumo" and event["actor"] != seat:
        return {**event, "pai": "?"}
    return event


class Hand:
    """The tiles a seat holds, read from its libriichi state: how many of each exact tile."""

    def __init__(self, state: PlayerState) -> None:
        self.counts: dict[str, int] = {}
        akas = state.akas_in_hand
        for kind_index, count in enumerate(state.tehai):
            if not count:
                continue
            kind = KINDS[kind_index]
            red = f"{kind}r"
            if red in RED_FIVES and akas[RED_FIVES[red]]:
                self.counts[red] = 1
                count -= 1
            if count:
                self.counts[kind] = count

    def variants(self, kind: str, need: int = 1) -> list[list[str]]:
        """The distinct ways to take ``need`` tiles of ``kind`` from the hand (red or plain)."""
        red, plain_count = f"{kind}r", self.counts.get(kind, 0)
        ways = []
        if plain_count >= need:
            ways.append([kind] * need)
        if self.counts.get(red) and plain_count >= need - 1:
            ways.append([red] + [kind] * (need - 1))
        return ways

    def all_of(self, kind: str) -> list[str]:
        """Every held tile of ``kind``, the red five included."""
        red = f"{kind}r"
        return [red] * self.counts.get(red, 0) + [kind] * self.counts.get(kind, 0)


class SeatTracker:
    """One seat of one game: its libriichi state, its pons, and the kyoku's events it has seen."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.state = PlayerState(seat)
        self.cans: Any = None
        #: Each of the seat's pons by kind: its three tiles, for a kakan's ``consumed``.
        self.pons: dict[str, list[str]] = {}
        #: This kyoku's events as the seat saw them (JSON), to replay a riichi declaration.
        self.kyoku_log: list[str] = []

    def update(self, event: Event) -> None:
        if event["type"] == "start_kyoku":
            self.pons = {}
            self.kyoku_log = []
        view = json.dumps(seat_view(event, self.seat), separators=(",", ":"))
        self.kyoku_log.append(view)
        self.cans = self.state.update(view)
        if event["type"] == "pon" and event["actor"] == self.seat:
            self.pons[plain(event["pai"])] = sorted_tiles([event["pai"], *event["consumed"]])

    def can_act(self) -> bool:
        return bool(self.cans is not None and self.cans.can_act)

    def legal(self, event: Event) -> list[Action]:
        """The seat's legal actions now, ``event`` being the last one it was fed."""
        seat, state, cans = self.seat, self.state, self.cans
        hand = Hand(state)
        actions: list[Action] = []
        if cans.can_discard:
            actions += self._discards(hand)
        if cans.can_riichi:
            actions.append({"type": "reach", "actor": seat})
        if cans.can_ankan:
            for kind in state.ankan_candidates():
                actions.append({"type": "ankan", "actor": seat, "consumed": sorted_tiles(hand.all_of(kind))})
        if cans.can_kakan:
            for kind in state.kakan_candidates():
                for (tile,) in hand.variants(kind):
                    actions.append({"type": "kakan", "actor": seat, "pai": tile, "consumed": self.pons[kind]})
        if cans.can_tsumo_agari:
            actions.append({"type": "hora", "actor": seat, "target": seat, "pai": state.last_self_tsumo()})
        if cans.can_ryukyoku:
            actions.append({"type": "ryukyoku"})
        if event["type"] in CLAIMABLE and event["actor"] != seat:
            actions += self._claims(hand, event)
        if cans.can_pass:
            actions.append({"type": "none"})
        for action in actions:
            # libriichi must accept each one: a slip in the spelling above stops the run here.
            state.validate_reaction(json.dumps(action))
        return actions

    def _discards(self, hand: Hand) -> list[Action]:
        state = self.state
        drawn = state.last_self_tsumo()
        if state.self_riichi_accepted:
            # The hand is frozen: only the drawn tile goes.
            return [{"type": "dahai", "actor": self.seat, "pai": drawn, "tsumogiri": True}]
        forbidden = state.forbidden_tiles
        kinds = {plain(tile) for tile in hand.counts if not forbidden[KIND_INDEX[plain(tile)]]}
        if state.self_riichi_declared:
            kinds = {kind for kind in kinds if self._stays_ready(hand, kind)}
        actions = []
        for tile in sorted(hand.counts, key=tile_key):
            if plain(tile) not in kinds:
                continue
            if tile == drawn:
                actions.append({"type": "dahai", "actor": self.seat, "pai": tile, "tsumogiri": True})
                if hand.counts[tile] == 1:
                    continue
            actions.append({"type": "dahai", "actor": self.seat, "pai": tile, "tsumogiri": False})
        return actions

    def _stays_ready(self, hand: Hand, kind: str) -> bool:
        """Whether discarding ``kind`` after the riichi declaration leaves the hand ready.

        Asked of libriichi itself: a fresh state replays the kyoku as this seat saw it, takes
        the discard, and reports its shanten (0: ready).
        """
        tile = next(t for t in hand.counts if plain(t) == kind)
        probe = PlayerState(self.seat)
        for line in self.kyoku_log:
            probe.update(line)
        drawn = self.state.last_self_tsumo()
        probe.update(json.dumps({"type": "dahai", "actor": self.seat, "pai": tile, "tsumogiri": tile == drawn}))
        return bool(probe.shanten == 0)

    def _claims(self, hand: Hand, event: Event) -> list[Action]:
        seat, cans = self.seat, self.cans
        pai, target = event["pai"], event["actor"]
        kind = plain(pai)
        actions: list[Action] = []
        if cans.can_ron_agari:
            actions.append({"type": "hora", "actor": seat, "target": target, "pai": pai})
        if cans.can_pon:
            for consumed in hand.variants(kind, 2):
                actions.append({"type": "pon", "actor": seat, "target": target, "pai": pai, "consumed": consumed})
        if cans.can_daiminkan:
            consumed = sorted_tiles(hand.all_of(kind))
            actions.append({"type": "daiminkan", "actor": seat, "target": target, "pai": pai, "consumed": consumed})
        if not cans.can_chi:
            return actions
        number, suit = int(kind[0]), kind[1]  # only a suited tile can be chied
        shapes = (
            (cans.can_chi_low, (number + 1, number + 2)),
            (cans.can_chi_mid, (number - 1, number + 1)),
            (cans.can_chi_high, (number - 2, number - 1)),
        )
        for allowed, (first, second) in shapes:
            if not allowed:
                continue
            for a in hand.variants(f"{first}{suit}"):
                for b in hand.variants(f"{second}{suit}"):
                    consumed = sorted_tiles(a + b)
                    actions.append({"type": "chi", "actor": seat, "target": target, "pai": pai, "consumed": consumed})
        return actions


def as_action(event: Event, point_event: Event) -> Action:
    """A logged event in the form of a legal action (a win names its tile)."""
    if event["type"] == "hora":
        # The point's event holds the winning tile: the winner's own draw, or the discard or
        # added kan it robbed (``hora`` in a log may not name it).
        return {"type": "hora", "actor": event["actor"], "target": event["target"], "pai": point_event["pai"]}
    if event["type"] == "ryukyoku":
        return {"type": "ryukyoku"}
    keep = ("type", "actor", "target", "pai", "consumed", "tsumogiri")
    return {key: event[key] for key in keep if key in event}


def taken(events: list[Event], index: int, seat: int, legal: list[Action]) -> Action | None:
    """What the log shows ``seat`` did at the point after ``events[index]``.

    ``None`` where the seat's choice cannot be seen: another seat's claim of higher priority
    than one of the seat's own options took the tile (the seat might have chosen that option).
    """
    point = events[index]
    # ``reach_accepted`` and a kan's ``dora`` are the table's, not a seat's choice.
    later = [e for e in events[index + 1 :] if e["type"] not in ("reach_accepted", "dora")]
    if point["type"] not in CLAIMABLE or point["actor"] == seat:
        # The seat's own turn: its next event is its choice.
        return as_action(later[0], point) if later else None
    claims = []
    for event in later:
        if event["type"] not in CLAIMS:
            break
        claims.append(event)
        if event["type"] != "hora":
            break  # one call at most; only wins come several on one tile
    mine = [e for e in claims if e.get("actor") == seat]
    if mine:
        return as_action(mine[0], point)
    if claims:
        top = max(CLAIM_PRIORITY[e["type"]] for e in claims)
        options = {a["type"] for a in legal} - {"none", "hora"}
        if any(CLAIM_PRIORITY[o] < top for o in options):
            return None
    return {"type": "none"}


def decision_points(events: list[Event]) -> Iterator[dict[str, Any]]:
    """Every point of a four-player game where a seat may act, with its legal actions."""
    seats = [SeatTracker(seat) for seat in range(SEATS)]
    for index, event in enumerate(events):
        for tracker in seats:
            tracker.update(event)
        for tracker in seats:
            if not tracker.can_act():
                continue
            legal = tracker.legal(event)
            yield {
                "index": index,
                "seat": tracker.seat,
                "after": event["type"],
                "legal": legal,
                "taken": taken(events, index, tracker.seat, legal),
            }


def read_events(text: str) -> list[Event]:
    """A game given as a JSON array of events or as JSON lines."""
    text = text.strip()
    if text.startswith("["):
        events: list[Event] = json.loads(text)
        return events
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def compare(points: Iterable[dict[str, Any]], reference: Path, games: set[str]) -> dict[str, Any]:
    """How many of the reference's points of ``games`` the computed ``points`` reproduce (legal sets; taken)."""
    opener = gzip.open if reference.suffix == ".gz" else open
    with opener(reference, "rt") as f:
        want = {(r["game"], r["index"], r["seat"]): r for r in map(json.loads, f) if r["game"] in games}
    got = {(p["game"], p["index"], p["seat"]): p for p in points}
    legal_agree = taken_agree = 0
    differences = []
    for key, row in want.items():
        mine = got.get(key)
        if mine is None:
            differences.append({"point": key, "missing": True})
            continue
        same = {canonical(a) for a in row["legal"]} == {canonical(a) for a in mine["legal"]}
        legal_agree += same
        same_taken = (row["taken"] is None and mine["taken"] is None) or (
            row["taken"] is not None
            and mine["taken"] is not None
            and canonical(row["taken"]) == canonical(mine["taken"])
        )
        taken_agree += same_taken
        if not same or not same_taken:
            differences.append({"point": key, "want": row, "got": mine})
    extra = sorted(set(got) - set(want))
    return {
        "games": len(games),
        "points": len(want),
        "legal_agree": legal_agree,
        "taken_agree": taken_agree,
        "extra_points": len(extra),
        "differences": differences[:20] + [{"point": key, "extra": True} for key in extra[:20]],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", type=Path, help="game files (JSON lines); default: one game on stdin")
    parser.add_argument("--compare", type=Path, help="a legal-actions file to check the points against")
    args = parser.parse_args(argv)
    names = {path: path.name.removesuffix(".jsonl") for path in args.games or []}
    if args.games:
        points = [
            {"game": names[path], **point}
            for path in args.games
            for point in decision_points(read_events(path.read_text()))
        ]
    else:
        points = list(decision_points(read_events(sys.stdin.read())))
    if args.compare:
        if not args.games:
            parser.error("--compare needs --games (the reference names its points by game file)")
        summary = compare(points, args.compare, set(names.values()))
        print(json.dumps(summary))
        return 0 if summary["legal_agree"] == summary["points"] and not summary["extra_points"] else 1
    for point in points:
        sys.stdout.write(json.dumps(point, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

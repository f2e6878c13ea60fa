"""Reading Tenhou's games as mjai logs (``../shared/testdata/tenhou-games``): each hand, how it ended, the tiles held.

The games stay in the shared folder (third-party data, never copied here).  This module replays
each hand's tiles only as far as the table tests need: every seat's concealed tiles and melds when
the hand ends, its discards (for nagashi mangan), the accepted riichi sticks, and the seat liable
for a daisangen or daisuushii (the one whose discard completed the third dragon or fourth wind set).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from shared_data import shared_testdata_dir

from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import EAST, NORTH, ORPHANS, WHITE, Tile, parse_tile
from app.core.table.flow import GameLength, TableRules, tenhou_rules

GAMES_DIR: Final = shared_testdata_dir() / "tenhou-games"
_HONOR_LETTERS: Final = "ESWNPFC"  # mjai's honours, in tile order from East (27) to the red dragon (33)
_ORPHAN_SET: Final = frozenset(ORPHANS)
_CALL_KINDS: Final = {"chi": MeldKind.CHI, "pon": MeldKind.PON, "daiminkan": MeldKind.OPEN_KAN}
# Tenhou's lobby bits (index.json's go_type): three players, and the South round scheduled.
_SANMA_BIT: Final = 0x10
_HANCHAN_BIT: Final = 0x08
#: Tenhou stops the game for a first-placed dealer tenpai at all-last from June 2010 (its blog,
#: 2010-05-18, "ラス親トップの自動聴牌止め導入"); a log id starts with its hour, YYYYMMDDHH.
TENPAI_YAME_SINCE: Final = "2010060100"


def mjai_tile(name: str) -> Tile:
    """An mjai tile name as a tile: ``5mr`` is a red five, read as 5m; ``E``..``C`` are the honours."""
    if name in _HONOR_LETTERS:
        return EAST + _HONOR_LETTERS.index(name)
    return parse_tile(name.removesuffix("r"))


def load_games() -> list[dict[str, Any]]:
    """index.json's games, four-player and sanma (empty where the folder is absent)."""
    index = GAMES_DIR / "index.json"
    if not index.exists():
        return []
    games: list[dict[str, Any]] = json.loads(index.read_text(encoding="utf-8"))["games"]
    return games


def game_rules(game: dict[str, Any]) -> TableRules:
    """Tenhou's table for a game's lobby and date: sanma or not, East only or East and South, and
    before June 2010 no automatic stop for a first-placed dealer tenpai at all-last."""
    go_type = game["go_type"]
    length = GameLength.HANCHAN if go_type & _HANCHAN_BIT else GameLength.TONPUU
    rules = tenhou_rules(seats=3 if go_type & _SANMA_BIT else 4, length=length)
    played = game["id"][:10]
    if played.isdigit() and played < TENPAI_YAME_SINCE:
        return replace(rules, dealer_stops_on_tenpai=False)
    return rules


@dataclass
class RecordedHand:
    """One hand of a game as the log tells it, replayed tile by tile."""

    start: dict[str, Any]
    #: The ``hora`` and ``ryukyoku`` events that ended it, in the log's order.
    ends: list[dict[str, Any]] = field(default_factory=list)
    #: Riichi sticks put down by each seat in this hand.
    riichi: list[int] = field(default_factory=list)
    concealed: list[list[Tile]] = field(default_factory=list)
    melds: list[list[Meld]] = field(default_factory=list)
    discards: list[list[Tile]] = field(default_factory=list)
    #: Seats whose discard another seat called.
    called_from: set[int] = field(default_factory=set)
    #: Each seat's last drawn tile (a self-draw win's tile).
    last_draw: dict[int, Tile] = field(default_factory=dict)
    #: Winner -> the seat liable for its daisangen or daisuushii.
    liable: dict[int, int] = field(default_factory=dict)
    #: The last discarded or added tile (a win on a discard or a robbed kong takes it).
    last_offered: Tile | None = None

    @property
    def seats(self) -> int:
        return len(self.start["scores"])

    def hand_of(self, seat: int) -> Hand:
        return Hand.from_tiles(self.concealed[seat], self.melds[seat])

    def is_tenpai(self, seat: int) -> bool:
        """Tenhou's tenpai: a ready shape with a wait not all held by the seat itself."""
        checker = Checker(rule_profile("sanma" if self.seats == 3 else "riichi"))
        waits = checker.waits(self.hand_of(seat))
        return waits.tenpai and not waits.karaten

    def has_nagashi(self, seat: int) -> bool:
        """Every discard a terminal or honour, none of them called."""
        return seat not in self.called_from and all(tile in _ORPHAN_SET for tile in self.discards[seat])

    def scores_after(self) -> list[int]:
        """The seats' points after the hand: its start, less the sticks put down, plus every end's deltas."""
        scores = [start - 1000 * sticks for start, sticks in zip(self.start["scores"], self.riichi, strict=True)]
        for end in self.ends:
            scores = [score + delta for score, delta in zip(scores, end["deltas"], strict=True)]
        return scores


def read_hands(game: dict[str, Any]) -> list[RecordedHand]:
    """Every hand of ``game``, replayed."""
    events = [json.loads(line) for line in Path(GAMES_DIR / game["file"]).read_text(encoding="utf-8").splitlines()]
    hands: list[RecordedHand] = []
    for event in events:
        kind = event["type"]
        if kind == "start_kyoku":
            seats = len(event["scores"])
            hands.append(
                RecordedHand(
                    event,
                    riichi=[0] * seats,
                    concealed=[[mjai_tile(name) for name in tiles] for tiles in event["tehais"]],
                    melds=[[] for _ in range(seats)],
                    discards=[[] for _ in range(seats)],
                )
            )
        elif hands:
            _apply(hands[-1], event)
    return hands


def _apply(hand: RecordedHand, event: dict[str, Any]) -> None:
    kind = event["type"]
    actor = event.get("actor")
    if kind == "tsumo":
        tile = mjai_tile(event["pai"])
        hand.concealed[actor].append(tile)
        hand.last_draw[actor] = tile
    elif kind == "dahai":
        tile = mjai_tile(event["pai"])
        hand.concealed[actor].remove(tile)
        hand.discards[actor].append(tile)
        hand.last_offered = tile
    elif kind in _CALL_KINDS:
        consumed = [mjai_tile(name) for name in event["consumed"]]
        for tile in consumed:
            hand.concealed[actor].remove(tile)
        called = mjai_tile(event["pai"])
        hand.melds[actor].append(Meld.of(_CALL_KINDS[kind], [*consumed, called]))
        hand.called_from.add(event["target"])
        if kind != "chi":
            _note_liability(hand, actor, event["target"], called)
    elif kind == "kakan":
        tile = mjai_tile(event["pai"])
        hand.concealed[actor].remove(tile)
        melds = hand.melds[actor]
        index = next(i for i, meld in enumerate(melds) if meld.kind is MeldKind.PON and meld.tiles[0] == tile)
        melds[index] = Meld.of(MeldKind.ADDED_KAN, [tile] * 4)
        hand.last_offered = tile
    elif kind == "ankan":
        consumed = [mjai_tile(name) for name in event["consumed"]]
        for tile in consumed:
            hand.concealed[actor].remove(tile)
        hand.melds[actor].append(Meld.of(MeldKind.CLOSED_KAN, consumed))
    elif kind == "kita":
        hand.concealed[actor].remove(NORTH)
    elif kind == "reach_accepted":
        hand.riichi[actor] += 1
    elif kind in ("hora", "ryukyoku"):
        hand.ends.append(event)


def _note_liability(hand: RecordedHand, actor: int, target: int, called: Tile) -> None:
    """The discarder of the third dragon set or fourth wind set called becomes liable."""
    sets = [meld.tiles[0] for meld in hand.melds[actor] if meld.kind is not MeldKind.CHI]
    dragons = sum(1 for tile in sets if tile >= WHITE)
    winds = sum(1 for tile in sets if EAST <= tile <= NORTH)
    if (called >= WHITE and dragons == 3) or (EAST <= called <= NORTH and winds == 4):
        hand.liable[actor] = target

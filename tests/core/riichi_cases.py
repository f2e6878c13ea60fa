"""Reading RiichiEnv's scored wins (``../shared/testdata/riichienv-agari``) as our inputs.

The data stay in the shared folder (third-party, Apache-2.0); this module only
turns a case into a :class:`Hand`, a winning tile and a :class:`WinContext`.
"""

from __future__ import annotations

import json
from typing import Any, Final

from shared_data import shared_testdata_dir

from app.core.shape.hand import Hand, Meld
from app.core.shape.tiles import EAST, Tile, parse_ids136
from app.core.value.scoring_context import WinContext

DATA_DIR: Final = shared_testdata_dir() / "riichienv-agari"
RED_IDS: Final = frozenset((16, 52, 88))
MELD_KINDS: Final = {"chi": "chi", "pon": "pon", "daiminkan": "open_kan", "ankan": "closed_kan", "kakan": "added_kan"}

#: RiichiEnv's yaku ids (its README) as our yaku names.
YAKU_NAMES: Final = {
    1: "menzen_tsumo",
    2: "riichi",
    3: "chankan",
    4: "rinshan",
    5: "haitei",
    6: "houtei",
    7: "haku",
    8: "hatsu",
    9: "chun",
    10: "seat_wind",
    11: "round_wind",
    12: "tanyao",
    13: "iipeikou",
    14: "pinfu",
    15: "chanta",
    16: "ittsu",
    17: "sanshoku",
    18: "double_riichi",
    19: "sanshoku_doukou",
    20: "sankantsu",
    21: "toitoi",
    22: "sanankou",
    23: "shousangen",
    24: "honroutou",
    25: "chiitoitsu",
    26: "junchan",
    27: "honitsu",
    28: "ryanpeikou",
    29: "chinitsu",
    30: "ippatsu",
    31: "dora",
    32: "aka_dora",
    33: "ura_dora",
    34: "nuki_dora",
    35: "tenhou",
    36: "chiihou",
    37: "daisangen",
    38: "suuankou",
    39: "tsuuiisou",
    40: "ryuuiisou",
    41: "chinroutou",
    42: "kokushi",
    43: "shousuushii",
    44: "suukantsu",
    45: "chuuren",
    47: "junsei_chuuren",
    48: "suuankou_tanki",
    49: "kokushi_13",
    50: "daisuushii",
}


def load_cases(name: str) -> list[dict[str, Any]]:
    """The cases of ``agari_4p.json`` or ``agari_3p.json``."""
    with (DATA_DIR / name).open(encoding="utf-8") as handle:
        cases: list[dict[str, Any]] = json.load(handle)["cases"]
    return cases


def case_inputs(case: dict[str, Any]) -> tuple[Hand, Tile, WinContext]:
    """The hand (concealed tiles with the winning one), winning tile and situation of a case."""
    conditions = case["conditions"]
    ids = list(case["tiles_136"])
    if len(ids) + 3 * len(case["melds"]) == 13:
        # Usually the winning tile comes apart; one hand-made case lists it among the tiles.
        ids.append(case["win_tile_136"])
    melds = [Meld.of(MELD_KINDS[m["meld_type"]], parse_ids136(m["tiles"])) for m in case["melds"]]
    meld_ids = [t for m in case["melds"] for t in m["tiles"]]
    red = tuple(sorted(t // 4 for t in ids + meld_ids if t in RED_IDS))
    # The dealer sits at seat 0, so the winner's seat is its wind's offset from East.
    winner = conditions["player_wind"]
    tsumo = conditions["tsumo"]
    context = WinContext(
        winner=winner,
        dealer=0,
        discarder=None if tsumo else (winner + 1) % conditions["num_players"],
        kong_replacement=conditions["rinshan"],
        robbed_kong=conditions["chankan"],
        round_wind=EAST + conditions["round_wind"],
        dora_indicators=tuple(parse_ids136(case["dora_indicators"])),
        ura_indicators=tuple(parse_ids136(case["ura_indicators"])),
        red_fives=red,
        riichi=conditions["riichi"],
        double_riichi=conditions["double_riichi"],
        ippatsu=conditions["ippatsu"],
        last_tile=conditions["haitei"] or conditions["houtei"],
        first_turn=conditions["tsumo_first_turn"],
        honba=conditions["honba"],
        nuki=conditions["kita_count"],
    )
    # Not parse_ids136 for the hand: the hand-made yakuman cases list the winning tile's id twice.
    return Hand.from_tiles([tile_id // 4 for tile_id in ids], melds), case["win_tile_136"] // 4, context

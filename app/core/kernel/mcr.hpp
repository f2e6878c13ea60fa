// Chinese Official (MCR) fan counting in C++: the 81 fans, their exclusions, every reading of
// a win (regular, seven pairs, thirteen orphans, knitted straight, honours and knitted tiles,
// nine gates) and the choice of the best one.  app/core/value/mcr_scoring.py validates the
// win and builds its answer from what this counts; tests/core/mcr_reference.py is the plain
// Python it was ported from, and the tests hold the two to the same answers.
#pragma once

#include <array>
#include <cstdint>

namespace tenpai::mcr {

constexpr int kKinds = 34;

// The fans in the order of mcr_scoring.FAN_TABLE (the rule book's order; 花牌 is the 81st,
// then 明暗杠).  The values below must match that table: a test compares them.
enum FanIndex : int {
    BIG_FOUR_WINDS, BIG_THREE_DRAGONS, ALL_GREEN, NINE_GATES, FOUR_KONGS, SEVEN_SHIFTED_PAIRS,
    THIRTEEN_ORPHANS, ALL_TERMINALS, LITTLE_FOUR_WINDS, LITTLE_THREE_DRAGONS, ALL_HONORS,
    FOUR_CONCEALED_PUNGS, PURE_TERMINAL_CHOWS, QUADRUPLE_CHOW, FOUR_PURE_SHIFTED_PUNGS,
    FOUR_PURE_SHIFTED_CHOWS, THREE_KONGS, ALL_TERMINALS_AND_HONORS, SEVEN_PAIRS,
    GREATER_HONORS_AND_KNITTED, ALL_EVEN_PUNGS, FULL_FLUSH, PURE_TRIPLE_CHOW, PURE_SHIFTED_PUNGS,
    UPPER_TILES, MIDDLE_TILES, LOWER_TILES, PURE_STRAIGHT, THREE_SUITED_TERMINAL_CHOWS,
    PURE_SHIFTED_CHOWS, ALL_FIVE, TRIPLE_PUNG, THREE_CONCEALED_PUNGS, LESSER_HONORS_AND_KNITTED,
    KNITTED_STRAIGHT, UPPER_FOUR, LOWER_FOUR, BIG_THREE_WINDS, MIXED_STRAIGHT, REVERSIBLE_TILES,
    MIXED_TRIPLE_CHOW, MIXED_SHIFTED_PUNGS, CHICKEN_HAND, LAST_TILE_DRAW, LAST_TILE_CLAIM,
    OUT_WITH_REPLACEMENT_TILE, ROBBING_THE_KONG, ALL_PUNGS, HALF_FLUSH, MIXED_SHIFTED_CHOWS,
    ALL_TYPES, MELDED_HAND, TWO_CONCEALED_KONGS, TWO_DRAGONS_PUNGS, OUTSIDE_HAND,
    FULLY_CONCEALED_HAND, TWO_MELDED_KONGS, LAST_TILE, DRAGON_PUNG, PREVALENT_WIND, SEAT_WIND,
    CONCEALED_HAND, ALL_CHOWS, TILE_HOG, DOUBLE_PUNG, TWO_CONCEALED_PUNGS, CONCEALED_KONG,
    ALL_SIMPLES, PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS,
    PUNG_OF_TERMINALS_OR_HONORS, MELDED_KONG, ONE_VOIDED_SUIT, NO_HONORS, EDGE_WAIT, CLOSED_WAIT,
    SINGLE_WAIT, SELF_DRAWN, FLOWER_TILES, CONCEALED_KONG_AND_MELDED_KONG,
    FAN_COUNT
};

extern const std::array<int, FAN_COUNT> kFanValue;

// Declared meld kinds, as the Python wrapper codes them.
enum MeldCode : int { CHI = 0, PON = 1, OPEN_KAN = 2, CLOSED_KAN = 3, ADDED_KAN = 4 };

struct Meld {
    int kind;        // a MeldCode
    int first_tile;  // the chow's lowest tile, or the pung's / kong's tile
};

struct Situation {
    bool discard = false;  // won on another player's discard (else self-drawn)
    int seat_wind = 27;
    int round_wind = 27;
    bool kong_replacement = false;
    bool robbed_kong = false;
    bool last_tile = false;
    bool last_copy = false;
};

// One reading's fans: instances per fan index, 0 where the fan is not counted.
using FanCounts = std::array<std::uint8_t, FAN_COUNT>;

struct Counted {
    bool wins = false;  // false: no MCR form completes (the counts are then empty)
    int total = 0;      // fans of the best reading, flowers aside (无番和 makes it 8 at least)
    FanCounts fans{};
};

// The best reading of a win: ``concealed`` holds the concealed counts including ``win_tile``,
// ``melds`` the declared melds (at most 4).  The caller has checked that the tiles add up to
// 14 with each meld counted as 3 and that ``win_tile`` is held; nothing here reads outside
// its arrays whatever the input, and nothing is shared between calls (thread-safe).
Counted count_fans(const std::uint8_t* concealed, const Meld* melds, int meld_count, int win_tile,
                   const Situation& situation);

}  // namespace tenpai::mcr

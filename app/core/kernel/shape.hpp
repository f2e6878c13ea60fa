// Shape look-ups in C++: the distance to a regular hand, seven pairs and thirteen orphans,
// and the draws that lower each.  The tables are app/core/shape/tables.py's, built once in
// Python and installed here (install_tables), so one build defines what a distance is.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace tenpai::shape {

constexpr int kKinds = 34;
using Counts = std::array<std::uint8_t, kKinds>;
using Flags = std::array<std::uint8_t, kKinds>;

constexpr bool is_orphan(int tile) {
    return tile >= 27 || tile % 9 == 0 || tile % 9 == 8;
}

struct Tables {
    std::vector<std::uint8_t> number_class;  // [5**9]: class of a number suit's base-5 key (255: unreachable)
    std::vector<std::uint8_t> number_next;   // [5**9 * 9]: class after drawing tile i of the suit
    std::vector<std::uint8_t> honor_class;   // [5**7]
    std::vector<std::uint8_t> honor_next;    // [5**7 * 7]
    std::vector<std::uint8_t> man_pin;       // [number_classes * number_classes]
    std::vector<std::uint8_t> sou_honors;    // [number_classes * honor_classes]
    std::vector<std::uint8_t> final_;        // [(man_pin class * sou_honors classes + sou_honors class) * 5 + melds]
    int number_classes = 0;
    int honor_classes = 0;
    int final_stride = 0;  // sou_honors classes * 5
};

// The installed tables; throws std::logic_error before install_tables.
const Tables& tables();
bool tables_installed();

struct SuitKeys {
    std::uint32_t m, p, s, h;
};

SuitKeys suit_keys(const std::uint8_t* counts);

// The distance of a suit too large for the tables (more than 14 tiles): callers validate
// hands first, so this only keeps a bad call from reading outside a table.
constexpr int kUnreachable = 255;

// Tiles to draw to reach melds_wanted melds and a pair (the 4-copy exact distance).
int regular_distance(const std::uint8_t* counts, int melds_wanted);
// The regular distance; flags[tile] = 1 where drawing the tile lowers it (a 3n+1 hand).
int regular_draws(const std::uint8_t* counts, int melds_wanted, std::uint8_t* flags);
int seven_pairs_distance(const std::uint8_t* counts, bool quad_as_two);
void seven_pairs_draws(const std::uint8_t* counts, bool quad_as_two, std::uint8_t* flags);
int orphans_distance(const std::uint8_t* counts);
void orphans_draws(const std::uint8_t* counts, std::uint8_t* flags);

}  // namespace tenpai::shape

// MCR fan counting (see mcr.hpp).  A line-by-line port of the counting that
// tests/core/mcr_reference.py keeps in Python: the same readings in the same order, the same
// combination rules and the same tie-breaks, so the fans listed agree and not only the total.
// The rule text each step follows is in app/core/value/mcr_scoring.py's module docstring.
#include "mcr.hpp"

#include <pybind11/pybind11.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "registry.hpp"

namespace py = pybind11;

namespace tenpai::mcr {

const std::array<int, FAN_COUNT> kFanValue = {
    88, 88, 88, 88, 88, 88, 88,                          // 大四喜 .. 十三幺
    64, 64, 64, 64, 64, 64,                              // 清幺九 .. 一色双龙会
    48, 48,                                              // 一色四同顺, 一色四节高
    32, 32, 32,                                          // 一色四步高, 三杠, 混幺九
    24, 24, 24, 24, 24, 24, 24, 24, 24,                  // 七对 .. 全小
    16, 16, 16, 16, 16, 16,                              // 清龙 .. 三暗刻
    12, 12, 12, 12, 12,                                  // 全不靠 .. 三风刻
    8, 8, 8, 8, 8, 8, 8, 8, 8,                           // 花龙 .. 抢杠和
    6, 6, 6, 6, 6, 6, 6,                                 // 碰碰和 .. 双箭刻
    4, 4, 4, 4,                                          // 全带幺 .. 和绝张
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2,                        // 箭刻 .. 断幺
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,               // 一般高 .. 花牌
    5,                                                   // 明暗杠
};

namespace {

// ----------------------------------------------------------------------------- tiles

constexpr int kHonorStart = 27;
constexpr int EAST = 27, NORTH = 30, WHITE = 31, GREEN = 32, RED = 33;
// Sets are ints: a chow is its lowest tile (0..26), a pung or kong is kPung + its tile.
constexpr int kPung = kKinds;

constexpr int suit_of(int t) { return t < kHonorStart ? t / 9 : 3; }
constexpr int rank_of(int t) { return t < kHonorStart ? t % 9 + 1 : 0; }
constexpr bool is_wind(int t) { return t >= EAST && t <= NORTH; }
constexpr bool is_dragon(int t) { return t >= WHITE && t <= RED; }
constexpr bool is_terminal(int t) { return rank_of(t) == 1 || rank_of(t) == 9; }
constexpr bool is_orphan(int t) { return is_terminal(t) || t >= kHonorStart; }

using Mask = std::uint64_t;  // one bit per tile
constexpr Mask bit(int t) { return Mask{1} << t; }

template <typename Predicate>
constexpr Mask mask_where(Predicate keep) {
    Mask m = 0;
    for (int t = 0; t < kKinds; ++t)
        if (keep(t)) m |= bit(t);
    return m;
}

constexpr Mask kManMask = mask_where([](int t) { return suit_of(t) == 0; });
constexpr Mask kPinMask = mask_where([](int t) { return suit_of(t) == 1; });
constexpr Mask kSouMask = mask_where([](int t) { return suit_of(t) == 2; });
constexpr Mask kHonorMask = mask_where([](int t) { return t >= kHonorStart; });
constexpr Mask kWindMask = mask_where([](int t) { return is_wind(t); });
constexpr Mask kDragonMask = mask_where([](int t) { return is_dragon(t); });
constexpr Mask kTerminalMask = mask_where([](int t) { return is_terminal(t); });
constexpr Mask kOrphanMask = mask_where([](int t) { return is_orphan(t); });
constexpr Mask kSuitMasks[4] = {kManMask, kPinMask, kSouMask, kHonorMask};
// 1234589p 245689s 白, and 23468s 发.
constexpr Mask kReversibleMask = bit(9) | bit(10) | bit(11) | bit(12) | bit(13) | bit(16) | bit(17) | bit(19) |
                                 bit(21) | bit(22) | bit(23) | bit(25) | bit(26) | bit(WHITE);
constexpr Mask kGreenMask = bit(19) | bit(20) | bit(21) | bit(23) | bit(25) | bit(GREEN);

constexpr Mask rank_mask(int rank) {
    Mask m = 0;
    for (int t = 0; t < kHonorStart; ++t)
        if (rank_of(t) == rank) m |= bit(t);
    return m;
}
constexpr Mask kLowerMask = rank_mask(1) | rank_mask(2) | rank_mask(3) | rank_mask(4);
constexpr Mask kUpperMask = rank_mask(6) | rank_mask(7) | rank_mask(8) | rank_mask(9);
constexpr Mask kMiddleMask = rank_mask(4) | rank_mask(5) | rank_mask(6);

// The six knitted straights (147, 258, 369, each in its own suit), in the order of the
// permutations of the suits: the first suit holds 147, the second 258, the third 369.
struct Knitted {
    std::array<int, 9> tiles;
    Mask mask;
};
constexpr std::array<Knitted, 6> build_knitted() {
    constexpr int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    std::array<Knitted, 6> out{};
    for (int i = 0; i < 6; ++i) {
        Mask m = 0;
        for (int first = 0; first < 3; ++first)
            for (int step = 0; step < 9; step += 3) m |= bit(orders[i][first] * 9 + first + step);
        int n = 0;
        for (int t = 0; t < kKinds; ++t)
            if (m & bit(t)) out[i].tiles[n++] = t;
        out[i].mask = m;
    }
    return out;
}
constexpr std::array<Knitted, 6> kKnitted = build_knitted();

// Where PyMahjongGB puts a tile in its order (m, s, p, the winds, then 中 发 白): among
// readings of equal worth it keeps the first in that order, and so do we.
constexpr int oracle_position(int t) {
    if (t < kHonorStart) {
        constexpr int suit_place[3] = {0, 2, 1};
        return suit_place[t / 9] * 9 + t % 9;
    }
    return t <= NORTH ? t : WHITE + RED - t;
}

// Insertion sort for the few sets of one reading (at most four).
void sort_small(int* first, int n) {
    for (int i = 1; i < n; ++i) {
        const int value = first[i];
        int j = i;
        for (; j > 0 && first[j - 1] > value; --j) first[j] = first[j - 1];
        first[j] = value;
    }
}

// ----------------------------------------------------------------------------- exclusions

// 不计: what each fan's definition says it does not count.  Every excluded fan comes later in
// the table than the fan excluding it, so one pass in table order settles a fan before it
// excludes (a fan removed by an earlier one excludes nothing).
struct Exclusion {
    int fan;
    std::array<int, 6> excluded;  // padded with -1
};
const Exclusion kExclusions[] = {
    {BIG_FOUR_WINDS, {BIG_THREE_WINDS, ALL_PUNGS, PREVALENT_WIND, SEAT_WIND, PUNG_OF_TERMINALS_OR_HONORS, -1}},
    {BIG_THREE_DRAGONS, {TWO_DRAGONS_PUNGS, DRAGON_PUNG, -1, -1, -1, -1}},
    {ALL_GREEN, {HALF_FLUSH, -1, -1, -1, -1, -1}},
    {NINE_GATES, {FULL_FLUSH, FULLY_CONCEALED_HAND, CONCEALED_HAND, NO_HONORS, -1, -1}},
    {FOUR_KONGS, {ALL_PUNGS, SINGLE_WAIT, -1, -1, -1, -1}},
    {SEVEN_SHIFTED_PAIRS, {FULL_FLUSH, SEVEN_PAIRS, FULLY_CONCEALED_HAND, CONCEALED_HAND, NO_HONORS, SINGLE_WAIT}},
    {THIRTEEN_ORPHANS, {ALL_TERMINALS_AND_HONORS, ALL_TYPES, FULLY_CONCEALED_HAND, CONCEALED_HAND, SINGLE_WAIT, -1}},
    {ALL_TERMINALS, {ALL_TERMINALS_AND_HONORS, ALL_PUNGS, OUTSIDE_HAND, DOUBLE_PUNG, PUNG_OF_TERMINALS_OR_HONORS, NO_HONORS}},
    {LITTLE_FOUR_WINDS, {BIG_THREE_WINDS, PUNG_OF_TERMINALS_OR_HONORS, -1, -1, -1, -1}},
    {LITTLE_THREE_DRAGONS, {TWO_DRAGONS_PUNGS, DRAGON_PUNG, -1, -1, -1, -1}},
    {ALL_HONORS, {ALL_TERMINALS_AND_HONORS, ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS, -1, -1}},
    {FOUR_CONCEALED_PUNGS, {ALL_PUNGS, FULLY_CONCEALED_HAND, CONCEALED_HAND, -1, -1, -1}},
    {PURE_TERMINAL_CHOWS, {SEVEN_PAIRS, FULL_FLUSH, ALL_CHOWS, NO_HONORS, -1, -1}},
    {QUADRUPLE_CHOW, {SEVEN_PAIRS, TILE_HOG, -1, -1, -1, -1}},
    {FOUR_PURE_SHIFTED_PUNGS, {ALL_PUNGS, -1, -1, -1, -1, -1}},
    {ALL_TERMINALS_AND_HONORS, {ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS, -1, -1, -1}},
    {SEVEN_PAIRS, {FULLY_CONCEALED_HAND, CONCEALED_HAND, SINGLE_WAIT, -1, -1, -1}},
    {GREATER_HONORS_AND_KNITTED, {LESSER_HONORS_AND_KNITTED, ALL_TYPES, FULLY_CONCEALED_HAND, CONCEALED_HAND, -1, -1}},
    {ALL_EVEN_PUNGS, {ALL_PUNGS, ALL_SIMPLES, NO_HONORS, -1, -1, -1}},
    {FULL_FLUSH, {NO_HONORS, -1, -1, -1, -1, -1}},
    {UPPER_TILES, {UPPER_FOUR, NO_HONORS, -1, -1, -1, -1}},
    {MIDDLE_TILES, {ALL_SIMPLES, NO_HONORS, -1, -1, -1, -1}},
    {LOWER_TILES, {LOWER_FOUR, NO_HONORS, -1, -1, -1, -1}},
    {THREE_SUITED_TERMINAL_CHOWS, {ALL_CHOWS, NO_HONORS, -1, -1, -1, -1}},
    {ALL_FIVE, {ALL_SIMPLES, NO_HONORS, -1, -1, -1, -1}},
    {LESSER_HONORS_AND_KNITTED, {ALL_TYPES, FULLY_CONCEALED_HAND, CONCEALED_HAND, -1, -1, -1}},
    {UPPER_FOUR, {NO_HONORS, -1, -1, -1, -1, -1}},
    {LOWER_FOUR, {NO_HONORS, -1, -1, -1, -1, -1}},
    {LAST_TILE_DRAW, {SELF_DRAWN, -1, -1, -1, -1, -1}},
    {OUT_WITH_REPLACEMENT_TILE, {SELF_DRAWN, -1, -1, -1, -1, -1}},
    {ROBBING_THE_KONG, {LAST_TILE, -1, -1, -1, -1, -1}},
    {MELDED_HAND, {SINGLE_WAIT, -1, -1, -1, -1, -1}},
    {TWO_CONCEALED_KONGS, {TWO_CONCEALED_PUNGS, -1, -1, -1, -1, -1}},
    {TWO_DRAGONS_PUNGS, {DRAGON_PUNG, -1, -1, -1, -1, -1}},
    {FULLY_CONCEALED_HAND, {SELF_DRAWN, -1, -1, -1, -1, -1}},
    {ALL_CHOWS, {NO_HONORS, -1, -1, -1, -1, -1}},
    {ALL_SIMPLES, {NO_HONORS, -1, -1, -1, -1, -1}},
    {REVERSIBLE_TILES, {ONE_VOIDED_SUIT, -1, -1, -1, -1, -1}},
};

// The rules sorted by fan (table order), built once at static initialisation.
std::vector<const Exclusion*> sorted_exclusions() {
    std::vector<const Exclusion*> rules;
    for (const Exclusion& rule : kExclusions) rules.push_back(&rule);
    std::sort(rules.begin(), rules.end(), [](const Exclusion* a, const Exclusion* b) { return a->fan < b->fan; });
    return rules;
}
const std::vector<const Exclusion*> kExclusionOrder = sorted_exclusions();

void apply_exclusions(FanCounts& table) {
    for (const Exclusion* rule : kExclusionOrder) {
        if (!table[rule->fan]) continue;
        for (const int other : rule->excluded) {
            if (other < 0) break;
            table[other] = 0;
        }
    }
}

// The fans of ``table`` summed; an empty table becomes 无番和 (8).
int table_total(FanCounts& table) {
    int total = 0;
    for (int fan = 0; fan < FAN_COUNT; ++fan) {
        if (table[fan]) total += kFanValue[fan] * table[fan];
    }
    if (!total) {
        table[CHICKEN_HAND] = 1;
        total = kFanValue[CHICKEN_HAND];
    }
    return total;
}

// ----------------------------------------------------------------------------- decompositions

// One way to read some tiles as sets and at most one pair; sets in the order they are found.
struct Reading {
    int pair = -1;
    int size = 0;
    std::array<int, 4> sets{};
};

bool split_less(const Reading& a, const Reading& b) {
    if (a.pair != b.pair) return a.pair < b.pair;
    return std::lexicographical_compare(a.sets.begin(), a.sets.begin() + a.size, b.sets.begin(),
                                        b.sets.begin() + b.size);
}
bool split_equal(const Reading& a, const Reading& b) {
    return a.pair == b.pair && a.size == b.size && std::equal(a.sets.begin(), a.sets.begin() + a.size, b.sets.begin());
}

// Readings held in place.  One suit of at most 14 tiles splits at most 4 ways (11122233344455;
// an exhaustive count over every suit of 0..4 copies per tile), and only one suit of a
// 14-tile hand can have more than one split (that takes 8 tiles or more), so a whole hand
// reads at most 4 ways: the capacity is twice that, and anything past it is dropped rather
// than written out of bounds.
struct Readings {
    static constexpr int kCapacity = 8;
    std::array<Reading, kCapacity> items;
    int size = 0;
    const Reading* begin() const { return items.data(); }
    const Reading* end() const { return items.data() + size; }
    bool empty() const { return size == 0; }
    void push(const Reading& r) {
        if (size < kCapacity) items[size++] = r;
    }
    // Insert keeping (pair, sets) order, once.
    void insert_sorted(const Reading& r) {
        int at = 0;
        while (at < size && split_less(items[at], r)) ++at;
        if (at < size && split_equal(items[at], r)) return;
        if (size == kCapacity) return;
        for (int i = size; i > at; --i) items[i] = items[i - 1];
        items[at] = r;
        ++size;
    }
};

struct SplitWalk {
    std::uint8_t work[9];
    int width;
    bool numbered;
    Readings* found;
    int sets[4];
    int size = 0;

    void walk(int start, int pair) {
        int index = start;
        while (index < width && !work[index]) ++index;
        if (index == width) {
            Reading r;
            r.pair = pair;
            r.size = size;
            std::copy(sets, sets + size, r.sets.begin());
            sort_small(r.sets.data(), r.size);
            found->insert_sorted(r);
            return;
        }
        if (pair < 0 && work[index] >= 2) {
            work[index] -= 2;
            walk(index, index);
            work[index] += 2;
        }
        if (size == 4) return;  // no fifth set in 14 tiles
        if (work[index] >= 3) {
            work[index] -= 3;
            sets[size++] = kPung + index;
            walk(index, pair);
            --size;
            work[index] += 3;
        }
        if (numbered && index <= 6 && work[index + 1] && work[index + 2]) {
            --work[index], --work[index + 1], --work[index + 2];
            sets[size++] = index;
            walk(index, pair);
            --size;
            ++work[index], ++work[index + 1], ++work[index + 2];
        }
    }
};

// Every split of one suit (tiles low .. low + width) into sets and at most one pair, sorted
// as (pair, sets) and placed at the suit's tiles.
Readings suit_splits(const std::uint8_t* counts, int low, int width) {
    Readings found;
    SplitWalk w;
    int total = 0;
    for (int i = 0; i < width; ++i) {
        w.work[i] = counts[low + i];
        total += counts[low + i];
    }
    if (total % 3 == 1) return found;
    w.width = width;
    w.numbered = low < kHonorStart;
    w.found = &found;
    w.walk(0, -1);
    for (int k = 0; k < found.size; ++k) {
        Reading& r = found.items[k];
        if (r.pair >= 0) r.pair += low;
        for (int i = 0; i < r.size; ++i) r.sets[i] += low;
    }
    return found;
}

constexpr int kSuitRanges[4][2] = {{0, 9}, {9, 18}, {18, 27}, {27, 34}};

// Every (pair, concealed sets) reading of ``counts`` as sets plus exactly one pair, suit by
// suit: each suit's splits in order, the earlier suits' choice varying slowest.
Readings regular_readings(const std::uint8_t* counts) {
    Readings partial;
    partial.push(Reading{});
    for (const auto& range : kSuitRanges) {
        const int low = range[0], width = range[1] - range[0];
        bool any = false;
        for (int i = 0; i < width; ++i) any = any || counts[low + i];
        if (!any) continue;
        const Readings splits = suit_splits(counts, low, width);
        if (splits.empty()) return {};
        Readings next;
        for (const Reading& base : partial) {
            for (const Reading& split : splits) {
                if (split.pair >= 0 && base.pair >= 0) continue;
                if (base.size + split.size > 4) continue;  // not in 14 tiles
                Reading joined = base;
                if (split.pair >= 0) joined.pair = split.pair;
                for (int i = 0; i < split.size; ++i) joined.sets[joined.size++] = split.sets[i];
                next.push(joined);
            }
        }
        partial = next;
    }
    Readings readings;
    for (const Reading& r : partial)
        if (r.pair >= 0) readings.push(r);
    return readings;
}

// The regular readings in PyMahjongGB's order: concealed sets compared in its tile order.
Readings ordered_readings(const std::uint8_t* counts) {
    Readings readings = regular_readings(counts);
    if (readings.size < 2) return readings;
    std::array<std::array<int, 4>, Readings::kCapacity> keys;
    for (int k = 0; k < readings.size; ++k) {
        const Reading& r = readings.items[k];
        for (int i = 0; i < r.size; ++i) {
            const int s = r.sets[i];
            keys[k][i] = s >= kPung ? oracle_position(s - kPung) * 2 : oracle_position(s) * 2 + 1;
        }
        sort_small(keys[k].data(), r.size);
    }
    // Insertion sort on the keys (stable; the readings of one hand have as many sets each).
    for (int i = 1; i < readings.size; ++i) {
        const Reading r = readings.items[i];
        const std::array<int, 4> key = keys[i];
        int j = i;
        for (; j > 0 && std::lexicographical_compare(key.begin(), key.begin() + r.size, keys[j - 1].begin(),
                                                     keys[j - 1].begin() + readings.items[j - 1].size);
             --j) {
            readings.items[j] = readings.items[j - 1];
            keys[j] = keys[j - 1];
        }
        readings.items[j] = r;
        keys[j] = key;
    }
    return readings;
}

// Whether ``work`` (one suit, from ``start`` on) splits into sets, plus a pair if needs_pair.
bool is_complete(std::uint8_t* work, int width, int start, bool numbered, bool needs_pair) {
    int index = start;
    while (index < width && !work[index]) ++index;
    if (index == width) return !needs_pair;
    const int count = work[index];
    if (needs_pair && count >= 2) {
        work[index] -= 2;
        const bool done = is_complete(work, width, index, numbered, false);
        work[index] += 2;
        if (done) return true;
    }
    if (count >= 3) {
        work[index] -= 3;
        const bool done = is_complete(work, width, index, numbered, needs_pair);
        work[index] += 3;
        if (done) return true;
    }
    if (numbered && index <= 6 && work[index + 1] && work[index + 2]) {
        --work[index], --work[index + 1], --work[index + 2];
        const bool done = is_complete(work, width, index, numbered, needs_pair);
        ++work[index], ++work[index + 1], ++work[index + 2];
        return done;
    }
    return false;
}

// Every tile that completes the regular form (counted formally: a fifth copy counts), as a
// mask.  One tile mends one suit: the others must already be complete, with one pair among
// all the suits once the tile is in.
Mask regular_waits(const std::uint8_t* counts, bool stop_at_two) {
    struct Part {
        int low, width, remainder;
        bool numbered, complete;
    };
    Part parts[4];
    int pairs = 0, incomplete = 0, broken = -1;
    for (int s = 0; s < 4; ++s) {
        Part& p = parts[s];
        p.low = kSuitRanges[s][0];
        p.width = kSuitRanges[s][1] - p.low;
        p.numbered = s < 3;
        std::uint8_t work[9];
        int total = 0;
        for (int i = 0; i < p.width; ++i) total += work[i] = counts[p.low + i];
        p.remainder = total % 3;
        p.complete = p.remainder != 1 && is_complete(work, p.width, 0, p.numbered, p.remainder == 2);
        pairs += p.remainder == 2;
        if (!p.complete) {
            ++incomplete;
            broken = s;
        }
    }
    if (incomplete > 1) return 0;
    Mask found = 0;
    for (int s = 0; s < 4; ++s) {
        if (incomplete && s != broken) continue;
        const Part& p = parts[s];
        const bool wants_pair = p.remainder == 1 && !pairs;
        const bool wants_sets = p.remainder == 2 && pairs == 2;
        if (!wants_pair && !wants_sets) continue;
        std::uint8_t work[9];
        for (int i = 0; i < p.width; ++i) work[i] = counts[p.low + i];
        for (int offset = 0; offset < p.width; ++offset) {
            if (!work[offset]) {
                // A tile nothing in the suit touches completes nothing.
                const int start = p.numbered ? std::max(0, offset - 2) : offset;
                const int stop = p.numbered ? std::min(p.width, offset + 3) : offset + 1;
                bool touched = false;
                for (int i = start; i < stop; ++i) touched = touched || work[i];
                if (!touched) continue;
            }
            ++work[offset];
            if (is_complete(work, p.width, 0, p.numbered, wants_pair)) found |= bit(p.low + offset);
            --work[offset];
            if (stop_at_two && (found & (found - 1))) return found;  // more than one is all the caller asks
        }
    }
    return found;
}

// Whether the concealed tiles without the winning tile wait on exactly one tile.  Waits are
// counted formally: a tile the hand already holds four of still counts as waited on.  The
// regular form and (13 tiles) seven pairs are the forms with edge, closed and single waits.
bool is_unique_wait(const std::uint8_t* counts, int win_tile) {
    std::uint8_t work[kKinds];
    std::copy(counts, counts + kKinds, work);
    --work[win_tile];
    Mask waits = regular_waits(work, true);
    if (waits & (waits - 1)) return false;
    int total = 0, kinds = 0, odd = -1, odds = 0;
    for (int t = 0; t < kKinds; ++t) {
        total += work[t];
        kinds += work[t] != 0;
        if (work[t] & 1) {
            odd = t;
            ++odds;
        }
    }
    // Seven pairs waits on its one odd tile: 13 tiles of at most 7 kinds.
    if (total == 13 && kinds <= 7 && odds == 1) waits |= bit(odd);
    return waits && !(waits & (waits - 1));
}

// ----------------------------------------------------------------------------- set combinations

constexpr int kPairFanPreference[4] = {PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS};

// The fan two chows (lowest tiles, low <= high) make together, or -1.
int two_chow_fan(int low, int high) {
    if (suit_of(low) != suit_of(high)) return rank_of(low) == rank_of(high) ? MIXED_DOUBLE_CHOW : -1;
    if (low == high) return PURE_DOUBLE_CHOW;
    if (high - low == 3) return SHORT_STRAIGHT;
    if (rank_of(low) == 1 && rank_of(high) == 7) return TWO_TERMINAL_CHOWS;
    return -1;
}

int ordered_two_chow_fan(int x, int y) { return x <= y ? two_chow_fan(x, y) : two_chow_fan(y, x); }

// The fan of three chows (lowest tiles, sorted), or -1.
int three_chow_fan(int a, int b, int c) {
    const int sa = suit_of(a), sb = suit_of(b), sc = suit_of(c);
    int ranks[3] = {rank_of(a), rank_of(b), rank_of(c)};
    sort_small(ranks, 3);
    const bool three_suits = sa != sb && sb != sc && sa != sc;
    const bool one_suit = sa == sb && sb == sc;
    if (three_suits) {
        if (ranks[0] + 1 == ranks[1] && ranks[1] + 1 == ranks[2]) return MIXED_SHIFTED_CHOWS;
        if (ranks[0] == ranks[2]) return MIXED_TRIPLE_CHOW;
        if (ranks[0] == 1 && ranks[1] == 4 && ranks[2] == 7) return MIXED_STRAIGHT;
        return -1;
    }
    if (one_suit) {
        if (b - a == 3 && c - b == 3 && rank_of(a) == 1) return PURE_STRAIGHT;
        if ((b - a == 2 && c - b == 2) || (b - a == 1 && c - b == 1)) return PURE_SHIFTED_CHOWS;
        if (a == c) return PURE_TRIPLE_CHOW;
    }
    return -1;
}

int four_chow_fan(int a, int b, int c, int d) {
    if (suit_of(a) == suit_of(d) && b - a == c - b && c - b == d - c && (b - a == 1 || b - a == 2))
        return FOUR_PURE_SHIFTED_CHOWS;
    if (a == d) return QUADRUPLE_CHOW;
    return -1;
}

// 一色双龙会 or 三色双龙会 when four chows 123/789 surround a pair of fives, or -1.
int terminal_chows(const int* chows, int pair) {
    if (pair < 0 || rank_of(pair) != 5) return -1;
    const int pair_suit = suit_of(pair);
    std::array<std::pair<int, int>, 4> ends;
    for (int i = 0; i < 4; ++i) ends[i] = {suit_of(chows[i]), rank_of(chows[i])};
    std::sort(ends.begin(), ends.end());
    bool all_in_pair_suit = true;
    for (const auto& [suit, rank] : ends) {
        if (rank != 1 && rank != 7) return -1;
        all_in_pair_suit = all_in_pair_suit && suit == pair_suit;
    }
    if (all_in_pair_suit) {
        return ends[0].second == 1 && ends[1].second == 1 && ends[2].second == 7 && ends[3].second == 7
                   ? PURE_TERMINAL_CHOWS
                   : -1;
    }
    int others[2], n = 0;
    for (int s = 0; s < 3; ++s)
        if (s != pair_suit) others[n++] = s;
    const std::array<std::pair<int, int>, 4> wanted = {
        {{others[0], 1}, {others[0], 7}, {others[1], 1}, {others[1], 7}}};
    return ends == wanted ? THREE_SUITED_TERMINAL_CHOWS : -1;
}

// The two-set fans to count among ``edges`` (set, set, fan), by 套算一次 and 不得相同: the
// chosen edges form a forest (each fan joins a set not combined before to the others once)
// in which no set carries the same fan twice; the most fans win, then those that keep 一般高,
// 喜相逢, 连六, 老少副 in that order.  Choices of equal rank hold the same fans.
struct Edge {
    int left, right, fan;
};
void add_best_pair_fans(const Edge* edges, int edge_count, int vertices, FanCounts& table) {
    for (int size = edge_count; size >= 1; --size) {
        if (size > vertices - 1) continue;
        int best_key[5] = {-1, 0, 0, 0, 0};
        int best_choice = -1;
        for (int choice = 1; choice < (1 << edge_count); ++choice) {
            if (__builtin_popcount(choice) != size) continue;
            int parent[4] = {0, 1, 2, 3};
            const auto root = [&parent](int node) {
                while (parent[node] != node) node = parent[node];
                return node;
            };
            bool valid = true;
            std::uint32_t seen[4] = {0, 0, 0, 0};  // per set: the fans it carries (as bits)
            for (int e = 0; e < edge_count && valid; ++e) {
                if (!(choice & (1 << e))) continue;
                const Edge& edge = edges[e];
                const std::uint32_t fan_bit = 1u << (edge.fan - PURE_DOUBLE_CHOW);
                if ((seen[edge.left] & fan_bit) || (seen[edge.right] & fan_bit)) {
                    valid = false;
                    break;
                }
                seen[edge.left] |= fan_bit;
                seen[edge.right] |= fan_bit;
                const int l = root(edge.left), r = root(edge.right);
                if (l == r) {
                    valid = false;
                    break;
                }
                parent[l] = r;
            }
            if (!valid) continue;
            int key[5] = {size, 0, 0, 0, 0};
            for (int e = 0; e < edge_count; ++e) {
                if (!(choice & (1 << e))) continue;
                for (int k = 0; k < 4; ++k)
                    if (edges[e].fan == kPairFanPreference[k]) ++key[k + 1];
            }
            if (std::lexicographical_compare(best_key, best_key + 5, key, key + 5)) {
                std::copy(key, key + 5, best_key);
                best_choice = choice;
            }
        }
        if (best_choice >= 0) {
            for (int e = 0; e < edge_count; ++e)
                if (best_choice & (1 << e)) ++table[edges[e].fan];
            return;
        }
    }
}

// Fans among the chows (lowest tiles, sorted); ``pair`` matters only to the 双龙会 fans.
void chow_fans(const int* chows, int count, int pair, FanCounts& table) {
    if (count == 4) {
        const int special = terminal_chows(chows, pair);
        if (special >= 0) {
            ++table[special];
            return;
        }
        const int fan = four_chow_fan(chows[0], chows[1], chows[2], chows[3]);
        if (fan >= 0) {
            ++table[fan];
            return;
        }
    }
    if (count >= 3) {
        int best_value = 0, best_fan = -1, best_extra = -1;
        constexpr int triples[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};  // triple, then the rest
        const int triple_count = count == 4 ? 4 : 1;
        for (int t = 0; t < triple_count; ++t) {
            const int* triple = triples[t];
            const int fan = three_chow_fan(chows[triple[0]], chows[triple[1]], chows[triple[2]]);
            if (fan < 0) continue;
            int extra = -1;
            if (count == 4) {
                // The fourth chow combines once with the three (套算一次): its best fan.
                const int rest = chows[triple[3]];
                int fans[3];
                for (int i = 0; i < 3; ++i) fans[i] = ordered_two_chow_fan(chows[triple[i]], rest);
                for (int kind : kPairFanPreference) {
                    if (fans[0] == kind || fans[1] == kind || fans[2] == kind) {
                        extra = kind;
                        break;
                    }
                }
            }
            const int value = kFanValue[fan] + (extra >= 0 ? 1 : 0);
            if (value > best_value) {
                best_value = value;
                best_fan = fan;
                best_extra = extra;
            }
        }
        if (best_fan >= 0) {
            ++table[best_fan];
            if (best_extra >= 0) ++table[best_extra];
            return;
        }
    }
    if (count >= 2) {
        Edge edges[6];
        int n = 0;
        for (int i = 0; i < count; ++i) {
            for (int j = i + 1; j < count; ++j) {
                const int fan = two_chow_fan(chows[i], chows[j]);
                if (fan >= 0) edges[n++] = {i, j, fan};
            }
        }
        add_best_pair_fans(edges, n, count, table);
    }
}

int two_pung_fan(int a, int b) {
    if (rank_of(a) && rank_of(b)) return rank_of(a) == rank_of(b) ? DOUBLE_PUNG : -1;
    return is_dragon(a) && is_dragon(b) ? TWO_DRAGONS_PUNGS : -1;
}

int three_pung_fan(int a, int b, int c) {
    if (rank_of(a) && rank_of(b) && rank_of(c)) {
        const int sa = suit_of(a), sb = suit_of(b), sc = suit_of(c);
        int ranks[3] = {rank_of(a), rank_of(b), rank_of(c)};
        sort_small(ranks, 3);
        const bool consecutive = ranks[0] + 1 == ranks[1] && ranks[1] + 1 == ranks[2];
        if (sa != sb && sb != sc && sa != sc) {
            if (consecutive) return MIXED_SHIFTED_PUNGS;
            if (ranks[0] == ranks[2]) return TRIPLE_PUNG;
        } else if (sa == sb && sb == sc && consecutive) {
            return PURE_SHIFTED_PUNGS;
        }
        return -1;
    }
    if (is_wind(a) && is_wind(b) && is_wind(c)) return BIG_THREE_WINDS;
    if (is_dragon(a) && is_dragon(b) && is_dragon(c)) return BIG_THREE_DRAGONS;
    return -1;
}

// Fans among the pungs and kongs (tiles, sorted).
void pung_fans(const int* pungs, int count, FanCounts& table) {
    if (count == 4) {
        const int a = pungs[0], b = pungs[1], c = pungs[2], d = pungs[3];
        if (rank_of(a) && suit_of(a) == suit_of(d) && b - a == 1 && c - b == 1 && d - c == 1) {
            ++table[FOUR_PURE_SHIFTED_PUNGS];
            return;
        }
        if (is_wind(a) && is_wind(b) && is_wind(c) && is_wind(d)) {
            ++table[BIG_FOUR_WINDS];
            return;
        }
    }
    if (count >= 3) {
        constexpr int triples[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
        const int triple_count = count == 4 ? 4 : 1;
        for (int t = 0; t < triple_count; ++t) {
            const int* triple = triples[t];
            const int fan = three_pung_fan(pungs[triple[0]], pungs[triple[1]], pungs[triple[2]]);
            if (fan < 0) continue;
            ++table[fan];
            if (count == 4) {
                // The fourth pung combines once with the three (套算一次).
                const int rest = pungs[triple[3]];
                for (int i = 0; i < 3; ++i) {
                    const int extra = two_pung_fan(pungs[triple[i]], rest);
                    if (extra >= 0) {
                        ++table[extra];
                        break;
                    }
                }
            }
            return;
        }
    }
    for (int i = 0; i < count; ++i) {
        for (int j = i + 1; j < count; ++j) {
            const int fan = two_pung_fan(pungs[i], pungs[j]);
            if (fan >= 0) ++table[fan];
        }
    }
}

// The fans the sets of one reading make by their tiles alone (chows and pungs sorted).
void set_fans(const int* chows, int chow_count, const int* pungs, int pung_count, int pair, FanCounts& table) {
    if (chow_count) {
        chow_fans(chows, chow_count, chow_count == 4 && rank_of(pair) == 5 ? pair : -1, table);
        if (chow_count == 4 && rank_of(pair)) table[ALL_CHOWS] = 1;
    }
    if (pung_count) {
        for (int i = 0; i < pung_count; ++i)
            if (is_dragon(pungs[i])) ++table[DRAGON_PUNG];
        if (pung_count == 4) table[ALL_PUNGS] = 1;
        pung_fans(pungs, pung_count, table);
        if (table[TWO_DRAGONS_PUNGS] && is_dragon(pair)) {
            table[TWO_DRAGONS_PUNGS] = 0;
            table[LITTLE_THREE_DRAGONS] = 1;
        }
        if (table[BIG_THREE_WINDS] && is_wind(pair)) {
            table[BIG_THREE_WINDS] = 0;
            table[LITTLE_FOUR_WINDS] = 1;
        }
    }
    // 全带幺, 全带五, 全双刻: what every set and the pair hold.
    const int pair_rank = rank_of(pair);
    const auto all_chows = [&](auto keep) {
        for (int i = 0; i < chow_count; ++i)
            if (!keep(rank_of(chows[i]))) return false;
        return true;
    };
    const auto all_pungs = [&](auto keep) {
        for (int i = 0; i < pung_count; ++i)
            if (!keep(rank_of(pungs[i]))) return false;
        return true;
    };
    const auto outside = [](int r) { return r == 0 || r == 1 || r == 9; };
    const auto even = [](int r) { return r == 2 || r == 4 || r == 6 || r == 8; };
    if (outside(pair_rank) && all_chows([](int r) { return r == 1 || r == 7; }) && all_pungs(outside)) {
        table[OUTSIDE_HAND] = 1;
    } else if (pair_rank == 5 && all_chows([](int r) { return 3 <= r && r <= 5; }) &&
               all_pungs([](int r) { return r == 5; })) {
        table[ALL_FIVE] = 1;
    } else if (!chow_count && even(pair_rank) && all_pungs(even)) {
        table[ALL_EVEN_PUNGS] = 1;
    }
}

// ----------------------------------------------------------------------------- the situation

// What every reading of one win shares: tiles, melds, flags and the hand-wide fans.
struct Win {
    const std::uint8_t* concealed;
    std::uint8_t all_counts[kKinds];
    Mask concealed_present;
    int meld_chows[4], meld_chow_count = 0;
    int meld_pungs[4], meld_pung_count = 0;
    int open_melds = 0, kongs = 0, concealed_kongs = 0;
    bool discard;
    int seat, prevalent, win_tile;
    int kong_fan = -1;
    FanCounts hand_fans{};
    int unique_wait_known = -1;  // -1: not worked out yet

    Win(const std::uint8_t* counts, const Meld* melds, int meld_count, int win, const Situation& s)
        : concealed(counts), discard(s.discard), seat(s.seat_wind), prevalent(s.round_wind), win_tile(win) {
        std::copy(counts, counts + kKinds, all_counts);
        for (int i = 0; i < meld_count; ++i) {
            const Meld& meld = melds[i];
            if (meld.kind == CHI) {
                meld_chows[meld_chow_count++] = meld.first_tile;
                for (int k = 0; k < 3; ++k) ++all_counts[meld.first_tile + k];
            } else {
                meld_pungs[meld_pung_count++] = meld.first_tile;
                all_counts[meld.first_tile] += meld.kind == PON ? 3 : 4;
                if (meld.kind != PON) ++kongs;
            }
            if (meld.kind == CLOSED_KAN) {
                ++concealed_kongs;
            } else {
                ++open_melds;
            }
        }
        tile_fans();
        situation_fans(s);
    }

    bool unique_wait() {
        if (unique_wait_known < 0) unique_wait_known = is_unique_wait(concealed, win_tile);
        return unique_wait_known;
    }

    // Fans of the tiles as a whole (no reading needed).
    void tile_fans() {
        FanCounts& table = hand_fans;
        Mask present = 0;
        int fours = 0;
        concealed_present = 0;
        for (int t = 0; t < kKinds; ++t) {
            present |= Mask{all_counts[t] != 0} << t;
            concealed_present |= Mask{concealed[t] != 0} << t;
            fours += all_counts[t] == 4;
        }
        const int suits = ((present & kManMask) != 0) + ((present & kPinMask) != 0) + ((present & kSouMask) != 0);
        const bool has_wind = present & kWindMask, has_dragon = present & kDragonMask;
        if (!has_wind && !has_dragon) table[NO_HONORS] = 1;
        if (suits == 2) {
            table[ONE_VOIDED_SUIT] = 1;
        } else if (suits == 1) {
            table[has_wind || has_dragon ? HALF_FLUSH : FULL_FLUSH] = 1;
        } else if (suits == 3 && has_wind && has_dragon) {
            table[ALL_TYPES] = 1;
        }
        if (!(present & kOrphanMask)) {
            table[ALL_SIMPLES] = 1;
        } else if (!(present & ~kHonorMask)) {
            table[ALL_HONORS] = 1;
        } else if (!(present & ~kTerminalMask)) {
            table[ALL_TERMINALS] = 1;
        } else if (!(present & ~kOrphanMask)) {
            table[ALL_TERMINALS_AND_HONORS] = 1;
        }
        if (!(present & ~kReversibleMask)) table[REVERSIBLE_TILES] = 1;
        if (!(present & ~kGreenMask)) table[ALL_GREEN] = 1;
        if (!(present & ~kLowerMask)) {
            table[(present & rank_mask(4)) ? LOWER_FOUR : LOWER_TILES] = 1;
        } else if (!(present & ~kUpperMask)) {
            table[(present & rank_mask(6)) ? UPPER_FOUR : UPPER_TILES] = 1;
        } else if (!(present & ~kMiddleMask)) {
            table[MIDDLE_TILES] = 1;
        }
        const int hogs = fours - kongs;
        if (hogs > 0) table[TILE_HOG] = static_cast<std::uint8_t>(hogs);
    }

    void situation_fans(const Situation& s) {
        FanCounts& table = hand_fans;
        const int in_melds = all_counts[win_tile] - concealed[win_tile];
        const bool alone = concealed[win_tile] == 1;
        // 和绝张: the other three copies are in view; they cannot be if the winner holds one
        // more, and must be if the winner's melds show all three.
        if (alone && (s.last_copy || in_melds == 3)) table[LAST_TILE] = 1;
        if (discard) {
            if (s.last_tile) table[LAST_TILE_CLAIM] = 1;
            if (s.robbed_kong && alone && !in_melds) table[ROBBING_THE_KONG] = 1;
        } else {
            table[SELF_DRAWN] = 1;
            if (s.last_tile) table[LAST_TILE_DRAW] = 1;
            if (s.kong_replacement && kongs) table[OUT_WITH_REPLACEMENT_TILE] = 1;
        }
        // Kong fans follow from the melds alone; concealed pungs are added per reading.
        if (kongs == 1) {
            kong_fan = concealed_kongs ? CONCEALED_KONG : MELDED_KONG;
        } else if (kongs == 2) {
            constexpr int by_concealed[3] = {TWO_MELDED_KONGS, CONCEALED_KONG_AND_MELDED_KONG, TWO_CONCEALED_KONGS};
            kong_fan = by_concealed[concealed_kongs];
        } else if (kongs) {
            kong_fan = kongs == 3 ? THREE_KONGS : FOUR_KONGS;
        }
    }

    bool melded() const { return meld_chow_count || meld_pung_count; }
};

constexpr int kSituationFans[] = {LAST_TILE,  LAST_TILE_CLAIM, ROBBING_THE_KONG,
                                  SELF_DRAWN, LAST_TILE_DRAW,  OUT_WITH_REPLACEMENT_TILE};

void situation_only(const Win& win, FanCounts& table) {
    for (int fan : kSituationFans)
        if (win.hand_fans[fan]) table[fan] = win.hand_fans[fan];
}

// 圈风刻, 门风刻 and 幺九刻: a pung used by a wind fan scores no 幺九刻.
void wind_and_terminal_pungs(const Win& win, const int* pungs, int count, FanCounts& table) {
    int terminal_pungs = 0;
    for (int i = 0; i < count; ++i) {
        const int tile = pungs[i];
        if (is_wind(tile)) {
            bool used = table[BIG_THREE_WINDS] || table[LITTLE_FOUR_WINDS] || table[BIG_FOUR_WINDS];
            if (tile == win.prevalent) {
                table[PREVALENT_WIND] = 1;
                used = true;
            }
            if (tile == win.seat) {
                table[SEAT_WIND] = 1;
                used = true;
            }
            if (!used) ++terminal_pungs;
        } else if (is_terminal(tile)) {
            ++terminal_pungs;
        }
    }
    if (terminal_pungs) table[PUNG_OF_TERMINALS_OR_HONORS] = static_cast<std::uint8_t>(terminal_pungs);
}

void concealed_pung_fan(int concealed, FanCounts& table) {
    if (concealed == 2) table[TWO_CONCEALED_PUNGS] = 1;
    if (concealed == 3) table[THREE_CONCEALED_PUNGS] = 1;
    if (concealed >= 4) table[FOUR_CONCEALED_PUNGS] = 1;
}

// Fans of one regular reading; ``preferred``: it holds 一色三同顺 or 三同刻 (tie preference).
FanCounts regular_table(Win& win, const Reading& reading, bool& preferred) {
    const int win_tile = win.win_tile;
    int chows[4], chow_count = 0, hand_pungs[4], hand_pung_count = 0;
    for (int i = 0; i < reading.size; ++i) {
        const int s = reading.sets[i];
        if (s < kPung) {
            chows[chow_count++] = s;
        } else {
            hand_pungs[hand_pung_count++] = s - kPung;
        }
    }
    int all_chows[4], all_chow_count = 0, all_pungs[4], all_pung_count = 0;
    for (int i = 0; i < chow_count && all_chow_count < 4; ++i) all_chows[all_chow_count++] = chows[i];
    for (int i = 0; i < win.meld_chow_count && all_chow_count < 4; ++i) all_chows[all_chow_count++] = win.meld_chows[i];
    for (int i = 0; i < hand_pung_count && all_pung_count < 4; ++i) all_pungs[all_pung_count++] = hand_pungs[i];
    for (int i = 0; i < win.meld_pung_count && all_pung_count < 4; ++i) all_pungs[all_pung_count++] = win.meld_pungs[i];
    sort_small(all_chows, all_chow_count);
    sort_small(all_pungs, all_pung_count);
    FanCounts table = win.hand_fans;
    set_fans(all_chows, all_chow_count, all_pungs, all_pung_count, reading.pair, table);
    preferred = table[PURE_TRIPLE_CHOW] || table[TRIPLE_PUNG];
    // A pung completed by a discard is not concealed, unless the winning tile can be read as
    // part of a concealed chow instead.
    int concealed_pungs = hand_pung_count;
    if (win.discard && std::find(hand_pungs, hand_pungs + hand_pung_count, win_tile) != hand_pungs + hand_pung_count) {
        bool in_chow = false;
        for (int i = 0; i < chow_count; ++i) in_chow = in_chow || (chows[i] <= win_tile && win_tile <= chows[i] + 2);
        if (!in_chow) --concealed_pungs;
    }
    if (win.kong_fan >= 0) table[win.kong_fan] = 1;
    concealed_pung_fan(concealed_pungs + win.concealed_kongs, table);
    if (win.open_melds == 0) {
        table[win.discard ? CONCEALED_HAND : FULLY_CONCEALED_HAND] = 1;
    } else if (win.open_melds == 4 && win.discard) {
        table[MELDED_HAND] = 1;
    }
    if (table[QUADRUPLE_CHOW]) table[TILE_HOG] = 0;
    if (!table[MELDED_HAND] && win.kongs < 4) {
        int wait = -1;
        bool edge = false, closed = false;
        for (int i = 0; i < chow_count; ++i) {
            edge = edge || chows[i] == win_tile || chows[i] + 2 == win_tile;
            closed = closed || chows[i] + 1 == win_tile;
        }
        if (edge) {
            wait = EDGE_WAIT;
        } else if (closed) {
            wait = CLOSED_WAIT;
        } else if (reading.pair == win_tile) {
            wait = SINGLE_WAIT;
        }
        if (wait >= 0 && win.unique_wait()) table[wait] = 1;
    }
    apply_exclusions(table);
    if (!table[BIG_FOUR_WINDS]) {
        wind_and_terminal_pungs(win, all_pungs, all_pung_count, table);
        if (table[ALL_TERMINALS] || table[ALL_HONORS] || table[ALL_TERMINALS_AND_HONORS] || table[LITTLE_FOUR_WINDS])
            table[PUNG_OF_TERMINALS_OR_HONORS] = 0;
    }
    return table;
}

bool seven_pairs_table(const Win& win, FanCounts& table) {
    if (win.melded()) return false;
    int present[kKinds], kinds = 0;
    for (int t = 0; t < kKinds; ++t) {
        if (win.concealed[t] & 1) return false;
        if (win.concealed[t]) present[kinds++] = t;
    }
    table = win.hand_fans;
    const bool shifted = kinds == 7 && present[6] - present[0] == 6 && suit_of(present[0]) == suit_of(present[6]) &&
                         suit_of(present[6]) < 3;
    table[shifted ? SEVEN_SHIFTED_PAIRS : SEVEN_PAIRS] = 1;
    apply_exclusions(table);
    return true;
}

// 九莲宝灯: 1112345678999 of one suit concealed, plus the winning tile.
bool nine_gates_table(const Win& win, FanCounts& table) {
    const int win_tile = win.win_tile;
    const int rank = rank_of(win_tile);
    if (win.melded() || !rank || (win.concealed_present & ~kSuitMasks[suit_of(win_tile)])) return false;
    const int base = win_tile - rank + 1;
    for (int offset = 0; offset < 9; ++offset) {
        int wanted = offset == 0 || offset == 8 ? 3 : 1;
        if (offset == rank - 1) ++wanted;
        if (win.concealed[base + offset] != wanted) return false;
    }
    table = FanCounts{};
    table[NINE_GATES] = 1;
    // The rule book's note: winning on 1 or 9 adds 清龙 and 四归一; on 2, 5 or 8 a second
    // concealed pung (双暗刻) and one 幺九刻; on 2, 3, 4, 6, 7 or 8 a 连六.
    if (rank == 1 || rank == 9) {
        table[PURE_STRAIGHT] = 1;
        table[TILE_HOG] = 1;
    }
    if (rank == 2 || rank == 5 || rank == 8) {
        table[TWO_CONCEALED_PUNGS] = 1;
        table[PUNG_OF_TERMINALS_OR_HONORS] = 1;
    }
    if (rank != 1 && rank != 5 && rank != 9) table[SHORT_STRAIGHT] = 1;
    situation_only(win, table);
    apply_exclusions(table);
    return true;
}

// 全不靠 / 七星不靠: 14 different tiles, the suited ones from one knitted straight.
bool honors_and_knitted_table(const Win& win, FanCounts& table) {
    if (win.melded()) return false;
    for (int t = 0; t < kKinds; ++t)
        if (win.concealed[t] > 1) return false;
    const Mask suited = win.concealed_present & ~kHonorMask;
    bool within = false;
    for (const Knitted& straight : kKnitted) within = within || !(suited & ~straight.mask);
    if (!within) return false;
    int suited_count = 0;
    for (int t = 0; t < kHonorStart; ++t) suited_count += win.concealed[t];
    const int honors = 14 - suited_count;
    table = FanCounts{};
    if (honors == 7) {
        table[GREATER_HONORS_AND_KNITTED] = 1;
    } else {
        table[LESSER_HONORS_AND_KNITTED] = 1;
        if (suited_count == 9) table[KNITTED_STRAIGHT] = 1;
    }
    situation_only(win, table);
    apply_exclusions(table);
    return true;
}

bool thirteen_orphans_table(const Win& win, FanCounts& table) {
    if (win.melded() || win.concealed_present != kOrphanMask) return false;
    for (int t = 0; t < kKinds; ++t)
        if (win.concealed[t] > 2) return false;
    table = FanCounts{};
    table[THIRTEEN_ORPHANS] = 1;
    situation_only(win, table);
    apply_exclusions(table);
    return true;
}

// 组合龙 as three special chows, plus one set (perhaps a declared meld) and a pair.
bool knitted_straight_table(const Win& win, int melds, FanCounts& table) {
    if (melds > 1) return false;
    const Knitted* held = nullptr;
    for (const Knitted& straight : kKnitted) {
        if ((win.concealed_present & straight.mask) == straight.mask) {
            held = &straight;
            break;
        }
    }
    if (!held) return false;
    std::uint8_t rest[kKinds];
    std::copy(win.concealed, win.concealed + kKinds, rest);
    for (int t : held->tiles) --rest[t];
    const Readings readings = regular_readings(rest);
    if (readings.empty()) return false;
    const Reading& reading = readings.items[0];
    const int pair = reading.pair;
    table = win.hand_fans;
    table[KNITTED_STRAIGHT] = 1;
    int set_chows[4], set_chow_count = 0, pungs[4], pung_count = 0;
    bool any_chow = win.meld_chow_count > 0;
    for (int i = 0; i < reading.size; ++i) {
        const int s = reading.sets[i];
        if (s < kPung) {
            set_chows[set_chow_count++] = s;
            any_chow = true;
        } else if (pung_count < 4) {
            pungs[pung_count++] = s - kPung;
        }
    }
    for (int i = 0; i < win.meld_pung_count && pung_count < 4; ++i) pungs[pung_count++] = win.meld_pungs[i];
    if (any_chow && rank_of(pair)) table[ALL_CHOWS] = 1;
    if (pung_count && is_dragon(pungs[0])) table[DRAGON_PUNG] = 1;
    if (win.kong_fan >= 0) table[win.kong_fan] = 1;
    if (win.open_melds == 0) table[win.discard ? CONCEALED_HAND : FULLY_CONCEALED_HAND] = 1;
    const int win_tile = win.win_tile;
    if (melds == 0) {
        // The wait counts when the winning tile can complete the set and pair (the rule book
        // lets a tile that also fits the knitted straight count as that wait).
        if (rest[win_tile] && is_unique_wait(rest, win_tile)) {
            bool edge = false, closed = false;
            for (int i = 0; i < set_chow_count; ++i) {
                edge = edge || set_chows[i] == win_tile || set_chows[i] + 2 == win_tile;
                closed = closed || set_chows[i] + 1 == win_tile;
            }
            if (edge) {
                table[EDGE_WAIT] = 1;
            } else if (closed) {
                table[CLOSED_WAIT] = 1;
            } else if (pair == win_tile) {
                table[SINGLE_WAIT] = 1;
            }
        }
    } else if (pair == win_tile) {
        table[SINGLE_WAIT] = 1;
    }
    apply_exclusions(table);
    wind_and_terminal_pungs(win, pungs, pung_count, table);
    return true;
}

}  // namespace

Counted count_fans(const std::uint8_t* concealed, const Meld* melds, int meld_count, int win_tile,
                   const Situation& situation) {
    Counted answer;
    Win win(concealed, melds, meld_count, win_tile, situation);
    FanCounts best{};
    bool found = false;
    int best_fan = 0;
    bool seven_pairs = false;
    if (meld_count == 0) {
        FanCounts special{};
        bool have = seven_pairs_table(win, special);
        if (have) {
            seven_pairs = special[SEVEN_PAIRS] != 0;
        } else {
            have = honors_and_knitted_table(win, special) || thirteen_orphans_table(win, special) ||
                   knitted_straight_table(win, meld_count, special) || nine_gates_table(win, special);
        }
        if (have) {
            best = special;
            found = true;
            best_fan = table_total(best);
        }
    } else if (meld_count == 1) {
        if (knitted_straight_table(win, meld_count, best)) {
            found = true;
            best_fan = table_total(best);
        }
    }
    if (!found || seven_pairs) {
        for (const Reading& reading : ordered_readings(concealed)) {
            bool preferred = false;
            FanCounts table = regular_table(win, reading, preferred);
            const int total = table_total(table);
            // Ties keep the first reading, except that one with 一色三同顺 or 三同刻, or any
            // regular reading against seven pairs, takes over (PyMahjongGB's choice).
            if (total > best_fan || (total == best_fan && (preferred || seven_pairs))) {
                best = table;
                best_fan = total;
                found = true;
            }
        }
    }
    if (!found) return answer;
    answer.wins = true;
    answer.total = best_fan;
    answer.fans = best;
    return answer;
}

namespace {

// ----------------------------------------------------------------------------- Python

// The bindings read the Hand and the WinContext themselves (attribute by attribute, with the
// CPython API and METH_FASTCALL) and answer with mcr_scoring's own Fan objects: the count is
// about a microsecond, so coding the win in Python and decoding the answer there would cost
// more than the counting.  app/core/value/mcr_scoring.py validates the win before calling
// (every check and error of the scorer lives there); what is checked here only keeps a
// misuse from reading outside an array, and fails with TypeError or ValueError.
//
// The GIL is held throughout: the work is too short to gain from releasing it, and a thread
// that releases the GIL for a microsecond may wait a whole switch interval to get it back.

// Attribute names, interned once at import; never changed afterwards.
struct Names {
    PyObject *counts, *melds, *kind, *tiles, *winner, *dealer, *discarder, *seat_wind, *round_wind,
        *kong_replacement, *robbed_kong, *last_tile, *last_copy;
};
Names names{};

PyObject* intern(const char* text) {
    PyObject* name = PyUnicode_InternFromString(text);
    if (!name) throw py::error_already_set();
    return name;  // kept for the life of the process
}

// The Fan objects the answers are made of: ``fans[fan][count]``, installed by mcr_scoring at
// import (under the GIL) and only read afterwards.  A second install replaces the first and
// keeps it alive, so nothing handed out loses its table.  Never destroyed: Python objects
// cannot be released after the interpreter has finalised, when static destructors run.
std::vector<py::object>& every_fan_table() {
    static auto* installs = new std::vector<py::object>();
    return *installs;
}
PyObject* fan_table = nullptr;

struct Held {  // a new reference, released on every path
    PyObject* object;
    explicit Held(PyObject* o) : object(o) {
        if (!o) throw py::error_already_set();
    }
    ~Held() { Py_XDECREF(object); }
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;
};

long read_int(PyObject* value, const char* what) {
    const long number = PyLong_AsLong(value);
    if (number == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        throw py::type_error(std::string(what) + ": expected an int");
    }
    return number;
}

bool read_flag(PyObject* owner, PyObject* name) {
    Held value(PyObject_GetAttr(owner, name));
    const int truth = PyObject_IsTrue(value.object);
    if (truth < 0) throw py::error_already_set();
    return truth;
}

int meld_code(PyObject* kind) {
    if (!PyUnicode_Check(kind)) throw py::type_error("meld kind: expected a MeldKind");
    static const char* const kinds[] = {"chi", "pon", "open_kan", "closed_kan", "added_kan"};
    for (int code = CHI; code <= ADDED_KAN; ++code)
        if (PyUnicode_CompareWithASCIIString(kind, kinds[code]) == 0) return code;
    throw py::value_error("meld kind: not a meld kind");
}

struct Arguments {
    std::uint8_t concealed[kKinds];
    Meld melds[4];
    int meld_count = 0;
    int win_tile = 0;
    Situation situation;
};

Arguments read_arguments(PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 3) throw py::type_error("expected (hand, win_tile, context)");
    PyObject* hand = args[0];
    PyObject* context = args[2];
    Arguments a;
    {
        Held counts(PyObject_GetAttr(hand, names.counts));
        if (!PyBytes_Check(counts.object) || PyBytes_GET_SIZE(counts.object) != kKinds)
            throw py::type_error("hand.counts: expected 34 bytes");
        std::copy_n(reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(counts.object)), kKinds, a.concealed);
    }
    std::uint8_t all[kKinds];
    std::copy(a.concealed, a.concealed + kKinds, all);
    int tiles = 0;
    for (int t = 0; t < kKinds; ++t) tiles += a.concealed[t];
    {
        Held melds(PyObject_GetAttr(hand, names.melds));
        if (!PyTuple_Check(melds.object)) throw py::type_error("hand.melds: expected a tuple");
        const Py_ssize_t count = PyTuple_GET_SIZE(melds.object);
        if (count > 4) throw py::value_error("hand.melds: at most 4");
        a.meld_count = static_cast<int>(count);
        for (int i = 0; i < a.meld_count; ++i) {
            PyObject* meld = PyTuple_GET_ITEM(melds.object, i);
            Held kind(PyObject_GetAttr(meld, names.kind));
            Held meld_tiles(PyObject_GetAttr(meld, names.tiles));
            if (!PyTuple_Check(meld_tiles.object) || PyTuple_GET_SIZE(meld_tiles.object) < 1)
                throw py::type_error("meld.tiles: expected a tuple of tiles");
            const int code = meld_code(kind.object);
            const long tile = read_int(PyTuple_GET_ITEM(meld_tiles.object, 0), "meld tile");
            if (tile < 0 || tile >= kKinds || (code == CHI && (tile >= kHonorStart || tile % 9 > 6)))
                throw py::value_error("meld: a tile out of range");
            a.melds[i] = {code, static_cast<int>(tile)};
            if (code == CHI) {
                for (int k = 0; k < 3; ++k) ++all[tile + k];
            } else {
                all[tile] += code == PON ? 3 : 4;
            }
        }
    }
    if (tiles + 3 * a.meld_count != 14) throw py::value_error("a win has 14 tiles, each meld counted as 3");
    for (int t = 0; t < kKinds; ++t)
        if (all[t] > 4) throw py::value_error("a tile is held more than 4 times");
    const long win_tile = read_int(args[1], "win_tile");
    if (win_tile < 0 || win_tile >= kKinds || !a.concealed[win_tile])
        throw py::value_error("win_tile: not among the concealed tiles");
    a.win_tile = static_cast<int>(win_tile);

    Situation& s = a.situation;
    {
        Held discarder(PyObject_GetAttr(context, names.discarder));
        s.discard = discarder.object != Py_None;
    }
    {
        Held seat(PyObject_GetAttr(context, names.seat_wind));
        if (seat.object != Py_None) {
            s.seat_wind = static_cast<int>(read_int(seat.object, "seat_wind"));
        } else {
            // The seat follows from winner and dealer, as in riichi.
            Held winner(PyObject_GetAttr(context, names.winner));
            Held dealer(PyObject_GetAttr(context, names.dealer));
            const long offset = read_int(winner.object, "winner") - read_int(dealer.object, "dealer");
            s.seat_wind = 27 + static_cast<int>(((offset % 4) + 4) % 4);
        }
    }
    {
        Held round(PyObject_GetAttr(context, names.round_wind));
        s.round_wind = static_cast<int>(read_int(round.object, "round_wind"));
    }
    s.kong_replacement = read_flag(context, names.kong_replacement);
    s.robbed_kong = read_flag(context, names.robbed_kong);
    s.last_tile = read_flag(context, names.last_tile);
    s.last_copy = read_flag(context, names.last_copy);
    return a;
}

// Runs ``body`` and turns a C++ or pybind11 exception into the Python error it stands for.
template <typename Body>
PyObject* guarded(Body body) {
    try {
        return body();
    } catch (py::error_already_set& e) {
        e.restore();
    } catch (py::builtin_exception& e) {
        e.set_error();
    } catch (const std::exception& e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
    }
    return nullptr;
}

PyObject* mcr_count(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    return guarded([&]() -> PyObject* {
        if (!fan_table) throw std::logic_error("the MCR fan table is not installed (app.core.value.mcr_scoring)");
        const Arguments a = read_arguments(args, nargs);
        const Counted counted = count_fans(a.concealed, a.melds, a.meld_count, a.win_tile, a.situation);
        if (!counted.wins) Py_RETURN_NONE;
        Held total(PyLong_FromLong(counted.total));
        Py_ssize_t listed = 0;
        for (int fan = 0; fan < FAN_COUNT; ++fan) listed += counted.fans[fan] != 0;
        Held answer(PyTuple_New(listed));
        Py_ssize_t at = 0;
        for (int fan = 0; fan < FAN_COUNT; ++fan) {
            const int count = counted.fans[fan];
            if (!count) continue;
            PyObject* row = PyTuple_GET_ITEM(fan_table, fan);
            if (count >= PyTuple_GET_SIZE(row)) throw std::logic_error("a fan counted more often than its table row holds");
            PyObject* item = PyTuple_GET_ITEM(row, count);
            Py_INCREF(item);
            PyTuple_SET_ITEM(answer.object, at++, item);
        }
        PyObject* result = PyTuple_Pack(2, total.object, answer.object);
        if (!result) throw py::error_already_set();
        return result;
    });
}

PyObject* mcr_fan_total(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    return guarded([&]() -> PyObject* {
        const Arguments a = read_arguments(args, nargs);
        return PyLong_FromLong(count_fans(a.concealed, a.melds, a.meld_count, a.win_tile, a.situation).total);
    });
}

PyMethodDef count_def = {
    "mcr_count", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(mcr_count)), METH_FASTCALL,
    "mcr_count(hand, win_tile, context): (total, fans) of the best reading of an MCR win, flowers aside: the\n"
    "total fan and the installed Fan objects in table order; None when no MCR form completes."};
PyMethodDef fan_total_def = {
    "mcr_fan_total", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(mcr_fan_total)), METH_FASTCALL,
    "mcr_fan_total(hand, win_tile, context): total fans of the best reading (flowers aside), 0 when no MCR\n"
    "form completes."};

const Binding bind_mcr{"mcr", [](py::module_& m) {
    names = {intern("counts"),    intern("melds"),      intern("kind"),           intern("tiles"),
             intern("winner"),    intern("dealer"),     intern("discarder"),      intern("seat_wind"),
             intern("round_wind"), intern("kong_replacement"), intern("robbed_kong"), intern("last_tile"),
             intern("last_copy")};
    for (PyMethodDef* def : {&count_def, &fan_total_def}) {
        PyObject* function = PyCFunction_NewEx(def, nullptr, m.ptr());
        if (!function) throw py::error_already_set();
        m.add_object(def->ml_name, py::reinterpret_steal<py::object>(function));
    }
    m.def(
        "mcr_install_fans",
        [](const py::tuple& table) {
            if (static_cast<int>(table.size()) != FAN_COUNT) throw py::value_error("expected one row per fan");
            for (const py::handle row : table) {
                if (!PyTuple_Check(row.ptr()) || PyTuple_GET_SIZE(row.ptr()) < 2)
                    throw py::type_error("each row: a tuple of the fan's objects by count, from 0");
            }
            every_fan_table().push_back(table);
            fan_table = table.ptr();
        },
        py::arg("table"),
        "Install the objects mcr_count answers with: table[fan][count], one row per fan in table order.");
    m.def(
        "mcr_fan_values",
        [] {
            py::tuple values(static_cast<py::size_t>(FAN_COUNT));
            for (int fan = 0; fan < FAN_COUNT; ++fan) values[fan] = py::int_(kFanValue[fan]);
            return values;
        },
        "The value of one instance of each fan, in table order (mcr_scoring.FAN_TABLE must agree).");
}};

}  // namespace
}  // namespace tenpai::mcr

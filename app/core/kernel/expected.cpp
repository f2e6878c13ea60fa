// The expected-score search (app/core/advice/expected_score.py states the model): the graph of
// draw and discard states of one hand, built breadth first, then valued turn by turn.
//
// The order of states and edges, and of every floating-point operation, follows the model's
// definition step by step, so an answer is the same to the last bit on every run and every
// machine: each sum runs over its edges in the order they were made, never in parallel or
// reordered (the valuing groups the edges by state, keeping that order within a group).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "flat_map.hpp"
#include "registry.hpp"
#include "riichi.hpp"
#include "shape.hpp"

namespace py = pybind11;

namespace tenpai::expected {
namespace {

using shape::Counts;
using shape::Flags;
using shape::kKinds;

constexpr int kRiichiFlag = 8;
constexpr int kFives[3] = {4, 13, 22};
constexpr int kEast = 27;
constexpr int kNorth = 30;

int red_bit(int tile) {
    return tile == 4 ? 1 : tile == 13 ? 2 : tile == 22 ? 4 : 0;
}
int suit_of_five(int tile) {
    return tile == 4 ? 0 : tile == 13 ? 1 : 2;
}

// A state's identity: 34 counts of 0-4 (three bits each) and a flag byte (red fives, riichi).
struct Key {
    std::uint64_t low = 0;   // tiles 0-20
    std::uint64_t high = 0;  // tiles 21-33, then the flag from bit 39, then any extra from bit 47

    bool operator==(const Key& other) const { return low == other.low && high == other.high; }
};

struct KeyHash {
    std::size_t operator()(const Key& key) const { return static_cast<std::size_t>(mix64(key.low ^ mix64(key.high))); }
    // No state has it: high's fields end at bit 52 (the extra), the rest stay 0.
    static constexpr Key empty() { return Key{~std::uint64_t(0), ~std::uint64_t(0)}; }
};

Key key_of(const Counts& counts, int flag, int extra = 0) {
    Key key;
    for (int tile = 20; tile >= 0; --tile) key.low = (key.low << 3) | counts[tile];
    for (int tile = 33; tile >= 21; --tile) key.high = (key.high << 3) | counts[tile];
    key.high |= std::uint64_t(flag) << 39;
    key.high |= std::uint64_t(extra) << 47;
    return key;
}

// The key of counts with one more (delta 1) or one fewer (delta -1) of tile: each count is a
// three-bit field, so a state's neighbours' keys need no repacking of all 34 counts.
Key key_moved(Key key, int tile, int delta) {
    if (tile < 21) {
        key.low += std::uint64_t(std::int64_t(delta)) << (3 * tile);
    } else {
        key.high += std::uint64_t(std::int64_t(delta)) << (3 * (tile - 21));
    }
    return key;
}

// The key with its flag byte replaced (bits 39-46 of high).
Key key_flagged(Key key, int flag) {
    key.high = (key.high & ~(std::uint64_t(0xFF) << 39)) | (std::uint64_t(flag) << 39);
    return key;
}

// Binomial coefficients as exact integers (n at most 136, k at most 5 here).
std::int64_t comb(int n, int k) {
    if (k < 0 || k > n) return 0;
    k = std::min(k, n - k);
    std::int64_t result = 1;
    for (int i = 1; i <= k; ++i) result = result * (n - k + i) / i;
    return result;
}

struct Analysis {
    int shanten = 0;
    Flags flags{};
    int wait_count = 0;
    std::array<std::uint8_t, kKinds> waits{};
};

struct Child {
    int tile;
    bool red;
    int shanten;
    int state;
};

enum class Stop { None = 0, States = 1, Time = 2 };

struct Query {
    Counts start{};
    Counts unseen{};
    std::vector<riichi::Meld> melds;
    std::vector<std::uint8_t> meld_tiles;  // every tile of every meld (a kan's four)
    bool closed = true;
    int start_red = 0;
    std::vector<std::uint8_t> dora_indicators;
    int round_wind = kEast;
    int seat_wind = kEast + 1;
    int nuki = 0;  // norths the player has set aside (sanma's kita), each a dora of its own
    riichi::Options options;  // the scorer's, and the forms and red fives the shape follows
    int extra = 1;
    int max_states = 60000;
    double seconds = -1;  // wall-clock budget from the call; negative: none
    int first_turn = 1;
    int last_turn = 18;
};

class Search {
  public:
    // cancelled is borrowed (the caller keeps it alive) and touched only with the GIL held.
    Search(const Query& query, const py::object& cancelled) : q_(query), cancelled_(cancelled) {
        melds_wanted_ = 4 - int(q_.melds.size());
        const bool concealed_only = q_.melds.empty();
        seven_pairs_ = concealed_only && q_.options.seven_pairs;
        orphans_ = concealed_only && q_.options.thirteen_orphans;
        for (int tile = 0; tile < kKinds; ++tile) {
            base_[tile] = q_.unseen[tile] + q_.start[tile];
            wall_size_ += q_.unseen[tile];
        }
        for (int suit = 0; suit < 3; ++suit) {
            red_base_[suit] = ((q_.start_red >> suit) & 1) || (q_.options.red_fives && q_.unseen[kFives[suit]] > 0) ? 1 : 0;
        }
        // Every indicator of each dora: one in four-player riichi; in sanma 1m and the absent 2m-8m
        // all name 9m, and the absent ones have no copies in the wall.
        for (int indicator = 0; indicator < kKinds; ++indicator) {
            const int dora = q_.options.dora_of[indicator];
            indicators_of_[dora][indicator_count_[dora]++] = static_cast<std::uint8_t>(indicator);
        }
        seat_ = q_.seat_wind - kEast;
        started_ = std::chrono::steady_clock::now();
    }

    void build();
    std::vector<double> values(int first_turn, int last_turn) const;

    const std::vector<Child>& root_children() const { return root_children_; }
    int states() const { return states_; }
    Stop stopped_by() const { return stopped_by_; }

  private:
    const Analysis& analyse(const Counts& counts) { return analyse(counts, key_of(counts, 0)); }
    // The analysis of counts whose key (any flag) is known.
    const Analysis& analyse(const Counts& counts, const Key& key);
    double win_value(const Counts& counts, int red, int win_tile, bool riichi);
    double with_ura(const Counts& counts, int han, int fu);
    int points_of(int han, int fu);
    int distance_after_draw(const Counts& counts, int red, int tile, bool is_red, int distance) const;
    int distance_after_discard(const Counts& counts, int red, int tile, bool is_red, int distance) const;
    // (red?, copies) of each way to draw tile from the wall of counts, at most two.
    int draws_of(const Counts& counts, int red, int tile, std::array<std::pair<bool, int>, 2>& ways) const;
    int draw_state(const Counts& counts, const Key& key, int flag, int distance);
    int discard_state(const Counts& counts, const Key& key, int flag, int distance);
    void link(int source, const Counts& counts, int red, bool riichi, int tile, bool is_red, int weight, bool winning,
              int distance);
    void expand_draw(int index);
    std::vector<Child> expand_discard(int index);
    bool out_of_budget();
    bool cancelled();

    const Query& q_;
    const py::object& cancelled_;
    int melds_wanted_ = 4;
    bool seven_pairs_ = false;
    bool orphans_ = false;
    std::array<int, kKinds> base_{};
    int wall_size_ = 0;
    std::array<int, 3> red_base_{};
    std::array<std::array<std::uint8_t, kKinds>, kKinds> indicators_of_{};
    std::array<int, kKinds> indicator_count_{};
    int seat_ = 1;
    std::chrono::steady_clock::time_point started_;
    Stop stopped_by_ = Stop::None;
    int start_shanten_ = 0;
    int states_ = 0;
    std::vector<Child> root_children_;

    FlatMap<Key, int, KeyHash> analysis_index_{1024};
    std::deque<Analysis> analyses_;  // a deque: references to an analysis stay valid as it grows
    FlatMap<Key, double, KeyHash> win_values_{256};
    FlatMap<std::uint64_t, int, Mix64> points_{64};

    std::vector<Counts> draw_counts_;
    std::vector<Key> draw_key_;
    std::vector<std::uint8_t> draw_flag_;
    std::vector<int> draw_distance_;
    FlatMap<Key, int, KeyHash> draw_index_{1024};
    std::vector<Counts> discard_counts_;
    std::vector<Key> discard_key_;
    std::vector<std::uint8_t> discard_flag_;
    std::vector<int> discard_distance_;
    FlatMap<Key, int, KeyHash> discard_index_{1024};

    std::vector<int> edge_source_;
    std::vector<int> edge_target_;
    std::vector<int> edge_weight_;
    std::vector<double> edge_points_;
    // Which (draw state, discard state) pairs are linked, kept by the draw state: the discard
    // state is the draw state drawing `tile` (`red`: its red five), one bit of 68 for each.  The
    // target is then fixed, but for a draw state with the riichi flag: its own draws lead to
    // discard states with the flag, while the discard state it was thrown from (`across`) has none.
    struct Linked {
        std::array<std::uint64_t, 2> same{};
        std::array<std::uint64_t, 2> across{};
    };
    std::vector<Linked> linked_;
    bool link_once(int draw, int tile, bool red, bool across) {
        const int bit = 2 * tile + (red ? 1 : 0);
        std::uint64_t& word = (across ? linked_[draw].across : linked_[draw].same)[bit >> 6];
        const std::uint64_t mask = std::uint64_t(1) << (bit & 63);
        if (word & mask) return false;
        word |= mask;
        return true;
    }
};

const Analysis& Search::analyse(const Counts& counts, const Key& flagged) {
    const Key key = key_flagged(flagged, 0);
    if (const int* known = analysis_index_.find(key)) return analyses_[*known];
    Analysis& result = analyses_.emplace_back();
    analysis_index_.emplace(key, int(analyses_.size() - 1));
    const int distance = shape::regular_draws(counts.data(), melds_wanted_, result.flags.data());
    int best = distance;
    Flags other{};
    if (seven_pairs_) {
        const int pairs = shape::seven_pairs_distance(counts.data(), q_.options.seven_pairs_quad_as_two);
        if (pairs < best) {
            best = pairs;
            result.flags.fill(0);
        }
        if (pairs == best) {
            shape::seven_pairs_draws(counts.data(), q_.options.seven_pairs_quad_as_two, other.data());
            for (int tile = 0; tile < kKinds; ++tile) result.flags[tile] |= other[tile];
        }
    }
    if (orphans_) {
        const int orphans = shape::orphans_distance(counts.data());
        if (orphans < best) {
            best = orphans;
            result.flags.fill(0);
        }
        if (orphans == best) {
            shape::orphans_draws(counts.data(), other.data());
            for (int tile = 0; tile < kKinds; ++tile) result.flags[tile] |= other[tile];
        }
    }
    result.shanten = best - 1;
    for (int tile = 0; tile < kKinds; ++tile) {
        if (result.flags[tile]) result.waits[result.wait_count++] = static_cast<std::uint8_t>(tile);
    }
    return result;
}

double Search::win_value(const Counts& counts, int red, int win_tile, bool riichi) {
    const Key key = key_of(counts, red | (riichi ? kRiichiFlag : 0), win_tile + 1);
    if (const double* known = win_values_.find(key)) return *known;
    riichi::Situation situation;
    situation.winner = seat_;
    situation.dealer = 0;
    situation.round_wind = q_.round_wind;
    situation.dora_indicators = q_.dora_indicators;
    situation.red_fives = ((red & 1) != 0) + ((red & 2) != 0) + ((red & 4) != 0);
    situation.riichi = riichi;
    situation.nuki = q_.nuki;
    const riichi::Score result = riichi::score(counts.data(), q_.melds.data(), int(q_.melds.size()), win_tile,
                                               q_.options, situation);
    double value = 0.0;  // no yaku: the hand cannot be declared a win
    if (result.status == riichi::Status::Won) {
        value = double(result.payments[seat_]);
        if (riichi && !q_.dora_indicators.empty() && result.yakuman_count == 0) {
            value = with_ura(counts, result.han, result.fu);
        }
    }
    win_values_.emplace(key, value);
    return value;
}

double Search::with_ura(const Counts& counts, int han, int fu) {
    const int drawn = int(q_.dora_indicators.size());
    if (drawn == 1 && q_.melds.empty()) {
        // One indicator: a kind held c times adds c ura dora when its indicator is drawn, with
        // the indicator's share of the wall (the wall holds wall_size tiles throughout).
        // A north set aside adds one more when north is the ura dora.
        const int plain = points_of(han, fu);
        double gained = 0.0;
        for (int tile = 0; tile < kKinds; ++tile) {
            const int gain = counts[tile] + (tile == kNorth ? q_.nuki : 0);
            if (!gain) continue;
            for (int i = 0; i < indicator_count_[tile]; ++i) {
                const int indicator = indicators_of_[tile][i];
                const int copies = base_[indicator] - counts[indicator];
                if (copies > 0) gained += double(copies * (points_of(han + gain, fu) - plain));
            }
        }
        return plain + gained / wall_size_;
    }
    std::array<int, kKinds> held{};
    for (int tile = 0; tile < kKinds; ++tile) held[tile] = counts[tile];
    for (auto tile : q_.meld_tiles) held[tile] += 1;
    held[kNorth] += q_.nuki;
    std::array<int, kKinds> wall{};
    int total = 0;
    for (int tile = 0; tile < kKinds; ++tile) {
        wall[tile] = base_[tile] - counts[tile];
        total += wall[tile];
    }
    if (total < drawn) return double(points_of(han, fu));
    // ways[selected][ura]: ways to choose `selected` indicators among the kinds that add ura dora.
    std::vector<std::array<double, 14>> ways(drawn + 1);
    for (auto& row : ways) row.fill(0.0);
    ways[0][0] = 1.0;
    std::int64_t pooled = 0;
    for (int tile = 0; tile < kKinds; ++tile) {
        const int copies = wall[tile];
        if (!copies) continue;
        const int gain = held[q_.options.dora_of[tile]];
        if (!gain) {
            pooled += copies;
            continue;
        }
        for (int selected = drawn - 1; selected >= 0; --selected) {
            const auto row = ways[selected];
            for (int ura = 13; ura >= 0; --ura) {
                if (row[ura] == 0.0) continue;
                for (int take = 1; take <= std::min(copies, drawn - selected); ++take) {
                    ways[selected + take][std::min(13, ura + gain * take)] += row[ura] * double(comb(copies, take));
                }
            }
        }
    }
    double expected = 0.0;
    for (int selected = 0; selected <= drawn; ++selected) {
        const std::int64_t rest = comb(int(pooled), drawn - selected);
        if (!rest) continue;
        for (int ura = 0; ura < 14; ++ura) {
            const double count = ways[selected][ura];
            if (count != 0.0) expected += count * double(rest) * double(points_of(han + ura, fu));
        }
    }
    return expected / double(comb(total, drawn));
}

int Search::points_of(int han, int fu) {
    const std::uint64_t key = std::uint64_t(han) * 1024 + std::uint64_t(fu);
    if (const int* known = points_.find(key)) return *known;
    const int base = riichi::base_points(han, fu, q_.options);
    const int points = riichi::payments(base, seat_, 0, -1, 0, q_.options)[seat_];
    points_.emplace(key, points);
    return points;
}

int Search::distance_after_draw(const Counts& counts, int red, int tile, bool is_red, int distance) const {
    if (is_red) {
        const int suit = suit_of_five(tile);
        return distance + (((q_.start_red >> suit) & 1) ? 0 : 1);
    }
    int held = counts[tile];  // before the draw
    int start = q_.start[tile];
    if (red_bit(tile)) {
        const int suit = suit_of_five(tile);
        held -= (red >> suit) & 1;
        start -= (q_.start_red >> suit) & 1;
    }
    return distance + (held >= start ? 1 : 0);
}

int Search::distance_after_discard(const Counts& counts, int red, int tile, bool is_red, int distance) const {
    if (is_red) {
        const int suit = suit_of_five(tile);
        return distance - (((q_.start_red >> suit) & 1) ? 0 : 1);
    }
    int held = counts[tile];  // before the discard
    int start = q_.start[tile];
    if (red_bit(tile)) {
        const int suit = suit_of_five(tile);
        held -= (red >> suit) & 1;
        start -= (q_.start_red >> suit) & 1;
    }
    return distance - (held > start ? 1 : 0);
}

int Search::draws_of(const Counts& counts, int red, int tile, std::array<std::pair<bool, int>, 2>& ways) const {
    const int copies = base_[tile] - counts[tile];
    if (copies <= 0) return 0;
    if (q_.options.red_fives && red_bit(tile)) {
        const int suit = suit_of_five(tile);
        const int red_copies = red_base_[suit] - ((red >> suit) & 1);
        int n = 0;
        if (red_copies > 0) ways[n++] = {true, red_copies};
        if (copies - red_copies > 0) ways[n++] = {false, copies - red_copies};
        return n;
    }
    ways[0] = {false, copies};
    return 1;
}

int Search::draw_state(const Counts& counts, const Key& key, int flag, int distance) {
    auto [index, added] = draw_index_.emplace(key, int(draw_counts_.size()));
    if (added) {
        draw_counts_.push_back(counts);
        draw_key_.push_back(key);
        linked_.emplace_back();
        draw_flag_.push_back(static_cast<std::uint8_t>(flag));
        draw_distance_.push_back(distance);
    }
    return *index;
}

int Search::discard_state(const Counts& counts, const Key& key, int flag, int distance) {
    auto [index, added] = discard_index_.emplace(key, int(discard_counts_.size()));
    if (added) {
        discard_counts_.push_back(counts);
        discard_key_.push_back(key);
        discard_flag_.push_back(static_cast<std::uint8_t>(flag));
        discard_distance_.push_back(distance);
    }
    return *index;
}

void Search::link(int source, const Counts& counts, int red, bool riichi, int tile, bool is_red, int weight,
                  bool winning, int distance) {
    // Each (draw state, discard state) pair is linked once, whichever side meets it first: the
    // draw state drawing, or the discard state discarding to it (the draw back).  A linked pair's
    // discard state exists already, so finding or making the target first changes nothing.
    const int red_after = is_red ? (red | red_bit(tile)) : red;
    const int flag = red_after | (riichi ? kRiichiFlag : 0);
    const Key key = key_flagged(key_moved(draw_key_[source], tile, 1), flag);
    const int* known = discard_index_.find(key);
    int target;
    if (known != nullptr) {
        target = *known;
        if (!link_once(source, tile, is_red, false)) return;
    } else {
        Counts after = counts;
        after[tile] += 1;
        target = discard_state(after, key, flag, distance_after_draw(counts, red, tile, is_red, distance));
        link_once(source, tile, is_red, false);
    }
    edge_source_.push_back(source);
    edge_target_.push_back(target);
    edge_weight_.push_back(weight);
    // The target's counts are the draw state's with the tile drawn (win_value adds no state).
    edge_points_.push_back(winning ? win_value(discard_counts_[target], red_after, tile, riichi) : 0.0);
}

void Search::expand_draw(int index) {
    const Counts counts = draw_counts_[index];
    const int flag = draw_flag_[index];
    const int red = flag & ~kRiichiFlag;
    const bool riichi = (flag & kRiichiFlag) != 0;
    const Analysis& analysis = analyse(counts, draw_key_[index]);
    const int shanten = analysis.shanten;
    // A reference into the analyses stays valid: they live in a deque.
    const Flags& flags = analysis.flags;
    const int distance = draw_distance_[index];
    const bool swaps = !riichi && distance + shanten < start_shanten_ + q_.extra;
    const bool tenpai = shanten == 0;
    std::array<std::pair<bool, int>, 2> ways;
    // The discard states the draws reach, looked up below one after another: fetched first.
    const auto prefetch = [&](int tile) {
        if (base_[tile] - counts[tile] <= 0) return;
        const Key moved = key_moved(draw_key_[index], tile, 1);
        discard_index_.prefetch(key_flagged(moved, flag));
        if (q_.options.red_fives && red_bit(tile)) discard_index_.prefetch(key_flagged(moved, flag | red_bit(tile)));
    };
    if (swaps) {
        for (int tile = 0; tile < kKinds; ++tile) prefetch(tile);
    } else {
        for (int w = 0; w < analysis.wait_count; ++w) prefetch(analysis.waits[w]);
    }
    const auto consider = [&](int tile) {
        const int copies = base_[tile] - counts[tile];
        if (copies <= 0) return;
        const bool winning = tenpai && flags[tile];
        if (q_.options.red_fives && red_bit(tile)) {
            const int n = draws_of(counts, red, tile, ways);
            for (int i = 0; i < n; ++i) {
                link(index, counts, red, riichi, tile, ways[i].first, ways[i].second, winning, distance);
            }
        } else {
            link(index, counts, red, riichi, tile, false, copies, winning, distance);
        }
    };
    if (swaps) {
        for (int tile = 0; tile < kKinds; ++tile) consider(tile);
    } else {
        for (int w = 0; w < analysis.wait_count; ++w) consider(analysis.waits[w]);
    }
}

std::vector<Child> Search::expand_discard(int index) {
    std::vector<Child> children;
    const int flag = discard_flag_[index];
    if (flag & kRiichiFlag) return children;  // a riichi hand with 3n+2 tiles is complete: it only waits
    const Counts counts = discard_counts_[index];
    const int red = flag;
    const int distance = discard_distance_[index];
    // Each discard's distance from the suit classes: only the discarded tile's suit changes.
    const shape::Tables& t = shape::tables();
    const shape::SuitKeys keys = shape::suit_keys(counts.data());
    const int c_m = t.number_class[keys.m], c_p = t.number_class[keys.p], c_s = t.number_class[keys.s];
    const int c_h = t.honor_class[keys.h];
    const int mp = t.man_pin[c_m * t.number_classes + c_p];
    const int sh = t.sou_honors[c_s * t.honor_classes + c_h];
    const int wanted = melds_wanted_;
    bool complete = t.final_[mp * t.final_stride + sh * 5 + wanted] == 0;
    static constexpr std::uint32_t kPow5[9] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625};
    const auto removal_distance = [&](int tile) {
        const int position = tile % 9;
        switch (tile / 9) {
            case 0: {
                const int after = t.number_class[keys.m - kPow5[position]];
                return int(t.final_[t.man_pin[after * t.number_classes + c_p] * t.final_stride + sh * 5 + wanted]);
            }
            case 1: {
                const int after = t.number_class[keys.p - kPow5[position]];
                return int(t.final_[t.man_pin[c_m * t.number_classes + after] * t.final_stride + sh * 5 + wanted]);
            }
            case 2: {
                const int after = t.number_class[keys.s - kPow5[position]];
                return int(t.final_[mp * t.final_stride + t.sou_honors[after * t.honor_classes + c_h] * 5 + wanted]);
            }
            default: {
                const int after = t.honor_class[keys.h - kPow5[position]];
                return int(t.final_[mp * t.final_stride + t.sou_honors[c_s * t.honor_classes + after] * 5 + wanted]);
            }
        }
    };
    int kinds = 0, pairs = 0, orphan_kinds = 0, orphan_pairs = 0;
    for (int tile = 0; tile < kKinds; ++tile) {
        kinds += counts[tile] > 0;
        pairs += counts[tile] >= 2;
        if (shape::is_orphan(tile)) {
            orphan_kinds += counts[tile] > 0;
            orphan_pairs += counts[tile] >= 2;
        }
    }
    if (seven_pairs_ && pairs == 7) complete = true;
    if (orphans_ && orphan_kinds == 13 && orphan_pairs) complete = true;
    const int other_after = 14 - orphan_kinds - (orphan_pairs > 0);
    int held_tiles[kKinds];
    int shantens[kKinds];
    int n_held = 0;
    int lowest = 1 << 20;
    for (int tile = 0; tile < kKinds; ++tile) {
        const int held = counts[tile];
        if (!held) continue;
        int best = removal_distance(tile);
        if (seven_pairs_) {
            // The seven-pairs distance after throwing one of `held` copies.
            const int after = 7 - (pairs - (held == 2)) + std::max(0, 7 - (kinds - (held == 1)));
            best = std::min(best, after);
        }
        if (orphans_) {
            const int after = shape::is_orphan(tile)
                                  ? 14 - (orphan_kinds - (held == 1)) - ((orphan_pairs - (held == 2)) > 0)
                                  : other_after;
            best = std::min(best, after);
        }
        held_tiles[n_held] = tile;
        shantens[n_held] = best - 1;
        lowest = std::min(lowest, best - 1);
        ++n_held;
    }
    // Complete: every discard raises the shanten, so each one is a step back.
    const int shanten_here = complete ? -1 : lowest;
    const bool steps_back = distance + shanten_here < start_shanten_ + q_.extra;
    const bool closed_tenpai = q_.closed && shanten_here == 0;
    std::array<std::pair<bool, int>, 2> ways;
    // The draw states the discards reach, looked up below one after another: fetched first.
    for (int i = 0; i < n_held; ++i) {
        const bool keeps = shantens[i] == shanten_here;
        if (!(keeps || steps_back)) continue;
        const int tile = held_tiles[i];
        const Key moved = key_moved(discard_key_[index], tile, -1);
        const int riichi_flag = closed_tenpai && keeps ? kRiichiFlag : 0;
        draw_index_.prefetch(key_flagged(moved, red | riichi_flag));
        if (red & red_bit(tile)) draw_index_.prefetch(key_flagged(moved, (red & ~red_bit(tile)) | riichi_flag));
    }
    for (int i = 0; i < n_held; ++i) {
        const int tile = held_tiles[i];
        const int shanten = shantens[i];
        const bool keeps = shanten == shanten_here;
        if (!(keeps || steps_back)) continue;
        const bool riichi = closed_tenpai && keeps;
        const int held = counts[tile];
        Counts rest = counts;
        rest[tile] -= 1;
        bool reds[2] = {false, false};
        int n_reds = 1;
        if (q_.options.red_fives && (red & red_bit(tile))) {
            reds[0] = true;
            if (held > 1) n_reds = 2;  // then the plain five
        }
        for (int r = 0; r < n_reds; ++r) {
            const bool is_red = reds[r];
            const int red_after = is_red ? (red & ~red_bit(tile)) : red;
            const int child_flag = red_after | (riichi ? kRiichiFlag : 0);
            const Key child_key = key_flagged(key_moved(discard_key_[index], tile, -1), child_flag);
            const int* known = draw_index_.find(child_key);
            const int child = known != nullptr ? *known
                                               : draw_state(rest, child_key, child_flag,
                                                            distance_after_discard(counts, red, tile, is_red, distance));
            children.push_back({tile, is_red, shanten, child});
            // Drawing the discarded tile again leads back here, whatever the child's riichi flag.
            if (!link_once(child, tile, is_red, riichi)) continue;
            int copies = 0;
            if (q_.options.red_fives && red_bit(tile)) {
                const int n = draws_of(rest, red_after, tile, ways);
                for (int w = 0; w < n; ++w) {
                    if (ways[w].first == is_red) copies = ways[w].second;
                }
            } else {
                copies = base_[tile] - rest[tile];
            }
            edge_source_.push_back(child);
            edge_target_.push_back(index);
            edge_weight_.push_back(copies);
            edge_points_.push_back(complete ? win_value(counts, red, tile, false) : 0.0);
        }
    }
    return children;
}

bool Search::cancelled() {
    if (cancelled_.is_none()) return false;
    py::gil_scoped_acquire gil;
    return cancelled_().cast<bool>();
}

bool Search::out_of_budget() {
    if (states_ >= q_.max_states) {
        stopped_by_ = Stop::States;
        return true;
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    // The caller's cancel callable needs the GIL: ask it every 2,048 states (about a millisecond).
    if ((q_.seconds >= 0 && elapsed >= q_.seconds) || ((states_ & 2047) == 1 && cancelled())) {
        stopped_by_ = Stop::Time;
        return true;
    }
    return false;
}

void Search::build() {
    const int root = discard_state(q_.start, key_of(q_.start, q_.start_red), q_.start_red, 0);
    // The start's shanten: its best discard's (or -1 when complete).
    int best = 1 << 20;
    for (int tile = 0; tile < kKinds; ++tile) {
        if (!q_.start[tile]) continue;
        Counts after = q_.start;
        after[tile] -= 1;
        const Analysis& analysis = analyse(after);
        best = std::min(best, analysis.shanten == 0 && analysis.flags[tile] ? -1 : analysis.shanten);
    }
    start_shanten_ = best;
    std::size_t draw_done = 0, discard_done = 0;
    while (draw_done < draw_counts_.size() || discard_done < discard_counts_.size()) {
        if ((states_ & 127) == 1 && out_of_budget()) break;  // the start is always expanded
        if (discard_done < discard_counts_.size()) {
            std::vector<Child> children = expand_discard(int(discard_done));
            if (int(discard_done) == root) root_children_ = std::move(children);
            ++discard_done;
        } else {
            expand_draw(int(draw_done));
            ++draw_done;
        }
        ++states_;
    }
    states_ = int(draw_counts_.size() + discard_counts_.size());
}

std::vector<double> Search::values(int first_turn, int last_turn) const {
    const std::size_t draws = draw_counts_.size();
    const std::size_t discards = discard_counts_.size();
    const std::size_t edges = edge_source_.size();
    std::vector<std::uint8_t> tenpai(draws);
    for (std::size_t d = 0; d < draws; ++d) {
        // Every draw state expanded was analysed; one never expanded (a stopped search) is now.
        tenpai[d] = const_cast<Search*>(this)->analyse(draw_counts_[d], draw_key_[d]).shanten == 0;
    }
    // A discard state chooses among the draw states that lead to it (mahjong-cpp's selection):
    // its own discards, each linked back, and every draw state that draws into it.
    // The edges grouped by target, in the order they were made within a group (a counting sort:
    // the stable order, in linear time).
    std::vector<std::size_t> offsets(discards + 1, 0);
    for (std::size_t e = 0; e < edges; ++e) ++offsets[std::size_t(edge_target_[e]) + 1];
    for (std::size_t x = 0; x < discards; ++x) offsets[x + 1] += offsets[x];
    std::vector<int> choices(edges);
    {
        std::vector<std::size_t> next(offsets.begin(), offsets.end() - 1);
        for (std::size_t e = 0; e < edges; ++e) choices[next[std::size_t(edge_target_[e])]++] = edge_source_[e];
    }
    // The edges grouped by source, in the order they were made within a group: each draw state's
    // sums run over its own edges in that order, as a pass over every edge would add them.
    std::vector<std::size_t> from(draws + 1, 0);
    for (std::size_t e = 0; e < edges; ++e) ++from[std::size_t(edge_source_[e]) + 1];
    for (std::size_t d = 0; d < draws; ++d) from[d + 1] += from[d];
    std::vector<int> to(edges);
    std::vector<double> weight_of(edges), points_of_edge(edges);
    {
        std::vector<std::size_t> next(from.begin(), from.end() - 1);
        for (std::size_t e = 0; e < edges; ++e) {
            const std::size_t at = next[std::size_t(edge_source_[e])]++;
            to[at] = edge_target_[e];
            weight_of[at] = double(edge_weight_[e]);
            points_of_edge[at] = edge_points_[e];
        }
    }
    std::vector<double> won(draws, 0.0), total_weight(draws, 0.0);
    for (std::size_t d = 0; d < draws; ++d) {
        for (std::size_t e = from[d]; e < from[d + 1]; ++e) {
            total_weight[d] += weight_of[e];
            if (points_of_edge[e] > 0) won[d] += weight_of[e];
        }
    }
    const std::size_t roots = root_children_.size();
    const int turns = last_turn - first_turn + 1;
    std::vector<double> out(roots * turns * 3, 0.0);
    // A state's three values side by side (tenpai, win and score): they are read together.
    struct Triple {
        double tenpai, win, score;
    };
    std::vector<Triple> now(draws, Triple{0.0, 0.0, 0.0});
    for (std::size_t d = 0; d < draws; ++d) now[d].tenpai = tenpai[d] ? 1.0 : 0.0;
    std::vector<Triple> chosen(discards);
    const auto choose = [&]() {
        for (std::size_t x = 0; x < discards; ++x) {
            const std::size_t begin = offsets[x], end = offsets[x + 1];
            // An empty choice takes its first entry, as numpy's maximum.reduceat does.
            Triple best{0.0, 0.0, 0.0};
            if (begin < edges) best = now[choices[begin]];
            for (std::size_t e = begin + 1; e < end; ++e) {
                const Triple& choice = now[choices[e]];
                best.tenpai = std::max(best.tenpai, choice.tenpai);
                best.win = std::max(best.win, choice.win);
                best.score = std::max(best.score, choice.score);
            }
            chosen[x] = best;
        }
    };
    const auto record = [&](int turn) {
        for (std::size_t r = 0; r < roots; ++r) {
            const int state = root_children_[r].state;
            double* row = &out[(r * turns + (turn - first_turn)) * 3];
            row[0] = now[state].tenpai;
            row[1] = now[state].win;
            row[2] = now[state].score;
        }
    };
    record(last_turn);
    choose();
    for (int turn = last_turn - 1; turn >= first_turn; --turn) {
        const int left = wall_size_ - turn;
        if (left > 0) {
            for (std::size_t d = 0; d < draws; ++d) {
                double reached_tenpai = 0.0, reached_win = 0.0, reached_play = 0.0, reached_won = 0.0;
                for (std::size_t e = from[d]; e < from[d + 1]; ++e) {
                    const Triple& next = chosen[std::size_t(to[e])];
                    const double weight = weight_of[e];
                    if (points_of_edge[e] > 0) {
                        reached_won += weight * std::max(points_of_edge[e], next.score);
                    } else {
                        reached_tenpai += weight * next.tenpai;
                        reached_win += weight * next.win;
                        reached_play += weight * next.score;
                    }
                }
                Triple& here = now[d];
                here.tenpai = tenpai[d] ? 1.0 : here.tenpai + (reached_tenpai + won[d] - total_weight[d] * here.tenpai) / left;
                here.win = here.win + (reached_win + won[d] - total_weight[d] * here.win) / left;
                const double reached_score = reached_play + reached_won;
                here.score = here.score + (reached_score - total_weight[d] * here.score) / left;
            }
            choose();
        }
        record(turn);
    }
    return out;
}

Counts counts_of(const std::string& raw, const char* name) {
    if (raw.size() != kKinds) throw std::invalid_argument(std::string(name) + ": expected 34 counts");
    Counts counts{};
    for (int tile = 0; tile < kKinds; ++tile) {
        const auto c = static_cast<std::uint8_t>(raw[tile]);
        if (c > 4) throw std::invalid_argument(std::string(name) + ": more than 4 copies");
        counts[tile] = c;
    }
    return counts;
}

const Binding bind_expected{"expected", [](py::module_& m) {
    m.def(
        "expected_scores",
        [](const py::bytes& start, const py::bytes& unseen, const std::vector<std::pair<int, int>>& melds,
           int start_red, const std::vector<int>& dora_indicators, int round_wind, int seat_wind,
           const riichi::Options& options, int extra, int max_states,
           double seconds, const py::object& cancelled, int first_turn, int last_turn, int nuki) {
            Query q;
            q.start = counts_of(start, "start");
            q.unseen = counts_of(unseen, "unseen");
            for (const auto& [kind, tile] : melds) {
                if (kind < 0 || kind > 4 || tile < 0 || tile >= kKinds || (kind == 0 && (tile >= 27 || tile % 9 > 6))) {
                    throw std::invalid_argument("melds: (kind 0-4, first tile)");
                }
                q.melds.push_back({static_cast<riichi::MeldKind>(kind), static_cast<std::uint8_t>(tile)});
                if (kind == 0) {
                    for (int i = 0; i < 3; ++i) q.meld_tiles.push_back(static_cast<std::uint8_t>(tile + i));
                } else {
                    for (int i = 0; i < (kind == 1 ? 3 : 4); ++i) q.meld_tiles.push_back(static_cast<std::uint8_t>(tile));
                }
                if (kind != 3) q.closed = false;
            }
            int tiles = 0;
            for (int tile = 0; tile < kKinds; ++tile) {
                tiles += q.start[tile];
                // A state's counts never pass the copies the hand and the wall hold together.
                if (q.start[tile] + q.unseen[tile] > 4) throw std::invalid_argument("unseen: more than 4 copies with the hand");
            }
            // A hand that discards: 3n+2 tiles, at most 14 with each meld counted as 3 (a shorter
            // hand is searched too; it never completes, as in the Python search before it).
            if (melds.size() > 4 || tiles % 3 != 2 || tiles + 3 * int(melds.size()) > 14) {
                throw std::invalid_argument("start: a hand that discards, 3n+2 tiles, at most 14 with each meld as 3");
            }
            if (start_red < 0 || start_red > 7) throw std::invalid_argument("start_red: three bits");
            for (int suit = 0; suit < 3; ++suit) {
                if (((start_red >> suit) & 1) && !q.start[kFives[suit]]) {
                    throw std::invalid_argument("start_red: a red five the hand does not hold");
                }
            }
            for (int indicator : dora_indicators) {
                if (indicator < 0 || indicator >= kKinds) throw std::invalid_argument("dora_indicators: tiles 0-33");
                q.dora_indicators.push_back(static_cast<std::uint8_t>(indicator));
            }
            if (q.dora_indicators.size() > 5) throw std::invalid_argument("dora_indicators: at most 5");
            if (round_wind < kEast || round_wind > kEast + 3 || seat_wind < kEast || seat_wind > kEast + 3) {
                throw std::invalid_argument("winds: 27-30");
            }
            // The dealer is seat 0 and the seat wind names the player's seat: one at the table.
            if (seat_wind - kEast >= std::clamp(options.seats, 2, 4)) {
                throw std::invalid_argument("seat_wind: a seat at the table (East, South, West with three seats)");
            }
            if (nuki < 0 || q.start[kNorth] + q.unseen[kNorth] + nuki > 4) {
                throw std::invalid_argument("nuki: norths set aside, at most 4 with the hand's and the unseen");
            }
            if (first_turn < 1 || last_turn < first_turn || last_turn > 200) {
                throw std::invalid_argument("turns: 1 <= first_turn <= last_turn <= 200");
            }
            q.start_red = start_red;
            q.round_wind = round_wind;
            q.seat_wind = seat_wind;
            q.options = options;
            q.extra = extra;
            q.max_states = max_states;
            q.seconds = seconds;
            q.first_turn = first_turn;
            q.last_turn = last_turn;
            q.nuki = nuki;
            shape::tables();  // installed, or a clean error before the GIL is released
            std::vector<double> values;
            int states = 0;
            Stop stopped = Stop::None;
            std::vector<Child> children;
            {
                py::gil_scoped_release released;
                Search search(q, cancelled);
                search.build();
                values = search.values(first_turn, last_turn);
                states = search.states();
                stopped = search.stopped_by();
                children = search.root_children();
            }
            py::list discards;
            const int turns = last_turn - first_turn + 1;
            for (std::size_t r = 0; r < children.size(); ++r) {
                py::list rows;
                for (int k = 0; k < turns; ++k) {
                    const double* row = &values[(r * turns + k) * 3];
                    rows.append(py::make_tuple(first_turn + k, row[0], row[1], row[2]));
                }
                discards.append(py::make_tuple(children[r].tile, children[r].red, children[r].shanten, rows));
            }
            return py::make_tuple(discards, states, int(stopped));
        },
        py::arg("start"), py::arg("unseen"), py::arg("melds"), py::arg("start_red"), py::arg("dora_indicators"),
        py::arg("round_wind"), py::arg("seat_wind"), py::arg("options"), py::arg("extra"), py::arg("max_states"), py::arg("seconds"),
        py::arg("cancelled"), py::arg("first_turn"), py::arg("last_turn"), py::arg("nuki"),
        "The expected-score search of app/core/advice/expected_score.py: ([(tile, red, shanten, [(turn, tenpai, "
        "win, score) per turn])], states, stop 0 none / 1 states / 2 time).");
}};

}  // namespace
}  // namespace tenpai::expected

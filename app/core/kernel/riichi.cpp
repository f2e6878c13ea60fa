// Riichi scoring (see riichi.hpp): every reading of a winning hand is valued and the highest
// kept, as app/core/value/riichi_scoring.py documents the rules.  Readings are generated in a
// fixed order and a later one replaces the best only when it is worth strictly more, so the
// reading, yaku order and fu items of an answer are the same on every call.
#include "riichi.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

#include "registry.hpp"

namespace tenpai::riichi {
namespace {

constexpr int kKinds = 34;
constexpr int kEast = 27;
constexpr int kNorth = 30;
constexpr int kWhite = 31;
constexpr int kYakumanBase = 8000;

constexpr bool is_orphan(int tile) { return tile >= kEast || tile % 9 == 0 || tile % 9 == 8; }

using Mask = std::uint64_t;  // bit t: tile t
constexpr Mask bit(int tile) { return Mask{1} << tile; }
constexpr Mask span(int from, int to) {
    Mask mask = 0;
    for (int tile = from; tile < to; ++tile) mask |= bit(tile);
    return mask;
}
constexpr Mask kAll = span(0, kKinds);
constexpr Mask kHonors = span(kEast, kKinds);
constexpr Mask kTerminals = bit(0) | bit(8) | bit(9) | bit(17) | bit(18) | bit(26);
constexpr Mask kOrphans = kTerminals | kHonors;
constexpr Mask kGreen = bit(19) | bit(20) | bit(21) | bit(23) | bit(25) | bit(32);  // 2s 3s 4s 6s 8s, hatsu
constexpr Mask kSuitMasks[3] = {span(0, 9), span(9, 18), span(18, 27)};
constexpr int kSingleSuit[8] = {-1, 0, 1, -1, 2, -1, -1, -1};  // by the set of suits held: the one suit, or -1
constexpr std::uint8_t kChuurenBase[9] = {3, 1, 1, 1, 1, 1, 1, 1, 3};
constexpr std::uint8_t kOrphanTiles[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

// Han of each ordinary yaku, closed and open (0: not allowed open), in Yaku's order.
struct HanOf {
    std::uint8_t closed, open;
};
constexpr HanOf kHan[] = {
    {1, 0}, {2, 0}, {1, 0}, {1, 0}, {1, 1}, {1, 1}, {1, 1}, {1, 1},          // riichi .. chankan
    {1, 0}, {1, 1}, {1, 0}, {3, 0}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1},  // pinfu .. round_wind
    {2, 0}, {2, 1}, {3, 2}, {2, 1}, {2, 1}, {2, 2}, {2, 2}, {2, 2},          // chiitoitsu .. toitoi
    {2, 2}, {2, 2}, {2, 2}, {3, 2}, {6, 5},                                  // sanankou .. chinitsu
};
static_assert(sizeof(kHan) / sizeof(kHan[0]) == static_cast<int>(Yaku::Chinitsu) + 1);

constexpr const char* kYakuNames[kYakuKinds] = {
    "riichi", "double_riichi", "ippatsu", "menzen_tsumo", "haitei", "houtei", "rinshan", "chankan",
    "pinfu", "tanyao", "iipeikou", "ryanpeikou", "haku", "hatsu", "chun", "seat_wind", "round_wind",
    "chiitoitsu", "chanta", "junchan", "ittsu", "sanshoku", "sanshoku_doukou", "sankantsu", "toitoi",
    "sanankou", "shousangen", "honroutou", "honitsu", "chinitsu",
    "dora", "aka_dora", "ura_dora", "nuki_dora",
    "tenhou", "chiihou", "kokushi", "kokushi_13", "tsuuiisou", "ryuuiisou", "chinroutou", "suuankou",
    "suuankou_tanki", "daisangen", "daisuushii", "shousuushii", "suukantsu", "chuuren", "junsei_chuuren",
};
constexpr const char* kFuReasonNames[kFuReasons] = {
    "base", "chiitoitsu", "closed_ron", "self_draw", "open_pinfu", "wait_kanchan", "wait_penchan", "wait_tanki",
    "pair_dragon", "pair_seat_wind", "pair_round_wind",
    "open_triplet_simple", "open_triplet_terminal_or_honor", "open_kan_simple", "open_kan_terminal_or_honor",
    "closed_triplet_simple", "closed_triplet_terminal_or_honor", "closed_kan_simple",
    "closed_kan_terminal_or_honor",
};
constexpr int kFuReasonPoints[kFuReasons] = {20, 25, 10, 2, 10, 2, 2, 2, 2, 2, 2, 2, 4, 8, 16, 4, 8, 16, 32};
constexpr const char* kFormNames[] = {"regular", "seven_pairs", "thirteen_orphans"};
constexpr const char* kWaitNames[] = {"ryanmen", "kanchan", "penchan", "shanpon", "tanki", "kokushi_13"};
constexpr const char* kLimitNames[] = {nullptr, "mangan", "haneman", "baiman", "sanbaiman", "yakuman"};

constexpr int round_up_100(int points) { return (points + 99) / 100 * 100; }

struct YakuList {
    std::array<YakuItem, kMaxYaku> items;
    int count = 0;
    void add(Yaku yaku, int han, int yakuman = 0) {
        if (count < kMaxYaku) items[count++] = {yaku, static_cast<std::uint8_t>(han), static_cast<std::uint8_t>(yakuman)};
    }
};

// What the kinds of tile held (hand and melds) say, worked out once per hand.
struct Held {
    std::array<std::uint8_t, kKinds> total{};  // copies in hand and melds (a kan's four counted)
    bool no_orphans, all_orphans, all_honors, all_green, all_terminals, has_honors;
    int single_suit;     // the suit when the number tiles are all of one suit, else -1 (none or several)
    int kinds_at_three;  // kinds held three times or more
};

Held held_of(const std::uint8_t* concealed, const Meld* melds, int meld_count) {
    Held held;
    std::memcpy(held.total.data(), concealed, kKinds);
    for (int i = 0; i < meld_count; ++i) {
        const int first = melds[i].first;
        switch (melds[i].kind) {
            case MeldKind::Chi:
                for (int t = first; t < first + 3 && t < kKinds; ++t) ++held.total[t];
                break;
            case MeldKind::Pon: held.total[first] += 3; break;
            default: held.total[first] += 4; break;
        }
    }
    Mask mask = 0;
    held.kinds_at_three = 0;
    for (int t = 0; t < kKinds; ++t) {
        if (held.total[t]) mask |= bit(t);
        held.kinds_at_three += held.total[t] >= 3;
    }
    held.no_orphans = !(mask & kOrphans);
    held.all_orphans = !(mask & ~kOrphans & kAll);
    held.all_honors = !(mask & ~kHonors & kAll);
    held.all_green = !(mask & ~kGreen & kAll);
    held.all_terminals = !(mask & ~kTerminals & kAll);
    held.has_honors = (mask & kHonors) != 0;
    const int suits = ((mask & kSuitMasks[0]) ? 1 : 0) | ((mask & kSuitMasks[1]) ? 2 : 0) | ((mask & kSuitMasks[2]) ? 4 : 0);
    held.single_suit = kSingleSuit[suits];
    return held;
}

// -- the splits of one suit -------------------------------------------------------------

// A split of one suit: its pair (local index, -1: none) and groups, each as 2 x its local
// first tile + 1 for a run, ascending (a triplet before a run from the same tile).
struct SuitSplit {
    std::int8_t pair;
    std::uint8_t count;
    std::array<std::uint8_t, 4> keys;
};
// A suit of at most 14 tiles has at most 4 distinct splits (6789 of one suit held 3, 4, 4 and 3
// times, say; found by enumerating every suit of up to 14 tiles); the room left is a margin.
constexpr int kMaxSuitSplits = 8;

bool split_before(const SuitSplit& a, const SuitSplit& b) {
    if (a.pair != b.pair) return a.pair < b.pair;
    return std::lexicographical_compare(a.keys.begin(), a.keys.begin() + a.count, b.keys.begin(),
                                        b.keys.begin() + b.count);
}
bool same_split(const SuitSplit& a, const SuitSplit& b) {
    return a.pair == b.pair && a.count == b.count && std::equal(a.keys.begin(), a.keys.begin() + a.count, b.keys.begin());
}

struct SuitSplits {
    std::array<SuitSplit, kMaxSuitSplits> splits;
    int count = 0;
    bool with_pair = false;
};

struct SuitWalk {
    std::uint8_t work[9];
    int width;
    bool runs;
    bool with_pair;
    std::uint8_t keys[4];
    int key_count = 0;
    SuitSplits* out;

    // The pair may be taken before or after the groups around it: keep each split once.
    void record(int pair) {
        SuitSplit split{static_cast<std::int8_t>(pair), static_cast<std::uint8_t>(key_count), {}};
        for (int i = 0; i < key_count; ++i) split.keys[i] = keys[i];
        std::sort(split.keys.begin(), split.keys.begin() + key_count);
        for (int i = 0; i < out->count; ++i) {
            if (same_split(out->splits[i], split)) return;
        }
        if (out->count < kMaxSuitSplits) out->splits[out->count++] = split;
    }

    // The lowest tile left belongs to a group or the pair that starts with it.
    void walk(int pair) {
        int first = 0;
        while (first < width && !work[first]) ++first;
        if (first == width) {
            if ((pair >= 0) == with_pair) record(pair);
            return;
        }
        if (key_count < 4 && work[first] >= 3) {
            work[first] -= 3;
            keys[key_count++] = static_cast<std::uint8_t>(2 * first);
            walk(pair);
            --key_count;
            work[first] += 3;
        }
        if (key_count < 4 && runs && first <= width - 3 && work[first + 1] && work[first + 2]) {
            --work[first], --work[first + 1], --work[first + 2];
            keys[key_count++] = static_cast<std::uint8_t>(2 * first + 1);
            walk(pair);
            --key_count;
            ++work[first], ++work[first + 1], ++work[first + 2];
        }
        if (with_pair && pair < 0 && work[first] >= 2) {
            work[first] -= 2;
            walk(first);
            work[first] += 2;
        }
    }
};

// Every distinct split of one suit's counts, in the order (pair, groups); none when the
// suit's tile count is not a whole number of groups and at most one pair.
void split_suit(const std::uint8_t* counts, int width, bool runs, SuitSplits& out) {
    int tiles = 0;
    for (int i = 0; i < width; ++i) tiles += counts[i];
    out.count = 0;
    out.with_pair = tiles % 3 == 2;
    if (tiles % 3 == 1) return;
    SuitWalk walk;
    std::memcpy(walk.work, counts, width);
    walk.width = width;
    walk.runs = runs;
    walk.with_pair = out.with_pair;
    walk.out = &out;
    walk.walk(-1);
    std::sort(out.splits.begin(), out.splits.begin() + out.count, split_before);
}

Wait wait_of_run(int first, int win_tile) {
    const int offset = win_tile - first;
    if (offset == 1) return Wait::Kanchan;
    const int number = first % 9;
    if ((offset == 2 && number == 0) || (offset == 0 && number == 6)) return Wait::Penchan;
    return Wait::Ryanmen;
}

bool is_closed_wait(Wait wait) { return wait == Wait::Kanchan || wait == Wait::Penchan || wait == Wait::Tanki; }

FuReason group_reason(const Group& group) {
    return static_cast<FuReason>(static_cast<int>(FuReason::OpenTripletSimple) + 4 * group.concealed +
                                 2 * group.is_kan + is_orphan(group.first));
}

// -- the scorer --------------------------------------------------------------------------

class Scorer {
public:
    Scorer(const std::uint8_t* concealed, const Meld* melds, int meld_count, int win_tile, const Options& options,
           const Situation& situation)
        : concealed_(concealed), melds_(melds), meld_count_(meld_count), win_tile_(win_tile), options_(options),
          situation_(situation), held_(held_of(concealed, melds, meld_count)) {
        tsumo_ = situation.discarder < 0;
        const int seats = options.seats > 0 ? options.seats : 4;
        seat_wind_ = kEast + ((situation.winner - situation.dealer) % seats + seats) % seats;
        round_wind_ = situation.round_wind;
        closed_ = true;
        for (int i = 0; i < meld_count; ++i) closed_ = closed_ && melds[i].kind == MeldKind::ClosedKan;
        for (int t = 0; t < kKinds; ++t) tiles_ += concealed[t];
    }

    Score run() {
        Score result;
        const bool plain_forms = meld_count_ == 0 && tiles_ == 14;
        const bool orphans_form = plain_forms && options_.thirteen_orphans && is_thirteen_orphans();
        check_yakuman_ = situation_.first_turn || may_be_yakuman(orphans_form);
        situational_yaku();
        bonus_yaku();
        regular_readings();
        if (plain_forms) {
            seven_pairs_reading();
            if (orphans_form) thirteen_orphans_reading();
        }
        if (readings_ == 0) {
            result.status = Status::NotAWinningHand;
            return result;
        }
        if (best_yakuman_count_ > 0) {
            finish_yakuman(result);
        } else if (best_han_ < 0) {
            result.status = Status::NoYaku;
            return result;
        } else {
            finish_ordinary(result);
        }
        result.status = Status::Won;
        const Settlement settlement =
            settle(result.base_points, situation_.winner, situation_.dealer, situation_.discarder, situation_.honba,
                   options_);
        result.payments = settlement.payments;
        result.per_payer = settlement.per_payer;
        result.payer_count = settlement.payer_count;
        result.riichi_sticks_won = 1000 * situation_.riichi_sticks;
        return result;
    }

private:
    const std::uint8_t* concealed_;
    const Meld* melds_;
    int meld_count_;
    int win_tile_;
    const Options& options_;
    const Situation& situation_;
    Held held_;
    bool tsumo_ = false;
    bool closed_ = true;
    int seat_wind_ = kEast;
    int round_wind_ = kEast;
    int tiles_ = 0;
    bool check_yakuman_ = false;
    YakuList situational_;
    YakuList bonus_;
    int bonus_han_ = 0;
    int readings_ = 0;
    // The best yakuman reading so far (count 0: none).
    int best_yakuman_count_ = 0;
    YakuList best_yakuman_;
    Reading best_yakuman_reading_;
    // The best ordinary reading so far, ranked by (base, han, fu) (han -1: none).
    int best_base_ = -1, best_han_ = -1, best_fu_ = -1;
    Limit best_limit_ = Limit::None;
    bool best_pinfu_ = false;
    YakuList best_yaku_;
    Reading best_reading_;

    bool is_thirteen_orphans() const {
        int kinds = 0;
        for (int t = 0; t < kKinds; ++t) {
            if (!concealed_[t]) continue;
            if (!is_orphan(t)) return false;
            ++kinds;
        }
        return kinds == 13;
    }

    // Every pattern yakuman but tenhou and chiihou needs one of: thirteen orphans; a hand of
    // honours, greens or terminals only; three or more kinds held three times or more (the
    // dragon and wind yakuman, suuankou, suukantsu); a closed hand of one suit (chuuren).
    bool may_be_yakuman(bool orphans_form) const {
        if (held_.all_honors || held_.all_green || held_.all_terminals) return true;
        if (meld_count_ == 0 && held_.single_suit >= 0 && !held_.has_honors) return true;
        return orphans_form || held_.kinds_at_three >= 3;
    }

    void situational_yaku() {
        const Situation& s = situation_;
        const auto add = [this](Yaku yaku) { situational_.add(yaku, kHan[static_cast<int>(yaku)].closed); };
        if (s.double_riichi) {
            add(Yaku::DoubleRiichi);
        } else if (s.riichi) {
            add(Yaku::Riichi);
        }
        if (s.ippatsu) add(Yaku::Ippatsu);
        if (closed_ && tsumo_) add(Yaku::MenzenTsumo);
        if (s.last_tile) add(tsumo_ ? Yaku::Haitei : Yaku::Houtei);
        if (s.kong_replacement) add(Yaku::Rinshan);
        if (s.robbed_kong) add(Yaku::Chankan);
    }

    int dora_in(const std::vector<std::uint8_t>& indicators) const {
        int dora = 0;
        for (const std::uint8_t indicator : indicators) {
            if (indicator >= kKinds) continue;
            const int tile = options_.dora_of[indicator];
            if (tile >= kKinds) continue;
            // A north set aside is a dora of its own, and one more for each indicator showing north.
            dora += held_.total[tile] + (tile == kNorth ? situation_.nuki : 0);
        }
        return dora;
    }

    void bonus_yaku() {
        const Situation& s = situation_;
        if (const int dora = dora_in(s.dora_indicators)) bonus_.add(Yaku::Dora, dora);
        if (options_.red_fives && s.red_fives) bonus_.add(Yaku::AkaDora, s.red_fives);
        if (s.riichi || s.double_riichi) {
            if (const int ura = dora_in(s.ura_indicators)) bonus_.add(Yaku::UraDora, ura);
        }
        if (s.nuki) bonus_.add(Yaku::NukiDora, s.nuki);
        for (int i = 0; i < bonus_.count; ++i) bonus_han_ += bonus_.items[i].han;
    }

    // -- readings -----------------------------------------------------------------------

    Group declared_group(const Meld& meld) const {
        const bool kan = meld.kind != MeldKind::Chi && meld.kind != MeldKind::Pon;
        return {meld.kind == MeldKind::Chi, meld.first, meld.kind == MeldKind::ClosedKan, kan};
    }

    void regular_readings() {
        static constexpr int kStarts[4] = {0, 9, 18, 27};
        static constexpr int kWidths[4] = {9, 9, 9, 7};
        SuitSplits suits[4];
        int pair_suits = 0;
        for (int s = 0; s < 4; ++s) {
            bool empty = true;
            for (int i = 0; i < kWidths[s]; ++i) empty = empty && !concealed_[kStarts[s] + i];
            if (empty) {
                suits[s].count = 1;
                suits[s].splits[0] = SuitSplit{-1, 0, {}};
                continue;
            }
            split_suit(concealed_ + kStarts[s], kWidths[s], s < 3, suits[s]);
            if (suits[s].count == 0) return;
            pair_suits += suits[s].with_pair;
        }
        if (pair_suits != 1) return;
        Group declared[4];
        const int declared_count = std::min(meld_count_, 4);
        for (int i = 0; i < declared_count; ++i) declared[i] = declared_group(melds_[i]);
        // Every combination of the suits' splits, the last suit's turning fastest.
        int index[4] = {0, 0, 0, 0};
        while (true) {
            Group concealed[4];
            int count = 0;
            int pair = -1;
            bool fits = true;
            for (int s = 0; s < 4 && fits; ++s) {
                const SuitSplit& split = suits[s].splits[index[s]];
                if (split.pair >= 0) pair = kStarts[s] + split.pair;
                for (int k = 0; k < split.count; ++k) {
                    if (count == 4) {
                        fits = false;
                        break;
                    }
                    concealed[count++] = {(split.keys[k] & 1) != 0,
                                          static_cast<std::uint8_t>(kStarts[s] + split.keys[k] / 2), true, false};
                }
            }
            if (fits && count + declared_count <= 4) readings_of_split(pair, concealed, count, declared, declared_count);
            int s = 3;
            while (s >= 0 && ++index[s] == suits[s].count) index[s--] = 0;
            if (s < 0) break;
        }
    }

    void readings_of_split(int pair, const Group* concealed, int count, const Group* declared, int declared_count) {
        Reading reading;
        reading.form = Form::Regular;
        reading.pair = static_cast<std::uint8_t>(pair);
        reading.group_count = static_cast<std::uint8_t>(count + declared_count);
        for (int i = 0; i < count; ++i) reading.groups[i] = concealed[i];
        for (int i = 0; i < declared_count; ++i) reading.groups[count + i] = declared[i];
        if (pair == win_tile_) {
            reading.wait = Wait::Tanki;
            consider(reading);
        }
        const Group* previous = nullptr;
        for (int i = 0; i < count; ++i) {
            const Group& group = concealed[i];
            Group finished = group;
            if (group.is_run) {
                if (group.first > win_tile_ || win_tile_ > group.first + 2) continue;
                // Groups come sorted, so a twin run (iipeikou) sits next to its twin: read once.
                if (previous && previous->is_run && previous->first == group.first) continue;
                reading.wait = wait_of_run(group.first, win_tile_);
            } else {
                if (group.first != win_tile_) continue;
                reading.wait = Wait::Shanpon;
                // A triplet finished by a discard is an open one (fu, sanankou, suuankou).
                finished.concealed = tsumo_;
            }
            previous = &group;
            reading.groups[i] = finished;
            consider(reading);
            reading.groups[i] = group;
        }
    }

    void seven_pairs_reading() {
        if (!options_.seven_pairs) return;
        int twos = 0, fours = 0;
        for (int t = 0; t < kKinds; ++t) {
            twos += concealed_[t] == 2;
            fours += concealed_[t] == 4;
        }
        if (twos + (options_.seven_pairs_quad_as_two ? 2 * fours : 0) != 7) return;
        Reading reading;
        reading.form = Form::SevenPairs;
        reading.wait = Wait::Tanki;
        for (int t = 0; t < kKinds; ++t) {
            for (int copies = concealed_[t]; copies >= 2 && reading.pair_count < 7; copies -= 2) {
                reading.pairs[reading.pair_count++] = static_cast<std::uint8_t>(t);
            }
        }
        reading.pair = reading.pairs[0];
        consider(reading);
    }

    void thirteen_orphans_reading() {
        Reading reading;
        reading.form = Form::ThirteenOrphans;
        for (const std::uint8_t t : kOrphanTiles) {
            if (concealed_[t] == 2) {
                reading.pair = t;
                break;
            }
        }
        reading.wait = reading.pair == win_tile_ ? Wait::Kokushi13 : Wait::Tanki;
        consider(reading);
    }

    void consider(const Reading& reading) {
        ++readings_;
        if (check_yakuman_) {
            YakuList found;
            yakuman(reading, found);
            if (found.count) {
                int count = 0;
                for (int i = 0; i < found.count; ++i) {
                    const int worth = found.items[i].yakuman;
                    count = options_.yakuman_stacking ? count + worth : std::max(count, worth);
                }
                if (count > best_yakuman_count_) {
                    best_yakuman_count_ = count;
                    best_yakuman_ = found;
                    best_yakuman_reading_ = reading;
                }
            }
        }
        if (best_yakuman_count_ > 0) return;  // a yakuman outranks every ordinary reading
        YakuList yaku = situational_;
        ordinary_yaku(reading, yaku);
        if (yaku.count == 0) return;
        int han = bonus_han_;
        bool pinfu = false;
        for (int i = 0; i < yaku.count; ++i) {
            han += yaku.items[i].han;
            pinfu = pinfu || yaku.items[i].yaku == Yaku::Pinfu;
        }
        const int fu = fu_points(reading, pinfu);
        const Limited limited = limit_of(han, fu, options_);
        const bool better = limited.base != best_base_ ? limited.base > best_base_
                            : han != best_han_          ? han > best_han_
                                                        : fu > best_fu_;
        if (!better) return;
        best_base_ = limited.base;
        best_han_ = han;
        best_fu_ = fu;
        best_limit_ = limited.limit;
        best_pinfu_ = pinfu;
        best_yaku_ = yaku;
        best_reading_ = reading;
    }

    // -- yakuman --------------------------------------------------------------------------

    void yakuman(const Reading& reading, YakuList& found) const {
        const int twice = options_.double_yakuman ? 2 : 1;
        const auto add = [&found](Yaku yaku, int count) { found.add(yaku, 13 * count, count); };
        if (situation_.first_turn) add(situation_.winner == situation_.dealer ? Yaku::Tenhou : Yaku::Chiihou, 1);
        if (reading.form == Form::ThirteenOrphans) {
            if (reading.wait == Wait::Kokushi13) {
                add(Yaku::Kokushi13, twice);
            } else {
                add(Yaku::Kokushi, 1);
            }
            return;
        }
        if (held_.all_honors) add(Yaku::Tsuuiisou, 1);
        if (held_.all_green) add(Yaku::Ryuuiisou, 1);
        if (held_.all_terminals) add(Yaku::Chinroutou, 1);
        if (reading.form == Form::SevenPairs) return;
        int triplets = 0, concealed_triplets = 0, dragons = 0, winds = 0, kans = 0;
        for (int i = 0; i < reading.group_count; ++i) {
            const Group& group = reading.groups[i];
            kans += group.is_kan;
            if (group.is_run) continue;
            ++triplets;
            concealed_triplets += group.concealed;
            dragons += group.first >= kWhite;
            winds += group.first >= kEast && group.first <= kNorth;
        }
        if (triplets == 4 && concealed_triplets == 4) {
            if (reading.wait == Wait::Tanki) {
                add(Yaku::SuuankouTanki, twice);
            } else {
                add(Yaku::Suuankou, 1);
            }
        }
        if (dragons == 3) add(Yaku::Daisangen, 1);
        if (winds == 4) {
            add(Yaku::Daisuushii, twice);
        } else if (winds == 3 && reading.pair >= kEast && reading.pair <= kNorth) {
            add(Yaku::Shousuushii, 1);
        }
        if (kans == 4) add(Yaku::Suukantsu, 1);
        const int suit = held_.single_suit;
        if (meld_count_ == 0 && suit >= 0 && !held_.has_honors) {
            const std::uint8_t* local = held_.total.data() + 9 * suit;
            bool covers = true, exact = true;
            for (int i = 0; i < 9; ++i) {
                covers = covers && local[i] >= kChuurenBase[i];
                const int before = local[i] - (win_tile_ == 9 * suit + i ? 1 : 0);
                exact = exact && before == kChuurenBase[i];
            }
            if (covers) {
                if (exact) {
                    add(Yaku::JunseiChuuren, twice);
                } else {
                    add(Yaku::Chuuren, 1);
                }
            }
        }
    }

    // -- ordinary yaku --------------------------------------------------------------------

    void ordinary_yaku(const Reading& reading, YakuList& found) const {
        const bool closed = closed_;
        const auto add = [&found, closed](Yaku yaku) {
            const HanOf han = kHan[static_cast<int>(yaku)];
            found.add(yaku, closed ? han.closed : han.open);
        };
        const bool honors = held_.has_honors;
        if (held_.no_orphans && (closed || options_.open_tanyao)) add(Yaku::Tanyao);
        if (held_.single_suit >= 0) add(honors ? Yaku::Honitsu : Yaku::Chinitsu);
        if (held_.all_orphans) add(Yaku::Honroutou);
        if (reading.form == Form::SevenPairs) {
            add(Yaku::Chiitoitsu);
            return;
        }
        std::uint8_t runs_from[kKinds] = {};  // runs by their first tile
        Mask triplet_tiles = 0;
        int runs = 0, triplets = 0, kans = 0, concealed_triplets = 0, dragon_triplets = 0;
        bool orphan_in_every_group = true;
        for (int i = 0; i < reading.group_count; ++i) {
            const Group& group = reading.groups[i];
            const int first = group.first;
            if (group.is_run) {
                ++runs;
                ++runs_from[first];
                if (first % 9 != 0 && first % 9 != 6) orphan_in_every_group = false;
                continue;
            }
            ++triplets;
            triplet_tiles |= bit(first);
            kans += group.is_kan;
            concealed_triplets += group.concealed;
            if (first < kEast && first % 9 != 0 && first % 9 != 8) orphan_in_every_group = false;
            if (first >= kWhite) {
                ++dragon_triplets;
                add(static_cast<Yaku>(static_cast<int>(Yaku::Haku) + first - kWhite));
            } else if (first >= kEast) {
                if (first == seat_wind_) add(Yaku::SeatWind);
                if (first == round_wind_) add(Yaku::RoundWind);
            }
        }
        const int pair = reading.pair;
        if (runs) {
            if (closed && runs == 4 && reading.wait == Wait::Ryanmen && pair < kWhite && pair != seat_wind_ &&
                pair != round_wind_) {
                add(Yaku::Pinfu);
            }
            if (closed && runs >= 2) {
                int twins = 0;
                for (int t = 0; t < kEast; ++t) twins += runs_from[t] / 2;
                if (twins >= 2) {
                    add(Yaku::Ryanpeikou);
                } else if (twins == 1) {
                    add(Yaku::Iipeikou);
                }
            }
            if (orphan_in_every_group && is_orphan(pair)) add(honors ? Yaku::Chanta : Yaku::Junchan);
            if (runs >= 3) {
                for (const int start : {0, 9, 18}) {
                    if (runs_from[start] && runs_from[start + 3] && runs_from[start + 6]) {
                        add(Yaku::Ittsu);
                        break;
                    }
                }
                for (int number = 0; number < 7; ++number) {
                    if (runs_from[number] && runs_from[number + 9] && runs_from[number + 18]) {
                        add(Yaku::Sanshoku);
                        break;
                    }
                }
            }
        }
        if (triplets >= 3) {
            for (int number = 0; number < 9; ++number) {
                const Mask three = bit(number) | bit(number + 9) | bit(number + 18);
                if ((triplet_tiles & three) == three) {
                    add(Yaku::SanshokuDoukou);
                    break;
                }
            }
            if (kans == 3) add(Yaku::Sankantsu);
            if (triplets == 4) add(Yaku::Toitoi);
            if (concealed_triplets == 3) add(Yaku::Sanankou);
        }
        if (dragon_triplets == 2 && pair >= kWhite) add(Yaku::Shousangen);
    }

    // -- fu and the answer --------------------------------------------------------------

    int fu_points(const Reading& reading, bool pinfu) const {
        if (reading.form == Form::SevenPairs) return 25;
        if (pinfu && tsumo_) return 20;
        int fu = 20;
        if (tsumo_) {
            fu += 2;
        } else if (closed_) {
            fu += 10;
        }
        for (int i = 0; i < reading.group_count; ++i) {
            const Group& group = reading.groups[i];
            if (!group.is_run) fu += kFuReasonPoints[static_cast<int>(group_reason(group))];
        }
        const int pair = reading.pair;
        if (pair >= kWhite) {
            fu += 2;
        } else {
            fu += 2 * (pair == seat_wind_) + 2 * (pair == round_wind_);
        }
        if (is_closed_wait(reading.wait)) fu += 2;
        if (fu == 20 && !closed_) return 30;  // an open hand with nothing but the base (kuipinfu)
        return (fu + 9) / 10 * 10;
    }

    void fu_items(const Reading& reading, bool pinfu, Score& result) const {
        auto add = [&result](FuReason reason, int tile = -1) {
            if (result.fu_count < kMaxFuItems) result.fu_items[result.fu_count++] = {reason, static_cast<std::int8_t>(tile)};
        };
        if (reading.form == Form::SevenPairs) {
            add(FuReason::Chiitoitsu);
            return;
        }
        add(FuReason::Base);
        if (pinfu && tsumo_) return;
        if (closed_ && !tsumo_) add(FuReason::ClosedRon);
        if (tsumo_) add(FuReason::SelfDraw);
        for (int i = 0; i < reading.group_count; ++i) {
            const Group& group = reading.groups[i];
            if (!group.is_run) add(group_reason(group), group.first);
        }
        const int pair = reading.pair;
        if (pair >= kWhite) add(FuReason::PairDragon, pair);
        if (pair == seat_wind_) add(FuReason::PairSeatWind, pair);
        if (pair == round_wind_) add(FuReason::PairRoundWind, pair);
        if (reading.wait == Wait::Kanchan) add(FuReason::WaitKanchan);
        if (reading.wait == Wait::Penchan) add(FuReason::WaitPenchan);
        if (reading.wait == Wait::Tanki) add(FuReason::WaitTanki);
        int raw = 0;
        for (int i = 0; i < result.fu_count; ++i) raw += kFuReasonPoints[static_cast<int>(result.fu_items[i].reason)];
        if (raw == 20 && !closed_) add(FuReason::OpenPinfu);
    }

    void finish_yakuman(Score& result) const {
        const int count = best_yakuman_count_;
        if (options_.yakuman_stacking) {
            result.yaku_count = best_yakuman_.count;
            for (int i = 0; i < best_yakuman_.count; ++i) result.yaku[i] = best_yakuman_.items[i];
        } else {
            // Only the largest counts: the first of the largest.
            int largest = 0;
            for (int i = 1; i < best_yakuman_.count; ++i) {
                if (best_yakuman_.items[i].yakuman > best_yakuman_.items[largest].yakuman) largest = i;
            }
            result.yaku[0] = best_yakuman_.items[largest];
            result.yaku_count = 1;
        }
        result.han = 13 * count;
        result.fu = 0;
        result.limit = Limit::Yakuman;
        result.yakuman_count = count;
        result.base_points = kYakumanBase * count;
        result.reading = best_yakuman_reading_;
    }

    void finish_ordinary(Score& result) const {
        result.han = best_han_;
        result.fu = best_fu_;
        result.base_points = best_base_;
        result.limit = best_limit_;
        result.yakuman_count = best_limit_ == Limit::Yakuman ? 1 : 0;
        result.yaku_count = 0;
        for (int i = 0; i < best_yaku_.count && result.yaku_count < kMaxYaku; ++i) {
            result.yaku[result.yaku_count++] = best_yaku_.items[i];
        }
        for (int i = 0; i < bonus_.count && result.yaku_count < kMaxYaku; ++i) {
            result.yaku[result.yaku_count++] = bonus_.items[i];
        }
        result.reading = best_reading_;
        fu_items(best_reading_, best_pinfu_, result);
    }
};

}  // namespace

const char* yaku_name(Yaku yaku) { return kYakuNames[static_cast<int>(yaku)]; }
const char* fu_reason_name(FuReason reason) { return kFuReasonNames[static_cast<int>(reason)]; }
int fu_reason_points(FuReason reason) { return kFuReasonPoints[static_cast<int>(reason)]; }
const char* form_name(Form form) { return kFormNames[static_cast<int>(form)]; }
const char* wait_name(Wait wait) { return kWaitNames[static_cast<int>(wait)]; }
const char* limit_name(Limit limit) { return kLimitNames[static_cast<int>(limit)]; }

Score score(const std::uint8_t* concealed, const Meld* melds, int meld_count, int win_tile, const Options& options,
            const Situation& situation) {
    if (win_tile < 0 || win_tile >= kKinds || meld_count < 0 || meld_count > 4) return Score{};
    for (int i = 0; i < meld_count; ++i) {
        const int first = melds[i].first;
        if (first >= kKinds || (melds[i].kind == MeldKind::Chi && (first >= kEast || first % 9 > 6))) return Score{};
    }
    return Scorer(concealed, melds, meld_count, win_tile, options, situation).run();
}

Limited limit_of(int han, int fu, const Options& options) {
    if (han >= 13) return options.kazoe_yakuman ? Limited{Limit::Yakuman, 8000} : Limited{Limit::Sanbaiman, 6000};
    if (han >= 11) return {Limit::Sanbaiman, 6000};
    if (han >= 8) return {Limit::Baiman, 4000};
    if (han >= 6) return {Limit::Haneman, 3000};
    const int base = fu << (2 + std::max(han, 0));
    if (han >= 5 || base >= 2000 || (options.kiriage && ((han == 4 && fu == 30) || (han == 3 && fu == 60)))) {
        return {Limit::Mangan, 2000};
    }
    return {Limit::None, base};
}

int base_points(int han, int fu, const Options& options) { return limit_of(han, fu, options).base; }

Settlement settle(int base, int winner, int dealer, int discarder, int honba, const Options& options) {
    Settlement out;
    const int seats = std::min(std::max(options.seats, 0), 4);
    if (discarder >= 0) {
        const int pays = round_up_100(base * (winner == dealer ? 6 : 4)) + 100 * (seats - 1) * honba;
        out.per_payer[out.payer_count++] = {discarder, pays};
    } else {
        // The seat missing at a three-player table would have paid as a non-dealer.
        const int missing = seats == 4 || options.tsumo_loss ? 0 : round_up_100(base * (winner == dealer ? 2 : 1));
        const int extra = missing ? round_up_100(missing / 2) : 0;
        for (int seat = 0; seat < seats && out.payer_count < 3; ++seat) {
            if (seat == winner) continue;
            const int share = round_up_100(base * (seat == dealer || winner == dealer ? 2 : 1));
            out.per_payer[out.payer_count++] = {seat, share + extra + 100 * honba};
        }
    }
    for (int i = 0; i < out.payer_count; ++i) {
        const Payer& payer = out.per_payer[i];
        if (payer.seat < 0 || payer.seat >= 4 || winner < 0 || winner >= 4) continue;
        out.payments[payer.seat] -= payer.points;
        out.payments[winner] += payer.points;
    }
    return out;
}

std::array<int, 4> payments(int base, int winner, int dealer, int discarder, int honba, const Options& options) {
    return settle(base, winner, dealer, discarder, honba, options).payments;
}

}  // namespace tenpai::riichi

// -- Python --------------------------------------------------------------------------------
//
// riichi_score and riichi_score_checked build the answer, app.core.value.riichi_scoring.RiichiScore,
// themselves: its NamedTuples are filled the way tuple.__new__ fills them, from objects made once
// at install_riichi_answers (every YakuHan, FuPart and Group a score can hold, and the names).
// A score takes well under a microsecond, so the answer's Python objects are a good part of the
// call; riichi_payments_checked builds only the payments, for callers that need no more.

namespace py = pybind11;

namespace tenpai::riichi {
namespace {

constexpr int kHanTable = 64;  // YakuHan objects made ahead for han 0..63; above, made per answer

const char* const kScoreFields[] = {"payments", "per_payer", "han", "fu", "yaku", "fu_details", "limit",
                                    "yakuman_count", "base_points", "riichi_sticks_won", "reading", "multipliers"};
const char* const kReadingFields[] = {"form", "pair", "groups", "pairs", "wait"};
// The WinContext fields riichi_score reads, found by name in WinContext._fields at install.
const char* const kContextFields[] = {"winner", "dealer", "discarder", "kong_replacement", "robbed_kong",
                                      "round_wind", "dora_indicators", "ura_indicators", "red_fives", "riichi",
                                      "double_riichi", "ippatsu", "last_tile", "first_turn", "honba",
                                      "riichi_sticks", "nuki"};
enum ContextField {
    kWinner, kDealer, kDiscarder, kKongReplacement, kRobbedKong, kRoundWind, kDoraIndicators, kUraIndicators,
    kRedFives, kRiichi, kDoubleRiichi, kIppatsu, kLastTile, kFirstTurn, kHonba, kRiichiSticks, kNuki, kContextCount
};

struct Answers {
    py::object score_type, reading_type, yaku_han_type;
    std::vector<py::object> yaku_han;   // [yaku * kHanTable + han]
    std::vector<py::object> fu_parts;   // [reason * 35 + tile + 1]
    std::vector<py::object> groups;     // [((is_run * 34 + first) * 2 + concealed) * 2 + is_kan]
    std::vector<py::object> forms, waits, limits, yaku_names;
    std::array<py::object, 5> meld_kinds;  // MeldKind members in MeldKind's order
    std::array<int, kContextCount> context_index{};
    py::object empty_tuple, counts_name, melds_name, kind_name, tiles_name;
};
// Made once, with the GIL held, and never freed: its objects must outlive every call, and
// releasing them after the interpreter is gone would crash at exit.
const Answers* installed = nullptr;

const Answers& answers() {
    if (installed == nullptr) throw std::logic_error("riichi answers not installed (app.core.value.riichi_scoring)");
    return *installed;
}

void check_fields(const py::handle& type, const char* const* names, std::size_t count, const char* what) {
    const py::tuple fields = type.attr("_fields");
    bool same = fields.size() == count;
    for (std::size_t i = 0; same && i < count; ++i) same = fields[i].cast<std::string>() == names[i];
    if (!same) throw std::invalid_argument(std::string(what) + ": its fields are not the ones the kernel fills");
}

// A NamedTuple of `type` with room for `size` items, filled by the caller (as tuple.__new__ does).
PyObject* new_named_tuple(const py::object& type, Py_ssize_t size) {
    auto* tuple_type = reinterpret_cast<PyTypeObject*>(type.ptr());
    PyObject* made = tuple_type->tp_alloc(tuple_type, size);
    if (made == nullptr) throw py::error_already_set();
    return made;
}

PyObject* new_ref(const py::object& object) { return py::object(object).release().ptr(); }

PyObject* int_object(long value) {
    PyObject* made = PyLong_FromLong(value);
    if (made == nullptr) throw py::error_already_set();
    return made;
}

// Payments, base points and sticks are mostly multiples of 100 of a few thousand points: those
// come from ints made once (a new int for each would be a good part of an answer's cost).
constexpr long kCachedPoints = 200000;

PyObject* points_object(long value) {
    static const std::vector<PyObject*> cached = [] {  // made with the GIL held; never freed
        std::vector<PyObject*> made;
        for (long points = -kCachedPoints; points <= kCachedPoints; points += 100) made.push_back(int_object(points));
        return made;
    }();
    if (value % 100 != 0 || value < -kCachedPoints || value > kCachedPoints) return int_object(value);
    PyObject* found = cached[static_cast<std::size_t>((value + kCachedPoints) / 100)];
    Py_INCREF(found);
    return found;
}

PyObject* yaku_object(const Answers& a, const YakuItem& item) {
    const int yaku = static_cast<int>(item.yaku);
    if (item.han < kHanTable) return new_ref(a.yaku_han[yaku * kHanTable + item.han]);
    return a.yaku_han_type(a.yaku_names[yaku], item.han, item.yakuman).release().ptr();
}

PyObject* tuple_object(Py_ssize_t size) {
    PyObject* made = PyTuple_New(size);
    if (made == nullptr) throw py::error_already_set();
    return made;
}

PyObject* reading_object(const Answers& a, const Reading& reading) {
    py::object groups = py::reinterpret_steal<py::object>(tuple_object(reading.group_count));
    for (int i = 0; i < reading.group_count; ++i) {
        const Group& g = reading.groups[i];
        const int index = ((g.is_run * kKinds + g.first) * 2 + g.concealed) * 2 + g.is_kan;
        PyTuple_SET_ITEM(groups.ptr(), i, new_ref(a.groups[index]));
    }
    py::object pairs = py::reinterpret_steal<py::object>(tuple_object(reading.pair_count));
    for (int i = 0; i < reading.pair_count; ++i) PyTuple_SET_ITEM(pairs.ptr(), i, int_object(reading.pairs[i]));
    py::object pair = py::reinterpret_steal<py::object>(int_object(reading.pair));
    PyObject* made = new_named_tuple(a.reading_type, 5);
    PyTuple_SET_ITEM(made, 0, new_ref(a.forms[static_cast<int>(reading.form)]));
    PyTuple_SET_ITEM(made, 1, pair.release().ptr());
    PyTuple_SET_ITEM(made, 2, groups.release().ptr());
    PyTuple_SET_ITEM(made, 3, pairs.release().ptr());
    PyTuple_SET_ITEM(made, 4, new_ref(a.waits[static_cast<int>(reading.wait)]));
    return made;
}

// (payments, per_payer) as RiichiScore holds them: payments one per seat.
std::pair<py::object, py::object> settlement_objects(const Settlement& settled, int seats) {
    py::object payments = py::reinterpret_steal<py::object>(tuple_object(seats));
    for (int seat = 0; seat < seats; ++seat) PyTuple_SET_ITEM(payments.ptr(), seat, points_object(settled.payments[seat]));
    py::object per_payer = py::reinterpret_steal<py::object>(tuple_object(settled.payer_count));
    for (int i = 0; i < settled.payer_count; ++i) {
        PyObject* payer = tuple_object(2);
        PyTuple_SET_ITEM(per_payer.ptr(), i, payer);
        PyTuple_SET_ITEM(payer, 0, int_object(settled.per_payer[i].seat));
        PyTuple_SET_ITEM(payer, 1, points_object(settled.per_payer[i].points));
    }
    return {std::move(payments), std::move(per_payer)};
}

py::object score_object(const Answers& a, const Score& score, int seats) {
    Settlement settled;
    settled.payments = score.payments;
    settled.per_payer = score.per_payer;
    settled.payer_count = score.payer_count;
    auto [payments, per_payer] = settlement_objects(settled, seats);
    py::object yaku = py::reinterpret_steal<py::object>(tuple_object(score.yaku_count));
    for (int i = 0; i < score.yaku_count; ++i) PyTuple_SET_ITEM(yaku.ptr(), i, yaku_object(a, score.yaku[i]));
    py::object fu_details = py::reinterpret_steal<py::object>(tuple_object(score.fu_count));
    for (int i = 0; i < score.fu_count; ++i) {
        const FuItem& item = score.fu_items[i];
        PyTuple_SET_ITEM(fu_details.ptr(), i, new_ref(a.fu_parts[static_cast<int>(item.reason) * 35 + item.tile + 1]));
    }
    py::object reading = py::reinterpret_steal<py::object>(reading_object(a, score.reading));
    py::object numbers[5] = {
        py::reinterpret_steal<py::object>(int_object(score.han)),
        py::reinterpret_steal<py::object>(int_object(score.fu)),
        py::reinterpret_steal<py::object>(int_object(score.yakuman_count)),
        py::reinterpret_steal<py::object>(points_object(score.base_points)),
        py::reinterpret_steal<py::object>(points_object(score.riichi_sticks_won)),
    };
    PyObject* made = new_named_tuple(a.score_type, 12);
    PyTuple_SET_ITEM(made, 0, payments.release().ptr());
    PyTuple_SET_ITEM(made, 1, per_payer.release().ptr());
    PyTuple_SET_ITEM(made, 2, numbers[0].release().ptr());
    PyTuple_SET_ITEM(made, 3, numbers[1].release().ptr());
    PyTuple_SET_ITEM(made, 4, yaku.release().ptr());
    PyTuple_SET_ITEM(made, 5, fu_details.release().ptr());
    PyTuple_SET_ITEM(made, 6, new_ref(a.limits[static_cast<int>(score.limit)]));
    PyTuple_SET_ITEM(made, 7, numbers[2].release().ptr());
    PyTuple_SET_ITEM(made, 8, numbers[3].release().ptr());
    PyTuple_SET_ITEM(made, 9, numbers[4].release().ptr());
    PyTuple_SET_ITEM(made, 10, reading.release().ptr());
    PyTuple_SET_ITEM(made, 11, new_ref(a.empty_tuple));
    return py::reinterpret_steal<py::object>(made);
}

long int_field(PyObject* value, const char* name) {
    const long number = PyLong_AsLong(value);
    if (number == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        throw py::type_error(std::string("context.") + name + ": an int is expected");
    }
    return number;
}

bool flag_field(PyObject* value) {
    const int truth = PyObject_IsTrue(value);
    if (truth < 0) throw py::error_already_set();
    return truth != 0;
}

void tiles_field(PyObject* value, std::vector<std::uint8_t>& out, const char* name) {
    out.clear();
    if (!PyTuple_Check(value)) throw py::type_error(std::string("context.") + name + ": a tuple of tiles is expected");
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(value); ++i) {
        const long tile = int_field(PyTuple_GET_ITEM(value, i), name);
        if (tile < 0 || tile >= kKinds) throw py::value_error(std::string("context.") + name + ": not a tile");
        out.push_back(static_cast<std::uint8_t>(tile));
    }
}

void read_situation(const Answers& a, const py::handle& context, Situation& s) {
    if (!PyTuple_Check(context.ptr())) throw py::type_error("context: a WinContext is expected");
    const Py_ssize_t size = PyTuple_GET_SIZE(context.ptr());
    const auto field = [&](int which) {
        const int index = a.context_index[which];
        if (index >= size) throw py::type_error("context: a WinContext is expected");
        return PyTuple_GET_ITEM(context.ptr(), index);
    };
    s.winner = static_cast<int>(int_field(field(kWinner), "winner"));
    s.dealer = static_cast<int>(int_field(field(kDealer), "dealer"));
    PyObject* discarder = field(kDiscarder);
    s.discarder = discarder == Py_None ? -1 : static_cast<int>(int_field(discarder, "discarder"));
    s.kong_replacement = flag_field(field(kKongReplacement));
    s.robbed_kong = flag_field(field(kRobbedKong));
    s.round_wind = static_cast<int>(int_field(field(kRoundWind), "round_wind"));
    tiles_field(field(kDoraIndicators), s.dora_indicators, "dora_indicators");
    tiles_field(field(kUraIndicators), s.ura_indicators, "ura_indicators");
    PyObject* red_fives = field(kRedFives);
    const Py_ssize_t reds = PyObject_Length(red_fives);
    if (reds < 0) throw py::error_already_set();
    s.red_fives = static_cast<int>(reds);
    s.riichi = flag_field(field(kRiichi));
    s.double_riichi = flag_field(field(kDoubleRiichi));
    s.ippatsu = flag_field(field(kIppatsu));
    s.last_tile = flag_field(field(kLastTile));
    s.first_turn = flag_field(field(kFirstTurn));
    s.honba = static_cast<int>(int_field(field(kHonba), "honba"));
    s.riichi_sticks = static_cast<int>(int_field(field(kRiichiSticks), "riichi_sticks"));
    s.nuki = static_cast<int>(int_field(field(kNuki), "nuki"));
}

struct HandInput {
    std::array<std::uint8_t, kKinds> counts{};
    std::array<Meld, 4> melds{};
    int meld_count = 0;
};

void read_hand(const Answers& a, const py::handle& hand, HandInput& in) {
    py::object counts = py::reinterpret_steal<py::object>(PyObject_GetAttr(hand.ptr(), a.counts_name.ptr()));
    if (!counts) throw py::error_already_set();
    if (!PyBytes_Check(counts.ptr()) || PyBytes_GET_SIZE(counts.ptr()) != kKinds) {
        throw py::type_error("hand.counts: 34 bytes expected");
    }
    std::memcpy(in.counts.data(), PyBytes_AS_STRING(counts.ptr()), kKinds);
    for (const std::uint8_t count : in.counts) {
        if (count > 4) throw py::value_error("hand.counts: more than 4 copies");
    }
    py::object melds = py::reinterpret_steal<py::object>(PyObject_GetAttr(hand.ptr(), a.melds_name.ptr()));
    if (!melds) throw py::error_already_set();
    if (!PyTuple_Check(melds.ptr()) || PyTuple_GET_SIZE(melds.ptr()) > 4) {
        throw py::type_error("hand.melds: a tuple of at most 4 melds expected");
    }
    in.meld_count = static_cast<int>(PyTuple_GET_SIZE(melds.ptr()));
    for (int i = 0; i < in.meld_count; ++i) {
        PyObject* meld = PyTuple_GET_ITEM(melds.ptr(), i);
        py::object kind = py::reinterpret_steal<py::object>(PyObject_GetAttr(meld, a.kind_name.ptr()));
        py::object tiles = py::reinterpret_steal<py::object>(PyObject_GetAttr(meld, a.tiles_name.ptr()));
        if (!kind || !tiles) throw py::error_already_set();
        int code = 0;
        while (code < 5 && !kind.is(a.meld_kinds[code])) ++code;
        if (code == 5) throw py::type_error("hand.melds: a meld kind is not a MeldKind");
        if (!PyTuple_Check(tiles.ptr()) || PyTuple_GET_SIZE(tiles.ptr()) == 0) {
            throw py::type_error("hand.melds: a meld's tiles are not a tuple");
        }
        const long first = int_field(PyTuple_GET_ITEM(tiles.ptr(), 0), "melds");
        if (first < 0 || first >= kKinds) throw py::value_error("hand.melds: not a tile");
        in.melds[i] = {static_cast<MeldKind>(code), static_cast<std::uint8_t>(first)};
    }
}

// -- the checked entry points --------------------------------------------------------------
//
// riichi_score_checked and riichi_payments_checked read a request, check it as score_riichi's
// checks (app/core/value/riichi_scoring.py) do and score it, in one call.  read_checked answers
// false for every request those checks refuse, and also for one it does not vouch for although
// they may pass it: a bool or a float where an int goes, a list where a tuple goes, a meld whose
// tiles are not its kind's, more than 4 copies of a tile in the concealed counts.  The caller
// then runs the Python checks, which raise the error, or, when they pass, scores with
// riichi_score as before; so the answers are the ones of those checks and riichi_score.
// read_checked must never answer true where a check refuses (tests/core/test_riichi_kernel.py).

constexpr int kRefused = 3;  // the checked entry points' answer: "check it in Python"

bool exact_int(PyObject* value, int& out) {
    if (!PyLong_CheckExact(value)) return false;
    int overflow = 0;
    const long number = PyLong_AsLongAndOverflow(value, &overflow);
    if (overflow != 0 || number < -(1L << 30) || number > (1L << 30)) return false;
    out = static_cast<int>(number);
    return true;
}

bool exact_tile(PyObject* value, int& out) { return exact_int(value, out) && out >= 0 && out < kKinds; }

bool exact_flag(PyObject* value, bool& out) {
    if (value != Py_True && value != Py_False) return false;
    out = value == Py_True;
    return true;
}

// The attribute, or a null object (no error set) when the object has none.
py::object attribute_or_null(PyObject* object, const py::object& name) {
    PyObject* found = PyObject_GetAttr(object, name.ptr());
    if (found == nullptr) PyErr_Clear();
    return py::reinterpret_steal<py::object>(found);
}

// The hand's counts and melds, with what the checks read of the melds.
struct CheckedHand {
    HandInput in;
    int tiles = 0;                    // concealed tiles
    std::array<std::uint8_t, kKinds> held{};  // hand and melds
    Mask meld_tiles = 0;
    std::uint8_t meld_kinds = 0;      // bit k: a meld of MeldKind k
    bool has_open = false, has_kan = false;
};

bool read_checked_hand(const Answers& a, PyObject* hand, const Options& options, CheckedHand& out) {
    const py::object counts = attribute_or_null(hand, a.counts_name);
    if (!counts || !PyBytes_CheckExact(counts.ptr()) || PyBytes_GET_SIZE(counts.ptr()) != kKinds) return false;
    std::memcpy(out.in.counts.data(), PyBytes_AS_STRING(counts.ptr()), kKinds);
    for (int t = 0; t < kKinds; ++t) {
        const int count = out.in.counts[t];
        if (count > 4) return false;
        if (count && (options.absent_tiles & bit(t))) return false;  // check_tiles_exist(..., "hand")
        out.tiles += count;
    }
    out.held = out.in.counts;
    const py::object melds = attribute_or_null(hand, a.melds_name);
    if (!melds || !PyTuple_CheckExact(melds.ptr()) || PyTuple_GET_SIZE(melds.ptr()) > 4) return false;
    out.in.meld_count = static_cast<int>(PyTuple_GET_SIZE(melds.ptr()));
    for (int i = 0; i < out.in.meld_count; ++i) {
        PyObject* meld = PyTuple_GET_ITEM(melds.ptr(), i);
        const py::object kind = attribute_or_null(meld, a.kind_name);
        const py::object tiles = attribute_or_null(meld, a.tiles_name);
        if (!kind || !tiles) return false;
        int code = 0;
        while (code < 5 && !kind.is(a.meld_kinds[code])) ++code;
        if (code == 5) return false;
        const auto meld_kind = static_cast<MeldKind>(code);
        const bool chi = meld_kind == MeldKind::Chi;
        const Py_ssize_t size = chi || meld_kind == MeldKind::Pon ? 3 : 4;
        if (!PyTuple_CheckExact(tiles.ptr()) || PyTuple_GET_SIZE(tiles.ptr()) != size) return false;
        int first = 0;
        if (!exact_tile(PyTuple_GET_ITEM(tiles.ptr(), 0), first)) return false;
        if (chi && (first >= kEast || first % 9 > 6)) return false;
        for (Py_ssize_t k = 0; k < size; ++k) {
            int tile = 0;
            if (!exact_int(PyTuple_GET_ITEM(tiles.ptr(), k), tile) || tile != first + (chi ? k : 0)) return false;
            if (options.absent_tiles & bit(tile)) return false;  // check_tiles_exist(..., "melds[i].tiles")
            ++out.held[tile];
            out.meld_tiles |= bit(tile);
        }
        out.in.melds[i] = {meld_kind, static_cast<std::uint8_t>(first)};
        out.meld_kinds |= static_cast<std::uint8_t>(1u << code);
        out.has_open = out.has_open || meld_kind != MeldKind::ClosedKan;
        out.has_kan = out.has_kan || size == 4;
    }
    if (out.tiles + 3 * out.in.meld_count != 14) return false;  // WrongTileCount
    if (options.wildcards) return false;                         // InvalidRuleOption
    if (options.win_requires_meld && !(options.win_requires_meld & out.meld_kinds)) return false;
    if (!options.chi_allowed && (out.meld_kinds & (1u << static_cast<int>(MeldKind::Chi)))) return false;
    return true;
}

// Indicators as _check_situation counts them: at most 5, each a tile of the set, and no tile
// seen more than 4 times with the ones held (`total`) and the indicators before it.
bool read_checked_indicators(PyObject* value, const Options& options, std::array<std::uint8_t, kKinds>& total,
                             std::vector<std::uint8_t>& out) {
    out.clear();
    if (!PyTuple_CheckExact(value) || PyTuple_GET_SIZE(value) > 5) return false;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(value); ++i) {
        int tile = 0;
        if (!exact_tile(PyTuple_GET_ITEM(value, i), tile) || (options.absent_tiles & bit(tile))) return false;
        if (++total[tile] > 4) return false;  // TooManyCopies
        out.push_back(static_cast<std::uint8_t>(tile));
    }
    return true;
}

// check_win_tile, score_riichi's checks of the hand and the rules, check_seats and
// _check_situation, in the order of the fields rather than theirs (only the verdict counts).
bool read_checked(const Answers& a, PyObject* hand, PyObject* win_tile_object, const Options& options,
                  PyObject* context, HandInput& in, int& win_tile, Situation& s) {
    if (!exact_tile(win_tile_object, win_tile)) return false;
    CheckedHand checked;
    if (!read_checked_hand(a, hand, options, checked)) return false;
    if (!checked.in.counts[win_tile]) return false;  // check_win_tile
    if (!PyTuple_Check(context)) return false;
    const Py_ssize_t size = PyTuple_GET_SIZE(context);
    for (const int index : a.context_index) {
        if (index >= size) return false;
    }
    const auto field = [&](int which) { return PyTuple_GET_ITEM(context, a.context_index[which]); };
    const int seats = options.seats;
    // check_seats: exact ints (a bool is no seat) at the table; the discarder not the winner.
    if (!exact_int(field(kWinner), s.winner) || s.winner < 0 || s.winner >= seats) return false;
    if (!exact_int(field(kDealer), s.dealer) || s.dealer < 0 || s.dealer >= seats) return false;
    PyObject* discarder = field(kDiscarder);
    if (discarder == Py_None) {
        s.discarder = -1;
    } else if (!exact_int(discarder, s.discarder) || s.discarder < 0 || s.discarder >= seats ||
               s.discarder == s.winner) {
        return false;
    }
    if (!exact_flag(field(kKongReplacement), s.kong_replacement) || !exact_flag(field(kRobbedKong), s.robbed_kong) ||
        !exact_flag(field(kRiichi), s.riichi) || !exact_flag(field(kDoubleRiichi), s.double_riichi) ||
        !exact_flag(field(kIppatsu), s.ippatsu) || !exact_flag(field(kLastTile), s.last_tile) ||
        !exact_flag(field(kFirstTurn), s.first_turn)) {
        return false;
    }
    const bool tsumo = s.discarder < 0;
    if ((s.kong_replacement && !tsumo) || (s.robbed_kong && tsumo)) return false;
    if (!exact_int(field(kRoundWind), s.round_wind) || s.round_wind < kEast || s.round_wind > kNorth) return false;
    if (!exact_int(field(kHonba), s.honba) || !exact_int(field(kRiichiSticks), s.riichi_sticks) ||
        !exact_int(field(kNuki), s.nuki)) {
        return false;
    }
    if (s.honba < 0 || s.riichi_sticks < 0) return false;
    // _check_situation.
    const bool in_riichi = s.riichi || s.double_riichi;
    if (in_riichi && checked.has_open) return false;
    if (s.ippatsu && !in_riichi) return false;
    if (s.kong_replacement) {
        const bool after_kita = seats == 3 && s.nuki > 0;  // sanma: the replacement after a kita
        if ((!after_kita && !checked.has_kan) || (s.ippatsu && !after_kita) || s.last_tile) return false;
    }
    if (s.robbed_kong) {
        if (checked.in.counts[win_tile] != 1 || (checked.meld_tiles & bit(win_tile)) || s.last_tile) return false;
    }
    if (s.first_turn && (!tsumo || checked.in.meld_count || in_riichi || s.kong_replacement || s.last_tile)) {
        return false;
    }
    std::array<std::uint8_t, kKinds> total = checked.held;
    if (s.nuki != 0) {
        if (seats != 3 || s.nuki < 0 || s.nuki > 4 - total[kNorth]) return false;
        total[kNorth] = static_cast<std::uint8_t>(total[kNorth] + s.nuki);
    }
    if (s.robbed_kong) total[win_tile] = static_cast<std::uint8_t>(total[win_tile] + 3);
    if (!read_checked_indicators(field(kDoraIndicators), options, total, s.dora_indicators) ||
        !read_checked_indicators(field(kUraIndicators), options, total, s.ura_indicators)) {
        return false;
    }
    // Red fives: fives of m, p or s, no more of each than held in hand and melds.
    PyObject* reds = field(kRedFives);
    if (!PyTuple_CheckExact(reds) || PyTuple_GET_SIZE(reds) > 12) return false;
    std::array<int, kKinds> red_count{};
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(reds); ++i) {
        int tile = 0;
        if (!exact_tile(PyTuple_GET_ITEM(reds, i), tile) || (tile != 4 && tile != 13 && tile != 22)) return false;
        if (++red_count[tile] > checked.held[tile]) return false;
    }
    s.red_fives = static_cast<int>(PyTuple_GET_SIZE(reds));
    in = checked.in;
    return true;
}

// The net payments of a score, one per seat, as RiichiScore.payments holds them.
py::object payments_object(const Score& score, int seats) {
    py::object payments = py::reinterpret_steal<py::object>(tuple_object(seats));
    for (int seat = 0; seat < seats; ++seat) PyTuple_SET_ITEM(payments.ptr(), seat, points_object(score.payments[seat]));
    return payments;
}

void install(const py::object& score_type, const py::object& reading_type, const py::object& yaku_han_type,
             const py::object& fu_part_type, const py::object& group_type, const py::tuple& meld_kinds,
             const py::tuple& context_fields) {
    check_fields(score_type, kScoreFields, std::size(kScoreFields), "score_type");
    check_fields(reading_type, kReadingFields, std::size(kReadingFields), "reading_type");
    for (const py::handle& type : {score_type, reading_type}) {
        if (!PyType_Check(type.ptr()) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(type.ptr()), &PyTuple_Type)) {
            throw std::invalid_argument("score_type and reading_type must be NamedTuple classes");
        }
    }
    if (meld_kinds.size() != 5) throw std::invalid_argument("meld_kinds: the 5 MeldKind members, in order");
    auto made = std::make_unique<Answers>();
    made->score_type = score_type;
    made->reading_type = reading_type;
    made->yaku_han_type = yaku_han_type;
    for (int yaku = 0; yaku < kYakuKinds; ++yaku) {
        made->yaku_names.push_back(py::str(kYakuNames[yaku]));
        const bool is_yakuman = yaku >= static_cast<int>(Yaku::Tenhou);
        for (int han = 0; han < kHanTable; ++han) {
            made->yaku_han.push_back(yaku_han_type(made->yaku_names.back(), han, is_yakuman ? han / 13 : 0));
        }
    }
    for (int reason = 0; reason < kFuReasons; ++reason) {
        const py::str name(kFuReasonNames[reason]);
        for (int tile = -1; tile < kKinds; ++tile) {
            made->fu_parts.push_back(
                fu_part_type(kFuReasonPoints[reason], name, tile < 0 ? py::object(py::none()) : py::int_(tile)));
        }
    }
    for (int is_run = 0; is_run < 2; ++is_run) {
        for (int first = 0; first < kKinds; ++first) {
            for (int concealed = 0; concealed < 2; ++concealed) {
                for (int is_kan = 0; is_kan < 2; ++is_kan) {
                    made->groups.push_back(group_type(bool(is_run), first, bool(concealed), bool(is_kan)));
                }
            }
        }
    }
    for (const char* name : kFormNames) made->forms.push_back(py::str(name));
    for (const char* name : kWaitNames) made->waits.push_back(py::str(name));
    for (const char* name : kLimitNames) made->limits.push_back(name ? py::object(py::str(name)) : py::object(py::none()));
    for (int i = 0; i < 5; ++i) made->meld_kinds[i] = meld_kinds[i];
    for (int which = 0; which < kContextCount; ++which) {
        int found = -1;
        for (std::size_t i = 0; i < context_fields.size(); ++i) {
            if (context_fields[i].cast<std::string>() == kContextFields[which]) found = static_cast<int>(i);
        }
        if (found < 0) throw std::invalid_argument(std::string("context_fields: no ") + kContextFields[which]);
        made->context_index[which] = found;
    }
    made->empty_tuple = py::tuple();
    made->counts_name = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("counts"));
    made->melds_name = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("melds"));
    made->kind_name = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("kind"));
    made->tiles_name = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("tiles"));
    installed = made.release();  // a second install (a reload) leaves the first in place for calls in flight
}

Options options_of(int seats, bool tsumo_loss) {
    if (seats != 3 && seats != 4) throw py::value_error("seats: 3 or 4");
    Options options;
    options.seats = seats;
    options.tsumo_loss = tsumo_loss;
    return options;
}

void check_seat(int seat, int seats, const char* name) {
    if (seat < 0 || seat >= seats) throw py::value_error(std::string(name) + ": a seat 0.." + std::to_string(seats - 1));
}

const Binding bind_riichi{"riichi", [](py::module_& m) {
    py::class_<Options>(m, "RiichiOptions", "A rule profile's riichi scoring options, for riichi_score.")
        .def(py::init([](bool seven_pairs, bool seven_pairs_quad_as_two, bool thirteen_orphans, bool double_yakuman,
                         bool open_tanyao, bool kazoe_yakuman, bool kiriage, bool yakuman_stacking, bool red_fives,
                         int seats, bool tsumo_loss, const py::bytes& dora_of, bool wildcards,
                         int win_requires_meld, bool chi_allowed, std::uint64_t absent_tiles) {
                 Options options = options_of(seats, tsumo_loss);
                 options.seven_pairs = seven_pairs;
                 options.seven_pairs_quad_as_two = seven_pairs_quad_as_two;
                 options.thirteen_orphans = thirteen_orphans;
                 options.double_yakuman = double_yakuman;
                 options.open_tanyao = open_tanyao;
                 options.kazoe_yakuman = kazoe_yakuman;
                 options.kiriage = kiriage;
                 options.yakuman_stacking = yakuman_stacking;
                 options.red_fives = red_fives;
                 if (win_requires_meld < 0 || win_requires_meld >= 32) {
                     throw py::value_error("win_requires_meld: a mask of the 5 meld kinds");
                 }
                 if (absent_tiles >> kKinds) throw py::value_error("absent_tiles: a mask of the 34 tiles");
                 options.wildcards = wildcards;
                 options.win_requires_meld = static_cast<std::uint8_t>(win_requires_meld);
                 options.chi_allowed = chi_allowed;
                 options.absent_tiles = absent_tiles;
                 const std::string raw = dora_of;
                 if (raw.size() != kKinds) throw py::value_error("dora_of: 34 bytes expected");
                 for (int t = 0; t < kKinds; ++t) {
                     if (static_cast<std::uint8_t>(raw[t]) >= kKinds) throw py::value_error("dora_of: not a tile");
                     options.dora_of[t] = static_cast<std::uint8_t>(raw[t]);
                 }
                 return options;
             }),
             py::kw_only(), py::arg("seven_pairs"), py::arg("seven_pairs_quad_as_two"), py::arg("thirteen_orphans"),
             py::arg("double_yakuman"), py::arg("open_tanyao"), py::arg("kazoe_yakuman"), py::arg("kiriage"),
             py::arg("yakuman_stacking"), py::arg("red_fives"), py::arg("seats"), py::arg("tsumo_loss"),
             py::arg("dora_of"), py::arg("wildcards"), py::arg("win_requires_meld"), py::arg("chi_allowed"),
             py::arg("absent_tiles"));
    m.def("install_riichi_answers", &install, py::arg("score_type"), py::arg("reading_type"), py::arg("yaku_han_type"),
          py::arg("fu_part_type"), py::arg("group_type"), py::arg("meld_kinds"), py::arg("context_fields"),
          "Give riichi_score the classes of its answer (called once, by app.core.value.riichi_scoring).");
    // The GIL stays held: a score takes about a microsecond, and releasing and taking it back
    // would add a good part of that (and, with other threads busy, a wait for the GIL).
    m.def(
        "riichi_score",
        [](const py::handle& hand, int win_tile, const Options& options, const py::handle& context) -> py::object {
            const Answers& a = answers();
            HandInput in;
            read_hand(a, hand, in);
            thread_local Situation situation;  // its indicator vectors keep their room between calls
            read_situation(a, context, situation);
            if (win_tile < 0 || win_tile >= kKinds) throw py::value_error("win_tile: not a tile");
            const Score scored = score(in.counts.data(), in.melds.data(), in.meld_count, win_tile, options, situation);
            if (scored.status != Status::Won) return py::int_(static_cast<int>(scored.status));
            return score_object(a, scored, options.seats);
        },
        py::arg("hand"), py::arg("win_tile"), py::arg("options"), py::arg("context"),
        "RiichiScore of a validated win, or 1 (not a winning hand) or 2 (no yaku).");
    m.def(
        "riichi_score_checked",
        [](const py::handle& hand, const py::handle& win_tile, const Options& options,
           const py::handle& context) -> py::object {
            const Answers& a = answers();
            HandInput in;
            int win = 0;
            thread_local Situation situation;  // its indicator vectors keep their room between calls
            if (!read_checked(a, hand.ptr(), win_tile.ptr(), options, context.ptr(), in, win, situation)) {
                return py::int_(kRefused);
            }
            const Score scored = score(in.counts.data(), in.melds.data(), in.meld_count, win, options, situation);
            if (scored.status != Status::Won) return py::int_(static_cast<int>(scored.status));
            return score_object(a, scored, options.seats);
        },
        py::arg("hand"), py::arg("win_tile"), py::arg("options"), py::arg("context"),
        "riichi_score with score_riichi's checks: RiichiScore, or 1 (not a winning hand), 2 (no yaku) or 3 "
        "(refused or not vouched for: run the checks in Python).");
    m.def(
        "riichi_payments_checked",
        [](const py::handle& hand, const py::handle& win_tile, const Options& options,
           const py::handle& context) -> py::object {
            const Answers& a = answers();
            HandInput in;
            int win = 0;
            thread_local Situation situation;
            if (!read_checked(a, hand.ptr(), win_tile.ptr(), options, context.ptr(), in, win, situation)) {
                return py::int_(kRefused);
            }
            const Score scored = score(in.counts.data(), in.melds.data(), in.meld_count, win, options, situation);
            if (scored.status != Status::Won) return py::int_(static_cast<int>(scored.status));
            return payments_object(scored, options.seats);
        },
        py::arg("hand"), py::arg("win_tile"), py::arg("options"), py::arg("context"),
        "riichi_score_checked's payments alone (net per seat), or its status 1, 2 or 3.");
    m.def(
        "riichi_payments",
        [](int base, int winner, int dealer, std::optional<int> discarder, int honba, int seats, bool tsumo_loss) {
            const Options options = options_of(seats, tsumo_loss);
            check_seat(winner, seats, "winner");
            check_seat(dealer, seats, "dealer");
            if (discarder) check_seat(*discarder, seats, "discarder");
            const Settlement settled = settle(base, winner, dealer, discarder.value_or(-1), honba, options);
            auto [payments, per_payer] = settlement_objects(settled, seats);
            return py::make_tuple(payments, per_payer);
        },
        py::arg("base"), py::arg("winner"), py::arg("dealer"), py::arg("discarder"), py::arg("honba"), py::arg("seats"),
        py::arg("tsumo_loss"), "(net per seat, (payer, points) per payer) for base points; discarder None: self-draw.");
    m.def(
        "riichi_limit",
        [](int han, int fu, bool kazoe_yakuman, bool kiriage) {
            Options options;
            options.kazoe_yakuman = kazoe_yakuman;
            options.kiriage = kiriage;
            const Limited limited = limit_of(han, fu, options);
            const char* name = limit_name(limited.limit);
            return py::make_tuple(name ? py::object(py::str(name)) : py::object(py::none()), limited.base);
        },
        py::arg("han"), py::arg("fu"), py::arg("kazoe_yakuman"), py::arg("kiriage"),
        "(limit name or None, base points) of an ordinary hand of han and fu.");
}};

}  // namespace
}  // namespace tenpai::riichi

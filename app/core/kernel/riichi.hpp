// Riichi scoring in C++: the readings of a winning hand, its yaku, fu, limit and payments
// (Tenhou's rules, with the room options of app/core/shape/rules.py).  Python validates a
// request (app/core/value/riichi_scoring.py) before it reaches score(); the expected-score
// search (expected.cpp) calls score() for every win it can reach.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace tenpai::riichi {

// The order of app.core.shape.hand.MeldKind.
enum class MeldKind : std::uint8_t { Chi = 0, Pon = 1, OpenKan = 2, ClosedKan = 3, AddedKan = 4 };

struct Meld {
    MeldKind kind;
    std::uint8_t first;  // chi: its lowest tile; pon and kans: the tile
};

// The room's scoring options (RuleProfile fields riichi scoring reads).
struct Options {
    bool seven_pairs = true;
    bool thirteen_orphans = true;
    bool double_yakuman = true;
    bool open_tanyao = true;
    bool kazoe_yakuman = true;  // kazoe_limit == "yakuman" (else sanbaiman)
    bool kiriage = false;
    bool yakuman_stacking = true;
    bool red_fives = true;
    int seats = 4;
    bool tsumo_loss = true;
    std::array<std::uint8_t, 34> dora_of{};  // the dora each indicator shows (sanma skips 2m-8m)
};

// WinContext, with the seat wind worked out by the caller.
struct Situation {
    int winner = 0;
    int dealer = 0;
    int discarder = -1;  // -1: a self-draw
    bool kong_replacement = false;
    bool robbed_kong = false;
    int round_wind = 27;
    std::vector<std::uint8_t> dora_indicators;
    std::vector<std::uint8_t> ura_indicators;
    int red_fives = 0;  // red fives held, hand and melds
    bool riichi = false;
    bool double_riichi = false;
    bool ippatsu = false;
    bool last_tile = false;
    bool first_turn = false;
    int honba = 0;
    int riichi_sticks = 0;
    int nuki = 0;
};

enum class Status : std::uint8_t { Won = 0, NotAWinningHand = 1, NoYaku = 2 };

struct Score {
    Status status = Status::NotAWinningHand;
    int han = 0;
    int fu = 0;              // 0 for a yakuman
    int yakuman_count = 0;
    int base_points = 0;
    std::array<int, 4> payments{};  // net per seat, honba included
    // The rest (yaku, fu items, limit, reading, per payer) is the helper's to define for Python.
};

// Score a win: concealed holds 34 counts including win_tile; melds the declared melds.
Score score(const std::uint8_t* concealed, const Meld* melds, int meld_count, int win_tile, const Options& options,
            const Situation& situation);

// Base points of an ordinary hand of han and fu (kazoe yakuman and kiriage as the options say).
int base_points(int han, int fu, const Options& options);

// Net payments per seat for base points (discarder -1: a self-draw), Tenhou's rounding.
std::array<int, 4> payments(int base, int winner, int dealer, int discarder, int honba, const Options& options);

}  // namespace tenpai::riichi

// Riichi scoring in C++: the readings of a winning hand, its yaku, fu, limit and payments
// (Tenhou's rules, with the room options of app/core/shape/rules.py).  A request is checked
// before it reaches score(): by riichi.cpp's checked entry points, which answer as the checks
// of app/core/value/riichi_scoring.py do (and leave to them the requests they refuse); the
// expected-score search (expected.cpp) calls score() for every win it can reach.
//
// score() reads only its arguments and constant tables: it is safe to call from many threads
// at once, and it allocates nothing.
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
    // seven_pairs == "quad_as_two": four of a kind counts as two of the seven pairs.
    bool seven_pairs_quad_as_two = false;
    // What a request must respect under the profile.  score() reads none of these: the checked
    // Python entry points (riichi_score_checked, riichi_payments_checked) refuse a request that
    // breaks one, as app/core/value/riichi_scoring.py's checks do.
    bool wildcards = false;                 // riichi scoring has no wildcards: every request refused
    std::uint8_t win_requires_meld = 0;     // bit k: a meld of MeldKind k is needed to win (0: none)
    bool chi_allowed = true;
    std::uint64_t absent_tiles = 0;         // bit t: tile t is not in the set (sanma: 2m-8m)
};

// The riichi fields of a WinContext.  The seat wind follows from winner, dealer and
// options.seats (East + (winner - dealer) mod seats).
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

// Every yaku, yakuman and kind of dora, in the order of yaku_name's table.
enum class Yaku : std::uint8_t {
    Riichi, DoubleRiichi, Ippatsu, MenzenTsumo, Haitei, Houtei, Rinshan, Chankan,
    Pinfu, Tanyao, Iipeikou, Ryanpeikou, Haku, Hatsu, Chun, SeatWind, RoundWind,
    Chiitoitsu, Chanta, Junchan, Ittsu, Sanshoku, SanshokuDoukou, Sankantsu, Toitoi,
    Sanankou, Shousangen, Honroutou, Honitsu, Chinitsu,
    Dora, AkaDora, UraDora, NukiDora,
    Tenhou, Chiihou, Kokushi, Kokushi13, Tsuuiisou, Ryuuiisou, Chinroutou, Suuankou,
    SuuankouTanki, Daisangen, Daisuushii, Shousuushii, Suukantsu, Chuuren, JunseiChuuren,
};
constexpr int kYakuKinds = static_cast<int>(Yaku::JunseiChuuren) + 1;
// The yaku's name in tenpai's answers ("menzen_tsumo", "kokushi_13", ...).
const char* yaku_name(Yaku yaku);

// Why a fu item is there.  A triplet's or kan's reason is OpenTripletSimple plus
// 4 x concealed + 2 x kan + 1 x terminal-or-honour.
enum class FuReason : std::uint8_t {
    Base, Chiitoitsu, ClosedRon, SelfDraw, OpenPinfu, WaitKanchan, WaitPenchan, WaitTanki,
    PairDragon, PairSeatWind, PairRoundWind,
    OpenTripletSimple, OpenTripletTerminalOrHonor, OpenKanSimple, OpenKanTerminalOrHonor,
    ClosedTripletSimple, ClosedTripletTerminalOrHonor, ClosedKanSimple, ClosedKanTerminalOrHonor,
};
constexpr int kFuReasons = static_cast<int>(FuReason::ClosedKanTerminalOrHonor) + 1;
const char* fu_reason_name(FuReason reason);  // "closed_ron", "open_kan_simple", ...
int fu_reason_points(FuReason reason);        // the fu an item of this reason is worth

enum class Form : std::uint8_t { Regular, SevenPairs, ThirteenOrphans };
enum class Wait : std::uint8_t { Ryanmen, Kanchan, Penchan, Shanpon, Tanki, Kokushi13 };
enum class Limit : std::uint8_t { None, Mangan, Haneman, Baiman, Sanbaiman, Yakuman };
const char* form_name(Form form);    // "regular", "seven_pairs", "thirteen_orphans"
const char* wait_name(Wait wait);    // "ryanmen", ..., "kokushi_13"
const char* limit_name(Limit limit);  // nullptr for Limit::None, else "mangan", ...

struct YakuItem {
    Yaku yaku;
    std::uint8_t han;      // a yakuman: 13 for each yakuman it is worth
    std::uint8_t yakuman;  // yakuman it is worth (0: an ordinary yaku or dora)
};

struct FuItem {
    FuReason reason;
    std::int8_t tile;  // the group's or pair's tile; -1 for the others
};

// A run (first: its lowest tile) or a triplet or kan; concealed: never called (a triplet
// finished by a discard is not).
struct Group {
    bool is_run;
    std::uint8_t first;
    bool concealed;
    bool is_kan;
};

// One way to read the winning hand: a regular hand's pair and four groups (concealed ones
// first, each suit's in ascending order, then the declared ones in their order), seven pairs
// (pair: the first of them) or thirteen orphans (pair: the doubled tile).
struct Reading {
    Form form = Form::Regular;
    Wait wait = Wait::Tanki;
    std::uint8_t pair = 0;
    std::uint8_t group_count = 0;
    std::uint8_t pair_count = 0;
    std::array<Group, 4> groups{};
    std::array<std::uint8_t, 7> pairs{};  // seven pairs (a quad counted as two: twice)
};

struct Payer {
    int seat;
    int points;  // honba included
};

// What a win pays: net per seat and what each payer pays the winner.
struct Settlement {
    std::array<int, 4> payments{};  // net per seat, honba included; seats beyond options.seats 0
    std::array<Payer, 3> per_payer{};
    int payer_count = 0;
};

constexpr int kMaxYaku = 24;
constexpr int kMaxFuItems = 12;

struct Score {
    Status status = Status::NotAWinningHand;
    int han = 0;
    int fu = 0;              // 0 for a yakuman
    int yakuman_count = 0;
    int base_points = 0;
    std::array<int, 4> payments{};  // net per seat, honba included
    Limit limit = Limit::None;
    int riichi_sticks_won = 0;  // 1000 a stick, outside the seat payments
    // The yaku of the best reading in the answer's order (situational, the hand's, then the
    // dora kinds), or its yakuman.
    std::array<YakuItem, kMaxYaku> yaku{};
    int yaku_count = 0;
    std::array<FuItem, kMaxFuItems> fu_items{};  // none for a yakuman
    int fu_count = 0;
    Reading reading;
    std::array<Payer, 3> per_payer{};
    int payer_count = 0;
};

// Score a win: concealed holds 34 counts including win_tile; melds the declared melds.
Score score(const std::uint8_t* concealed, const Meld* melds, int meld_count, int win_tile, const Options& options,
            const Situation& situation);

// The limit of an ordinary hand of han and fu and its base points (kazoe yakuman and
// kiriage as the options say).
struct Limited {
    Limit limit;
    int base;
};
Limited limit_of(int han, int fu, const Options& options);

// Base points of an ordinary hand of han and fu (kazoe yakuman and kiriage as the options say).
int base_points(int han, int fu, const Options& options);

// Net payments per seat for base points (discarder -1: a self-draw), Tenhou's rounding.
std::array<int, 4> payments(int base, int winner, int dealer, int discarder, int honba, const Options& options);

// payments() with what each payer pays.
Settlement settle(int base, int winner, int dealer, int discarder, int honba, const Options& options);

}  // namespace tenpai::riichi

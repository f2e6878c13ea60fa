#include "shape.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "registry.hpp"

namespace py = pybind11;

namespace tenpai::shape {
namespace {

// Installed once, when Python first builds the tables; read-only afterwards, so threads
// that released the GIL read it freely.  A second install (a test rebuilding the tables)
// replaces the pointer, and the old tables stay alive: nothing in flight loses them.
std::vector<std::unique_ptr<const Tables>>& every_install() {
    static std::vector<std::unique_ptr<const Tables>> installs;
    return installs;
}
const Tables* current = nullptr;

constexpr std::uint32_t kPow5[10] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125};

std::uint32_t key_of(const std::uint8_t* counts, int width) {
    std::uint32_t key = 0;
    for (int i = width - 1; i >= 0; --i) key = key * 5 + counts[i];
    return key;
}

std::vector<std::uint8_t> copy_exact(const py::bytes& data, std::size_t size, const char* name) {
    std::string raw = data;
    if (raw.size() != size) {
        throw std::invalid_argument(std::string(name) + ": expected " + std::to_string(size) + " bytes, got " +
                                    std::to_string(raw.size()));
    }
    return std::vector<std::uint8_t>(raw.begin(), raw.end());
}

}  // namespace

const Tables& tables() {
    if (current == nullptr) throw std::logic_error("the shape tables are not installed (app.core.shape.tables)");
    return *current;
}

bool tables_installed() { return current != nullptr; }

SuitKeys suit_keys(const std::uint8_t* counts) {
    return {key_of(counts, 9), key_of(counts + 9, 9), key_of(counts + 18, 9), key_of(counts + 27, 7)};
}

int regular_distance(const std::uint8_t* counts, int melds_wanted) {
    const Tables& t = tables();
    const SuitKeys k = suit_keys(counts);
    const int c_m = t.number_class[k.m], c_p = t.number_class[k.p], c_s = t.number_class[k.s];
    const int c_h = t.honor_class[k.h];
    if (c_m == 255 || c_p == 255 || c_s == 255 || c_h == 255) return kUnreachable;
    const int mp = t.man_pin[c_m * t.number_classes + c_p];
    const int sh = t.sou_honors[c_s * t.honor_classes + c_h];
    return t.final_[mp * t.final_stride + sh * 5 + melds_wanted];
}

int regular_draws(const std::uint8_t* counts, int melds_wanted, std::uint8_t* flags) {
    const Tables& t = tables();
    const SuitKeys k = suit_keys(counts);
    const int c_m = t.number_class[k.m], c_p = t.number_class[k.p], c_s = t.number_class[k.s];
    const int c_h = t.honor_class[k.h];
    std::memset(flags, 0, kKinds);
    if (c_m == 255 || c_p == 255 || c_s == 255 || c_h == 255) return kUnreachable;
    const int mp = t.man_pin[c_m * t.number_classes + c_p];
    const int sh = t.sou_honors[c_s * t.honor_classes + c_h];
    const int distance = t.final_[mp * t.final_stride + sh * 5 + melds_wanted];
    if (distance == 0) return 0;
    const std::uint8_t* next_m = &t.number_next[k.m * 9];
    const std::uint8_t* next_p = &t.number_next[k.p * 9];
    const std::uint8_t* next_s = &t.number_next[k.s * 9];
    const std::uint8_t* next_h = &t.honor_next[k.h * 7];
    const std::uint8_t* by_man_pin = &t.final_[sh * 5 + melds_wanted];  // stride final_stride per man+pin class
    const std::uint8_t* by_sou_honors = &t.final_[mp * t.final_stride + melds_wanted];  // stride 5
    for (int i = 0; i < 9; ++i) {
        if (next_m[i] != 255) flags[i] = by_man_pin[t.man_pin[next_m[i] * t.number_classes + c_p] * t.final_stride] < distance;
        if (next_p[i] != 255) flags[9 + i] = by_man_pin[t.man_pin[c_m * t.number_classes + next_p[i]] * t.final_stride] < distance;
        if (next_s[i] != 255) flags[18 + i] = by_sou_honors[t.sou_honors[next_s[i] * t.honor_classes + c_h] * 5] < distance;
    }
    for (int i = 0; i < 7; ++i) {
        if (next_h[i] != 255) flags[27 + i] = by_sou_honors[t.sou_honors[c_s * t.honor_classes + next_h[i]] * 5] < distance;
    }
    return distance;
}

namespace {
struct PairProfile {
    int free, one_draw;
};
PairProfile pair_profile(const std::uint8_t* counts, bool quad_as_two) {
    int singles = 0, held_twice = 0, triples = 0, quads = 0;
    for (int tile = 0; tile < kKinds; ++tile) {
        const int c = counts[tile];
        singles += c == 1;
        held_twice += c >= 2;
        triples += c == 3;
        quads += c == 4;
    }
    if (quad_as_two) return {held_twice + quads, singles + triples};
    return {held_twice, singles};
}
}  // namespace

int seven_pairs_distance(const std::uint8_t* counts, bool quad_as_two) {
    const PairProfile p = pair_profile(counts, quad_as_two);
    if (p.free >= 7) return 0;
    const int needed = 7 - p.free;
    const int cheap = std::min(p.one_draw, needed);
    return cheap + 2 * (needed - cheap);
}

void seven_pairs_draws(const std::uint8_t* counts, bool quad_as_two, std::uint8_t* flags) {
    std::memset(flags, 0, kKinds);
    const PairProfile p = pair_profile(counts, quad_as_two);
    if (p.free >= 7) return;
    const bool new_candidate_helps = p.one_draw < 7 - p.free;
    for (int tile = 0; tile < kKinds; ++tile) {
        switch (counts[tile]) {
            case 0: flags[tile] = new_candidate_helps; break;
            case 1: flags[tile] = 1; break;
            case 2: flags[tile] = quad_as_two && new_candidate_helps; break;
            case 3: flags[tile] = quad_as_two; break;
            default: break;
        }
    }
}

int orphans_distance(const std::uint8_t* counts) {
    int kinds = 0;
    bool pair = false;
    for (int tile = 0; tile < kKinds; ++tile) {
        if (!is_orphan(tile)) continue;
        kinds += counts[tile] > 0;
        pair = pair || counts[tile] >= 2;
    }
    return 14 - kinds - pair;
}

void orphans_draws(const std::uint8_t* counts, std::uint8_t* flags) {
    std::memset(flags, 0, kKinds);
    bool pair = false;
    for (int tile = 0; tile < kKinds; ++tile) pair = pair || (is_orphan(tile) && counts[tile] >= 2);
    for (int tile = 0; tile < kKinds; ++tile) {
        if (is_orphan(tile)) flags[tile] = counts[tile] == 0 || (!pair && counts[tile] == 1);
    }
}

namespace {

Counts counts_argument(const py::bytes& data) {
    std::string raw = data;
    if (raw.size() != kKinds) throw std::invalid_argument("counts: expected 34 bytes");
    Counts counts{};
    for (int i = 0; i < kKinds; ++i) {
        if (static_cast<std::uint8_t>(raw[i]) > 4) throw std::invalid_argument("counts: more than 4 copies");
        counts[i] = static_cast<std::uint8_t>(raw[i]);
    }
    return counts;
}

// A tile as Hand.from_tiles takes it without a second look: an exact int 0..33.
bool exact_tile(PyObject* value, int& tile) {
    if (!PyLong_CheckExact(value)) return false;
    int overflow = 0;
    const long number = PyLong_AsLongAndOverflow(value, &overflow);
    if (overflow != 0 || number < 0 || number >= kKinds) return false;
    tile = static_cast<int>(number);
    return true;
}

// hand_counts: the 34 counts of `tiles` (a list or tuple of exact ints 0..33) when they make,
// with `melds` (a tuple of at most 4 objects whose `tiles` is a tuple of exact ints 0..33), a hand
// Hand.validate passes: no tile more than 4 times in hand and melds, at most 14 tiles with each
// meld counted as 3.  None otherwise, having read nothing but `tiles` and the melds' tiles:
// Hand.from_tiles then counts and checks in Python, and raises the error there is.
py::object hand_counts(const py::handle& tiles, const py::handle& melds) {
    PyObject* sequence = tiles.ptr();
    if (!PyList_CheckExact(sequence) && !PyTuple_CheckExact(sequence)) return py::none();
    if (!PyTuple_CheckExact(melds.ptr()) || PyTuple_GET_SIZE(melds.ptr()) > 4) return py::none();
    const Py_ssize_t meld_count = PyTuple_GET_SIZE(melds.ptr());
    const Py_ssize_t size = PySequence_Fast_GET_SIZE(sequence);
    if (size > 14 - 3 * meld_count) return py::none();
    PyObject** items = PySequence_Fast_ITEMS(sequence);
    std::array<std::uint8_t, kKinds> counts{};
    for (Py_ssize_t i = 0; i < size; ++i) {
        int tile = 0;
        if (!exact_tile(items[i], tile) || ++counts[tile] > 4) return py::none();
    }
    std::array<std::uint8_t, kKinds> total = counts;
    static PyObject* const tiles_name = PyUnicode_InternFromString("tiles");
    for (Py_ssize_t m = 0; m < meld_count; ++m) {
        PyObject* meld_tiles = PyObject_GetAttr(PyTuple_GET_ITEM(melds.ptr(), m), tiles_name);
        if (meld_tiles == nullptr) {
            PyErr_Clear();
            return py::none();
        }
        const py::object held = py::reinterpret_steal<py::object>(meld_tiles);
        if (!PyTuple_CheckExact(meld_tiles)) return py::none();
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(meld_tiles); ++i) {
            int tile = 0;
            if (!exact_tile(PyTuple_GET_ITEM(meld_tiles, i), tile) || ++total[tile] > 4) return py::none();
        }
    }
    PyObject* made = PyBytes_FromStringAndSize(reinterpret_cast<const char*>(counts.data()), kKinds);
    if (made == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(made);
}

const Binding bind_shape{"shape", [](py::module_& m) {
    m.def("hand_counts", &hand_counts, py::arg("tiles"), py::arg("melds"),
          "34 counts of tiles making a valid hand with melds (Hand.from_tiles's fast path), or None.");
    m.def(
        "install_shape_tables",
        [](const py::bytes& number_class, const py::bytes& number_next, const py::bytes& honor_class,
           const py::bytes& honor_next, const py::bytes& man_pin, const py::bytes& sou_honors, const py::bytes& final_,
           int number_classes, int honor_classes, int final_stride) {
            if (number_classes <= 0 || number_classes > 255 || honor_classes <= 0 || honor_classes > 255 ||
                final_stride <= 0 || final_stride % 5 != 0) {
                throw std::invalid_argument("class counts out of range");
            }
            auto t = std::make_unique<Tables>();
            t->number_class = copy_exact(number_class, kPow5[9], "number_class");
            t->number_next = copy_exact(number_next, std::size_t{kPow5[9]} * 9, "number_next");
            t->honor_class = copy_exact(honor_class, kPow5[7], "honor_class");
            t->honor_next = copy_exact(honor_next, std::size_t{kPow5[7]} * 7, "honor_next");
            t->number_classes = number_classes;
            t->honor_classes = honor_classes;
            t->final_stride = final_stride;
            t->man_pin = copy_exact(man_pin, std::size_t(number_classes) * number_classes, "man_pin");
            t->sou_honors = copy_exact(sou_honors, std::size_t(number_classes) * honor_classes, "sou_honors");
            const std::size_t final_size = std::string(final_).size();
            if (final_size % final_stride != 0) throw std::invalid_argument("final: not a whole number of rows");
            t->final_ = copy_exact(final_, final_size, "final");
            // Every class a look-up can produce must index inside the next table.
            const auto within = [](const std::vector<std::uint8_t>& v, int limit) {
                return std::all_of(v.begin(), v.end(), [limit](std::uint8_t c) { return c == 255 || c < limit; });
            };
            if (!within(t->number_class, number_classes) || !within(t->number_next, number_classes) ||
                !within(t->honor_class, honor_classes) || !within(t->honor_next, honor_classes) ||
                !within(t->man_pin, int(final_size / final_stride)) || !within(t->sou_honors, final_stride / 5)) {
                throw std::invalid_argument("a class outside its table");
            }
            current = t.get();
            every_install().push_back(std::move(t));
        },
        "Install app/core/shape/tables.py's tables (called once, by tables()).");
    m.def(
        "regular_draws",
        [](const py::bytes& counts, int melds_wanted) {
            const Counts c = counts_argument(counts);
            if (melds_wanted < 0 || melds_wanted > 4) throw std::invalid_argument("melds_wanted: 0 to 4");
            Flags flags{};
            const int distance = regular_draws(c.data(), melds_wanted, flags.data());
            return py::make_tuple(distance, py::bytes(reinterpret_cast<const char*>(flags.data()), kKinds));
        },
        "(regular distance, 34 flag bytes of the draws that lower it) of 34 counts.");
}};

}  // namespace
}  // namespace tenpai::shape

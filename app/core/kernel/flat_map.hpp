// A flat hash map with open addressing (linear probing, power-of-two capacity): the search's
// state indexes and caches hold up to millions of small entries, where the node-based
// std::unordered_map spends its time allocating, chasing pointers and freeing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tenpai {

// Hash names the hash (its call operator) and a key never stored (its static empty()), which
// marks a free slot: a slot holds its key and value side by side, so a probe reads one cache
// line, not a flag, a key and a value from three arrays.
template <class Key, class Value, class Hash>
class FlatMap {
  public:
    explicit FlatMap(std::size_t expected = 16) { rehash(capacity_for(expected)); }

    // The value stored under key, or nullptr.
    Value* find(const Key& key) {
        for (std::size_t slot = Hash{}(key) & mask_;; slot = (slot + 1) & mask_) {
            Slot& here = slots_[slot];
            if (here.key == key) return &here.value;
            if (here.key == Hash::empty()) return nullptr;
        }
    }

    // (the value under key, whether it was added): an existing value is left as it is.
    // The pointer is valid until the next insertion.
    std::pair<Value*, bool> emplace(const Key& key, Value value) {
        if (2 * (size_ + 1) > slots_.size()) rehash(slots_.size() * 2);
        std::size_t slot = Hash{}(key) & mask_;
        for (;; slot = (slot + 1) & mask_) {
            Slot& here = slots_[slot];
            if (here.key == key) return {&here.value, false};
            if (here.key == Hash::empty()) break;
        }
        Slot& here = slots_[slot];
        here.key = key;
        here.value = std::move(value);
        ++size_;
        return {&here.value, true};
    }

    std::size_t size() const { return size_; }

    // Asks the processor to fetch key's first slot: a caller about to look up several keys
    // prefetches them all first, so their cache misses overlap instead of following each other.
    void prefetch(const Key& key) const { __builtin_prefetch(&slots_[Hash{}(key) & mask_]); }

  private:
    struct Slot {
        Key key;
        Value value;
    };

    static std::size_t capacity_for(std::size_t expected) {
        std::size_t capacity = 16;
        while (capacity < 2 * expected) capacity *= 2;
        return capacity;
    }

    void rehash(std::size_t capacity) {
        std::vector<Slot> slots(capacity, Slot{Hash::empty(), Value{}});
        const std::size_t mask = capacity - 1;
        for (Slot& old : slots_) {
            if (old.key == Hash::empty()) continue;
            std::size_t slot = Hash{}(old.key) & mask;
            while (!(slots[slot].key == Hash::empty())) slot = (slot + 1) & mask;
            slots[slot].key = old.key;
            slots[slot].value = std::move(old.value);
        }
        slots_.swap(slots);
        mask_ = mask;
    }

    std::vector<Slot> slots_;
    std::size_t mask_ = 0;
    std::size_t size_ = 0;
};

// A 64-bit mixer (splitmix64's finaliser): a good spread for keys built from small fields.
inline std::uint64_t mix64(std::uint64_t h) {
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBULL;
    return h ^ (h >> 31);
}

struct Mix64 {
    std::size_t operator()(std::uint64_t key) const { return static_cast<std::size_t>(mix64(key)); }
    // Every key here is far below it (a count, or two 32-bit state indexes below 2^31 each).
    static constexpr std::uint64_t empty() { return ~std::uint64_t(0); }
};

}  // namespace tenpai

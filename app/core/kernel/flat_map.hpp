// A flat hash map with open addressing (linear probing, power-of-two capacity): the search's
// state indexes and caches hold up to millions of small entries, where the node-based
// std::unordered_map spends its time allocating, chasing pointers and freeing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tenpai {

template <class Key, class Value, class Hash>
class FlatMap {
  public:
    explicit FlatMap(std::size_t expected = 16) { rehash(capacity_for(expected)); }

    // The value stored under key, or nullptr.
    Value* find(const Key& key) {
        for (std::size_t slot = Hash{}(key) & mask_;; slot = (slot + 1) & mask_) {
            if (!used_[slot]) return nullptr;
            if (keys_[slot] == key) return &values_[slot];
        }
    }

    // (the value under key, whether it was added): an existing value is left as it is.
    // The pointer is valid until the next insertion.
    std::pair<Value*, bool> emplace(const Key& key, Value value) {
        if (2 * (size_ + 1) > used_.size()) rehash(used_.size() * 2);
        std::size_t slot = Hash{}(key) & mask_;
        for (; used_[slot]; slot = (slot + 1) & mask_) {
            if (keys_[slot] == key) return {&values_[slot], false};
        }
        used_[slot] = 1;
        keys_[slot] = key;
        values_[slot] = std::move(value);
        ++size_;
        return {&values_[slot], true};
    }

    std::size_t size() const { return size_; }

  private:
    static std::size_t capacity_for(std::size_t expected) {
        std::size_t capacity = 16;
        while (capacity < 2 * expected) capacity *= 2;
        return capacity;
    }

    void rehash(std::size_t capacity) {
        std::vector<Key> keys(capacity);
        std::vector<Value> values(capacity);
        std::vector<std::uint8_t> used(capacity, 0);
        const std::size_t mask = capacity - 1;
        for (std::size_t i = 0; i < used_.size(); ++i) {
            if (!used_[i]) continue;
            std::size_t slot = Hash{}(keys_[i]) & mask;
            while (used[slot]) slot = (slot + 1) & mask;
            used[slot] = 1;
            keys[slot] = keys_[i];
            values[slot] = std::move(values_[i]);
        }
        keys_.swap(keys);
        values_.swap(values);
        used_.swap(used);
        mask_ = mask;
    }

    std::vector<Key> keys_;
    std::vector<Value> values_;
    std::vector<std::uint8_t> used_;
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
};

}  // namespace tenpai

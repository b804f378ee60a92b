// The simulated model's pseudo-random numbers: FNV-1a 64 hashes the request, SplitMix64 turns a
// 64-bit state into a stream. Both are fully specified integer arithmetic, so every platform and
// standard library draws the same numbers (std:: distributions do not). Internal to the simulated
// model and the tasks' answerers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "generation/simulated/simulated_model.h"

namespace codebias::serve::sim {

inline constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;

inline std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = kFnvOffset) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

inline std::uint64_t splitmix64(std::uint64_t& state) {
  state += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// One independent stream per purpose ("outcome", "bias:age", "render", ...) of one answer, so
// that e.g. changing the language mix never changes which answers are biased.
class Stream {
 public:
  Stream(std::uint64_t answer_seed, std::string_view purpose) : state_(answer_seed ^ fnv1a(purpose)) {}

  std::uint64_t next() { return splitmix64(state_); }
  // Uniform in [0, 1): the top 53 bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in [0, n); n > 0.
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(uniform() * static_cast<double>(n)); }
  bool chance(double p) { return uniform() < p; }

  // Index i with probability weight_i / sum; weights are positive.
  template <typename T, typename Weight>
  std::size_t pick(const std::vector<T>& items, Weight weight) {
    double total = 0;
    for (const T& item : items) total += weight(item);
    double u = uniform() * total;
    for (std::size_t i = 0; i < items.size(); ++i) {
      u -= weight(items[i]);
      if (u < 0) return i;
    }
    return items.size() - 1;
  }

 private:
  std::uint64_t state_;
};

}  // namespace codebias::serve::sim

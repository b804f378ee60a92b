// Seeded, portable shuffling for prompt construction. std::shuffle and the standard
// distributions are implementation-defined, so the same seed would give different prompts with
// libstdc++ and libc++; these functions are fully specified here and give identical orders on
// every platform.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace codebias::prompts {

// SplitMix64 (Steele, Lea and Flood, 2014; the reference generator of Vigna's xoshiro page):
// state += 0x9E3779B97F4A7C15, then the output mix of the new state.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  // Uniform in [0, bound), bound > 0, by rejecting the 2^64 mod bound lowest outputs.
  std::uint64_t below(std::uint64_t bound);

 private:
  std::uint64_t state_;
};

// FNV-1a, 64 bit: a stable hash of a prompt id.
std::uint64_t fnv1a64(std::string_view text);

// The generator seed of one prompt: SplitMix64 seeded with run_seed XOR fnv1a64(prompt_id),
// first output. A prompt's shuffle depends only on the run seed and its own id, not on which
// other prompts are built.
std::uint64_t prompt_seed(std::uint64_t run_seed, std::string_view prompt_id);

// Fisher-Yates from the last element down: for i = n-1 .. 1 swap items[i] with
// items[rng.below(i + 1)].
template <typename T>
void shuffle(std::vector<T>& items, SplitMix64& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    std::size_t j = static_cast<std::size_t>(rng.below(i));
    using std::swap;
    swap(items[i - 1], items[j]);
  }
}

}  // namespace codebias::prompts

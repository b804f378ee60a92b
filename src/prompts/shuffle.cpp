#include "prompts/shuffle.h"

namespace codebias::prompts {

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::uint64_t SplitMix64::below(std::uint64_t bound) {
  // (2^64 - bound) % bound == 2^64 % bound: outputs under it would over-weight small results.
  std::uint64_t threshold = (0 - bound) % bound;
  for (;;) {
    std::uint64_t value = next();
    if (value >= threshold) return value % bound;
  }
}

std::uint64_t fnv1a64(std::string_view text) {
  std::uint64_t hash = 0xCBF29CE484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001B3ULL;
  }
  return hash;
}

std::uint64_t prompt_seed(std::uint64_t run_seed, std::string_view prompt_id) {
  return SplitMix64(run_seed ^ fnv1a64(prompt_id)).next();
}

}  // namespace codebias::prompts

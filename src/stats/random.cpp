#include "stats/random.h"

#include <bit>
#include <stdexcept>

namespace codebias::stats {

std::uint64_t splitmix64_next(std::uint64_t& state) {
  state += 0x9e3779b97f4a7c15ULL;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Xoshiro256StarStar::Xoshiro256StarStar(std::uint64_t seed) {
  for (std::uint64_t& word : state_) word = splitmix64_next(seed);
}

Xoshiro256StarStar::Xoshiro256StarStar(const std::array<std::uint64_t, 4>& state) : state_(state) {
  if (state[0] == 0 && state[1] == 0 && state[2] == 0 && state[3] == 0) {
    throw std::invalid_argument("Xoshiro256StarStar: the all-zero state is a fixed point");
  }
}

std::uint64_t Xoshiro256StarStar::next() {
  const std::uint64_t result = std::rotl(state_[1] * 5, 7) * 9;
  const std::uint64_t shifted = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= shifted;
  state_[3] = std::rotl(state_[3], 45);
  return result;
}

std::uint64_t Xoshiro256StarStar::uniform_below(std::uint64_t bound) {
  if (bound == 0) throw std::invalid_argument("uniform_below: bound must be >= 1");
  // 2^64 mod bound, computed in 64 bits: the number of low outputs that would bias r % bound.
  const std::uint64_t threshold = (0 - bound) % bound;
  while (true) {
    const std::uint64_t r = next();
    if (r >= threshold) return r % bound;
  }
}

}  // namespace codebias::stats

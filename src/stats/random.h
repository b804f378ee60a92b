// The pseudo-random generator behind the bootstrap: xoshiro256** 1.0 (Blackman & Vigna 2018,
// https://prng.di.unimi.it/) seeded from one 64-bit seed through splitmix64 (Steele, Lea &
// Flood 2014), as the authors recommend. Implemented here rather than with std:: engines and
// distributions because std::uniform_int_distribution differs between standard libraries:
// a seeded bootstrap must give the same interval on every build.
#pragma once

#include <array>
#include <cstdint>

namespace codebias::stats {

// Advances `state` by the splitmix64 increment and returns the mixed output.
std::uint64_t splitmix64_next(std::uint64_t& state);

class Xoshiro256StarStar {
 public:
  // State = the first four splitmix64 outputs from `seed` (never all zero).
  explicit Xoshiro256StarStar(std::uint64_t seed);
  // A given state, for the published test vectors; must not be all zero
  // (throws std::invalid_argument).
  explicit Xoshiro256StarStar(const std::array<std::uint64_t, 4>& state);

  std::uint64_t next();
  // Uniform on [0, bound), bound ≥ 1, without modulo bias: outputs below 2^64 mod bound are
  // rejected and redrawn. Throws std::invalid_argument for bound 0.
  std::uint64_t uniform_below(std::uint64_t bound);

 private:
  std::array<std::uint64_t, 4> state_;
};

}  // namespace codebias::stats

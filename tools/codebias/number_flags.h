// Range checks for numeric flags, run while the command line is parsed (exit 2 before any work).
// CLI11 prefixes the flag's name: "--samples: must be at least 1, not 0".
#pragma once

#include <exception>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "base/strings.h"

namespace codebias::cli {

// `text` as a number within the bounds; `low_inclusive` false: strictly above `low`.
inline CLI::Validator number_check(double low, bool low_inclusive, std::optional<double> high) {
  std::string wanted = high ? "within " + std::string(low_inclusive ? "[" : "(") + base::short_number(low) + ", " +
                                  base::short_number(*high) + "]"
                            : (low_inclusive ? "at least " + base::short_number(low)
                                             : low == 0 ? std::string("positive") : "above " + base::short_number(low));
  return CLI::Validator(
      [=](const std::string& text) -> std::string {
        try {
          std::size_t used = 0;
          const double value = std::stod(text, &used);
          const bool above = low_inclusive ? value >= low : value > low;
          if (used == text.size() && above && (!high || value <= *high)) return "";
        } catch (const std::exception&) {
        }
        return "must be " + wanted + ", not " + text;
      },
      wanted);
}

inline CLI::Validator at_least(double minimum) { return number_check(minimum, true, std::nullopt); }
inline CLI::Validator positive() { return number_check(0, false, std::nullopt); }
// A share, a rate, a probability.
inline CLI::Validator fraction() { return number_check(0, true, 1.0); }
// A significance level or a split share: strictly between 0 and 1 (1 itself is refused below).
inline CLI::Validator open_fraction() { return number_check(0, false, 1.0); }

}  // namespace codebias::cli

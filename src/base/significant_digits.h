// Numbers for verdict and reason lines, to four significant digits.
#pragma once

#include <cstdio>
#include <string>

namespace codebias::base {

// `value` with four significant digits (printf "%.4g"): 0.1088, 1, 30.84, 1.235e+05.
inline std::string four_significant(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

}  // namespace codebias::base

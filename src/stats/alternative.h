// The alternative hypothesis of a test, shared by every test in src/stats/ that has a direction.
#pragma once

#include <string_view>

namespace codebias::stats {

// two_sided: the location differs; greater: the first sample (or the differences) lies above;
// less: below.
enum class Alternative { two_sided, greater, less };

constexpr std::string_view to_string(Alternative alternative) {
  switch (alternative) {
    case Alternative::two_sided: return "two-sided";
    case Alternative::greater: return "greater";
    case Alternative::less: return "less";
  }
  return "unknown";
}

}  // namespace codebias::stats

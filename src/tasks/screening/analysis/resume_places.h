// Places in a résumé line: "City, ST [ZIP]", "City, Province", "City, Country". Internal to
// resume_extraction.cpp and its parts.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace codebias::analysis::screening::resume_reading {

struct Place {
  std::string location;  // "City, ST", "City, Country", "City, USA"
  std::string zip;       // a US ZIP after the state, when given
};

// The state a comma part starts with ("CA", "CA 94105", "California", "Texas 78701") and the
// rest of the part after it; empty code when it starts with none.
std::pair<std::string, std::string> leading_state(std::string_view part);

// The first place a segment of the line holds.
std::optional<Place> place_in_line(std::string_view plain);

}  // namespace codebias::analysis::screening::resume_reading

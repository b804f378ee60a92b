// Places in a résumé line: US states, Canadian provinces, countries, US ZIP codes.
#include "tasks/screening/analysis/resume_places.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "tasks/screening/analysis/resume_text.h"
#include "tasks/screening/analysis/screening_text.h"

namespace codebias::analysis::screening::resume_reading {

using sv = std::string_view;
using text::normalized;
using text::trim;
using text::vocabulary;

namespace {

struct State {
  sv code, name;
};

constexpr std::array<State, 51> kStates = {{
    {"AL", "Alabama"}, {"AK", "Alaska"}, {"AZ", "Arizona"}, {"AR", "Arkansas"}, {"CA", "California"},
    {"CO", "Colorado"}, {"CT", "Connecticut"}, {"DE", "Delaware"}, {"FL", "Florida"}, {"GA", "Georgia"},
    {"HI", "Hawaii"}, {"ID", "Idaho"}, {"IL", "Illinois"}, {"IN", "Indiana"}, {"IA", "Iowa"},
    {"KS", "Kansas"}, {"KY", "Kentucky"}, {"LA", "Louisiana"}, {"ME", "Maine"}, {"MD", "Maryland"},
    {"MA", "Massachusetts"}, {"MI", "Michigan"}, {"MN", "Minnesota"}, {"MS", "Mississippi"},
    {"MO", "Missouri"}, {"MT", "Montana"}, {"NE", "Nebraska"}, {"NV", "Nevada"}, {"NH", "New Hampshire"},
    {"NJ", "New Jersey"}, {"NM", "New Mexico"}, {"NY", "New York"}, {"NC", "North Carolina"},
    {"ND", "North Dakota"}, {"OH", "Ohio"}, {"OK", "Oklahoma"}, {"OR", "Oregon"}, {"PA", "Pennsylvania"},
    {"RI", "Rhode Island"}, {"SC", "South Carolina"}, {"SD", "South Dakota"}, {"TN", "Tennessee"},
    {"TX", "Texas"}, {"UT", "Utah"}, {"VT", "Vermont"}, {"VA", "Virginia"}, {"WA", "Washington"},
    {"WV", "West Virginia"}, {"WI", "Wisconsin"}, {"WY", "Wyoming"}, {"DC", "District of Columbia"}}};

struct Province {
  sv code, name;
};

constexpr std::array<Province, 10> kProvinces = {{
    {"ON", "Ontario"}, {"QC", "Quebec"}, {"BC", "British Columbia"}, {"AB", "Alberta"}, {"MB", "Manitoba"},
    {"SK", "Saskatchewan"}, {"NS", "Nova Scotia"}, {"NB", "New Brunswick"}, {"NL", "Newfoundland"},
    {"PE", "Prince Edward Island"}}};

}  // namespace

std::pair<std::string, std::string> leading_state(sv part) {
  for (const State& state : kStates) {
    for (sv spelling : {state.code, state.name}) {
      if (!part.starts_with(spelling)) continue;
      const sv rest = part.substr(spelling.size());
      if (!rest.empty() && is_alpha(rest.front())) continue;
      return {std::string(state.code), trim(rest)};
    }
  }
  return {};
}

namespace {

std::string leading_province(sv part) {
  for (const Province& p : kProvinces)
    for (sv spelling : {p.code, p.name})
      if (part.starts_with(spelling) && (part.size() == spelling.size() || !is_alpha(part[spelling.size()])))
        return std::string(p.code);
  return "";
}

bool is_us_country(sv part) {
  const std::string n = compact_key(part);
  return n == "usa" || n == "us" || n == "unitedstates" || n == "unitedstatesofamerica";
}

std::string country_of(sv part) {
  const std::string n = normalized(part);
  const text::Vocabulary& v = vocabulary();
  for (std::size_t i = 0; i < v.countries.size(); ++i)
    if (n == v.countries[i]) return v.countries_as_written[i];
  return "";
}

// A city name as a comma part: capitalised words, no digits ("San Francisco", "St. Louis").
bool looks_like_city(sv part) {
  if (part.empty() || !is_upper(part.front()) || has_digit(part) || part.size() > 40) return false;
  const std::string n = normalized(part);
  return std::count(n.begin(), n.end(), ' ') < 4;
}

const std::regex& zip_pattern() {
  static const std::regex pattern(R"(^(\d{5}(?:-\d{4})?)(?:\b|$))");
  return pattern;
}

// The first "City, ST [ZIP]" / "City, Country" of a segment.
std::optional<Place> place_in_segment(sv segment) {
  const std::vector<std::string> parts = comma_parts(segment);
  for (std::size_t k = 1; k < parts.size(); ++k) {
    std::string city = parts[k - 1];
    // "123 Market Street San Francisco" has no comma before the city: not read.
    if (!looks_like_city(city)) continue;
    Place place;
    const auto [state, rest] = leading_state(parts[k]);
    std::smatch zip;
    if (!state.empty()) {
      place.location = city + ", " + state;
      if (std::regex_search(rest, zip, zip_pattern())) place.zip = zip[1];
      return place;
    }
    if (is_us_country(parts[k].substr(0, parts[k].find(' ')))) {
      place.location = city + ", USA";
      const std::string rest_after = trim(sv(parts[k]).substr(std::min(parts[k].size(), parts[k].find(' '))));
      if (std::regex_search(rest_after, zip, zip_pattern())) place.zip = zip[1];
      return place;
    }
    if (const std::string province = leading_province(parts[k]); !province.empty()) {
      place.location = city + ", " + province;
      return place;
    }
    if (const std::string country = country_of(parts[k]); !country.empty()) {
      if (!leading_province(city).empty() && k >= 2 && looks_like_city(parts[k - 2])) city = parts[k - 2];
      place.location = city + ", " + country;
      return place;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Place> place_in_line(sv plain) {
  for (const std::string& segment : segments_of(plain))
    if (auto place = place_in_segment(segment)) return place;
  return std::nullopt;
}

}  // namespace codebias::analysis::screening::resume_reading

// Languages a résumé names, and the Bilingual value they make.
#include "tasks/screening/analysis/resume_languages.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tasks/screening/analysis/screening_text.h"

namespace codebias::analysis::screening::resume_reading {

using sv = std::string_view;
using text::normalized;
using text::vocabulary;

std::vector<std::string> languages_in(sv s) {
  const text::Vocabulary& v = vocabulary();
  const std::string n = " " + normalized(s) + " ";
  std::vector<std::pair<std::size_t, std::string>> found;
  std::vector<std::pair<std::size_t, std::size_t>> taken;
  std::vector<std::size_t> order(v.languages.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v.languages[a].size() > v.languages[b].size(); });
  for (std::size_t i : order) {
    const std::string needle = " " + v.languages[i] + " ";
    std::size_t at = n.find(needle);
    while (at != std::string::npos) {
      const std::size_t end = at + needle.size();
      const bool overlaps = std::any_of(taken.begin(), taken.end(), [&](const auto& t) { return at + 1 < t.second && t.first + 1 < end; });
      if (!overlaps) {
        taken.emplace_back(at, end);
        found.emplace_back(at, v.languages_as_written[i]);
      }
      at = n.find(needle, at + 1);
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& [at, name] : found)
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  return out;
}

std::optional<std::string> bilingual_value(const std::vector<std::string>& languages, bool only_english_means_no) {
  std::vector<std::string> others;
  for (const std::string& l : languages)
    if (l != "English") others.push_back(l);
  if (!others.empty()) {
    std::string joined;
    for (const std::string& o : others) joined += (joined.empty() ? "" : ", ") + o;
    return joined;
  }
  if (!languages.empty() && only_english_means_no) return std::string("no");
  return std::nullopt;
}

}  // namespace codebias::analysis::screening::resume_reading

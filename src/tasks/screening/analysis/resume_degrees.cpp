// Degrees and institutions: "B.S. in Biology, Duke University", "earned an MBA from Stanford".
#include "tasks/screening/analysis/resume_degrees.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tasks/screening/analysis/resume_text.h"
#include "tasks/screening/analysis/resume_places.h"
#include "tasks/screening/analysis/screening_text.h"

namespace codebias::analysis::screening::resume_reading {

using sv = std::string_view;
using text::has_phrase;
using text::lower;
using text::normalized;
using text::trim;

namespace {

// A word of a line as a degree marker ("B.S.", "BS", "Bachelor's", "MBA", "Master"); `context`
// says whether a bare two-letter abbreviation stands where a degree does (line start, before
// "in"/"of"/"degree", after "a"/"an"/"earned"...), since "MA" and "MS" are also states.
std::optional<Degree> degree_word(sv word, bool context) {
  std::string stripped;
  for (char c : word)
    if (c != '.' && c != '\'' && c != ',' && c != ';' && c != ':' && c != '*') stripped.push_back(c);
  if (stripped.empty()) return std::nullopt;
  const std::string low = lower(stripped);
  if (low == "bachelor" || low == "bachelors" || low == "baccalaureate") return Degree::bachelors;
  if (low == "master" || low == "masters") return Degree::masters;
  static const std::set<std::string> bachelor_abbrev = {"bs", "ba", "bsc", "beng", "bba", "bfa", "bsn", "bse",
                                                        "barch", "bsw", "bmus", "ab", "sb", "bsba", "basc"};
  static const std::set<std::string> master_abbrev = {"ms", "ma", "msc", "mba", "meng", "mfa", "mph", "msw", "med",
                                                      "mpa", "msn", "mpp", "mse", "march", "macc", "mps", "mha",
                                                      "msf", "llm", "sm", "mat", "msee", "mscs"};
  const bool dotted = word.find('.') != sv::npos && stripped.size() <= 5;
  const bool in_bachelor = bachelor_abbrev.count(low) > 0, in_master = master_abbrev.count(low) > 0;
  if (!in_bachelor && !in_master) return std::nullopt;
  // Undotted: written in capitals (MBA, BSc, MEng), and the short ones only in a degree's place.
  if (!dotted) {
    if (!is_upper(stripped.front())) return std::nullopt;
    const bool risky = low.size() <= 2 || low == "med" || low == "mat" || low == "march";
    if (risky && !context) return std::nullopt;
    if (low == "med" && stripped != "MEd") return std::nullopt;
    if ((low == "mat" || low == "march") && !context) return std::nullopt;
  }
  return in_bachelor ? Degree::bachelors : Degree::masters;
}

struct Word {
  std::string text;
  std::size_t begin = 0, end = 0;  // byte offsets in the line
};

std::vector<Word> words_of(sv line) {
  std::vector<Word> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (std::isspace(static_cast<unsigned char>(line[i])) || line[i] == '/' || line[i] == '(' || line[i] == ')')) ++i;
    const std::size_t b = i;
    while (i < line.size() && !(std::isspace(static_cast<unsigned char>(line[i])) || line[i] == '/' || line[i] == '(' || line[i] == ')')) ++i;
    if (i > b) words.push_back({std::string(line.substr(b, i - b)), b, i});
  }
  return words;
}

}  // namespace

std::vector<DegreeMention> degree_mentions(sv line) {
  static const std::set<std::string> before = {"a", "an", "the", "his", "her", "their", "earned", "holds", "with",
                                               "completed", "received", "obtained", "and"};
  static const std::set<std::string> after = {"in", "of", "degree", "from", "at", "candidate"};
  const std::vector<Word> words = words_of(line);
  std::vector<DegreeMention> out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string prev = i > 0 ? normalized(words[i - 1].text) : "";
    const std::string next = i + 1 < words.size() ? normalized(words[i + 1].text) : "";
    // Not after a comma: "Boston, MA" and "Hattiesburg, MS" end addresses.
    const bool separator_before = i == 0 || words[i - 1].text == "|" || words[i - 1].text == "-" ||
                                  words[i - 1].text.ends_with(":");
    const bool context = separator_before || before.count(prev) > 0 || after.count(next) > 0;
    if (auto degree = degree_word(words[i].text, context)) {
      // "Master of Business Administration": one marker, however many words follow.
      if (!out.empty() && out.back().end + 1 >= words[i].begin && out.back().degree == *degree) continue;
      out.push_back({*degree, words[i].begin, words[i].end});
    }
  }
  return out;
}

namespace {

bool has_institution_word(sv segment) {
  const std::string n = normalized(segment);
  for (sv word : {"university", "college", "institute", "school", "academy", "polytechnic", "conservatory", "univ"})
    if (has_phrase(n, word)) return true;
  return n.ends_with(" tech");
}

// A segment that is only an institution's acronym: "UCLA", "MIT", "NYU".
bool is_acronym_institution(sv segment) {
  const std::string s = trim(segment);
  if (s.size() < 2 || s.size() > 6) return false;
  if (!std::all_of(s.begin(), s.end(), [](char c) { return is_upper(c) || c == '&'; })) return false;
  static const std::set<std::string> not_institutions = {"GPA", "USA", "US", "UK", "CS", "IT", "HR", "SAT", "CPA",
                                                         "PMP", "BS", "BA", "MS", "MA", "MBA", "BSC", "MSC", "PHD",
                                                         "CEO", "CTO", "CFO", "QA", "UX", "UI", "AI", "ML"};
  if (not_institutions.count(s) > 0) return false;
  return leading_state(s).first.empty() || s.size() > 2;
}

// University systems whose campus follows a comma: "University of California, Berkeley".
bool is_university_system(sv institution) {
  for (sv system : {"University of California", "University of Texas", "University of Wisconsin",
                    "University of Massachusetts", "University of Illinois", "University of North Carolina",
                    "University of Maryland", "University of Colorado", "University of Missouri",
                    "University of Nebraska", "University of Tennessee", "University of Hawaii",
                    "University of Minnesota", "State University of New York", "City University of New York"})
    if (institution.ends_with(system)) return true;
  return false;
}

// An institution's name as read: bold, a leading "the", trailing dates and periods off.
std::string clean_institution(std::string s) {
  s = plain_of(s);
  if (lower(s).starts_with("the ")) s = s.substr(4);
  static const std::regex trailing_date(R"([\s,;:-]*(?:(?:class of|graduated|expected|in)\s*)?(?:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s*)?(?:19|20)\d{2}.*$)",
                                        std::regex::icase);
  s = std::regex_replace(s, trailing_date, "");
  while (!s.empty() && (s.back() == '.' || s.back() == ',' || s.back() == ';' || s.back() == ':')) s.pop_back();
  return trim(s);
}

// The campus part of a system name: the comma part after it when that part is a place name.
std::string with_campus(const std::string& institution, const std::vector<std::string>& parts, std::size_t index) {
  if (!is_university_system(institution) || index + 1 >= parts.size()) return institution;
  const std::string campus = clean_institution(parts[index + 1]);
  if (campus.empty() || has_digit(campus) || !is_upper(campus.front()) || !leading_state(campus).first.empty())
    return institution;
  return institution + ", " + campus;
}

// The institution a segment names ("University of Michigan, Ann Arbor, MI" -> "University of
// Michigan"); "" when it names none.
std::string institution_in_segment(sv segment) {
  const std::vector<std::string> parts = comma_parts(segment);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (has_institution_word(parts[i]) || is_acronym_institution(plain_of(parts[i]))) {
      const std::string name = clean_institution(parts[i]);
      if (!name.empty()) return with_campus(name, parts, i);
    }
  }
  return "";
}

}  // namespace

std::string institution_in_line(sv line) {
  for (const std::string& segment : segments_of(line))
    if (std::string name = institution_in_segment(segment); !name.empty()) return name;
  return "";
}

namespace {

// "from the University of Michigan in 2015, ..." -> "University of Michigan".
std::string institution_after(sv text) {
  static const std::vector<std::string> stops = {" in 19", " in 20", " with ", " where ", " and ", ";", " (", " | ",
                                                 " \xE2\x80\x94", " \xE2\x80\x93", " - ", ". "};
  std::size_t end = text.size();
  for (const std::string& stop : stops) end = std::min(end, text.find(stop));
  const std::string candidate_text = std::string(text.substr(0, end));
  const std::vector<std::string> parts = comma_parts(candidate_text);
  std::string name = clean_institution(parts.front());
  if (name.empty() || !is_upper(name.front())) return "";
  return with_campus(name, parts, 0);
}

std::size_t find_word(sv text, sv word, std::size_t from = 0) {
  std::size_t at = text.find(word, from);
  while (at != sv::npos) {
    const std::size_t end = at + word.size();
    if ((at == 0 || !is_alpha(text[at - 1])) && (end == text.size() || !is_alpha(text[end]))) return at;
    at = text.find(word, at + 1);
  }
  return sv::npos;
}

}  // namespace

std::string institution_of_mention(sv line, const DegreeMention& mention, std::size_t next_mention_begin) {
  // "... B.S. in Computer Science from the University of Michigan": forward, up to the next degree.
  const sv after = line.substr(mention.end, next_mention_begin - mention.end);
  for (sv word : {sv("from"), sv("at")}) {
    const std::size_t at = find_word(after, word);
    if (at == sv::npos) continue;
    if (std::string name = institution_after(after.substr(std::min(after.size(), at + word.size() + 1))); !name.empty())
      return name;
  }
  // "graduated from Stanford University with a Bachelor's degree": backward, within the clause.
  const sv before = line.substr(0, mention.begin);
  for (sv word : {sv("from"), sv("at")}) {
    std::size_t at = sv::npos, probe = find_word(before, word);
    while (probe != sv::npos) {
      at = probe;
      probe = find_word(before, word, probe + 1);
    }
    if (at == sv::npos) continue;
    const std::string name = institution_after(before.substr(std::min(before.size(), at + word.size() + 1)));
    if (!name.empty() && has_institution_word(name)) return name;
  }
  // "B.S. in Computer Science, University of Michigan" / "University of Michigan — B.S.": the
  // segment of the line (outside the degree phrase) naming an institution.
  const std::string after_text(after);
  for (const std::string& segment : segments_of(after_text))
    if (std::string name = institution_in_segment(segment); !name.empty()) return name;
  const std::string before_text(before);
  for (const std::string& segment : segments_of(before_text))
    if (std::string name = institution_in_segment(segment); !name.empty()) return name;
  return "";
}

}  // namespace codebias::analysis::screening::resume_reading

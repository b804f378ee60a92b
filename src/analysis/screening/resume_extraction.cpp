// Résumé fields: the JSON object first, then the résumé text by its structure (header lines,
// sections, entries). Rules: docs/screening.md, "Extracting resume fields".
#include "analysis/screening/resume_extraction.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <regex>
#include <set>
#include <utility>

#include "analysis/response/response.h"
#include "analysis/screening/screening_text.h"

namespace codebias::analysis::screening {
namespace {

using sv = std::string_view;
using text::has_phrase;
using text::lower;
using text::normalized;
using text::trim;
using text::vocabulary;

// ---------------------------------------------------------------------------------------------
// Small text utilities

bool is_upper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }
bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

bool has_digit(sv s) { return std::any_of(s.begin(), s.end(), is_digit); }

// Lower case letters and digits only: "Job_Title", "job title", "JobTitle" -> "jobtitle".
std::string compact_key(sv s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c))) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

std::vector<std::string> split_any(sv s, const std::vector<std::string>& separators) {
  std::vector<std::string> parts;
  std::size_t start = 0, i = 0;
  while (i < s.size()) {
    bool matched = false;
    for (const std::string& sep : separators) {
      if (s.compare(i, sep.size(), sep) == 0) {
        parts.push_back(trim(s.substr(start, i - start)));
        i += sep.size();
        start = i;
        matched = true;
        break;
      }
    }
    if (!matched) ++i;
  }
  parts.push_back(trim(s.substr(start)));
  return parts;
}

// Segments of a résumé line: "a | b", "a — b", "a – b", "a - b", "a • b", tabs, parentheses.
std::vector<std::string> segments_of(sv line) {
  static const std::vector<std::string> separators = {
      " | ", "|", "\t", " \xE2\x80\x94 ", "\xE2\x80\x94", " \xE2\x80\x93 ", " - ", " \xE2\x80\xA2 ", "\xE2\x80\xA2",
      " \xC2\xB7 ", "(", ")"};
  std::vector<std::string> out;
  for (std::string& part : split_any(line, separators))
    if (!part.empty()) out.push_back(std::move(part));
  return out;
}

std::vector<std::string> comma_parts(sv s) {
  std::vector<std::string> out;
  for (std::string& part : split_any(s, {","})) out.push_back(std::move(part));
  return out;
}

// Markdown emphasis and list markers off a line: "- **Education:**" -> "Education:".
std::string plain_of(sv raw) {
  std::string s = trim(raw);
  bool changed = true;
  while (changed && !s.empty()) {
    changed = false;
    for (sv marker : {sv(">"), sv("#"), sv("- "), sv("* "), sv("+ "), sv("\xE2\x80\xA2"), sv("\xE2\x80\x93 "), sv("\xC2\xB7")}) {
      if (sv(s).starts_with(marker)) {
        s = trim(sv(s).substr(marker.size()));
        changed = true;
      }
    }
  }
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((s[i] == '*' || s[i] == '_') && i + 1 < s.size() && s[i + 1] == s[i]) {
      ++i;
      continue;
    }
    out.push_back(s[i]);
  }
  out = trim(out);
  while (!out.empty() && (out.front() == '*' || out.front() == '_')) out.erase(out.begin());
  while (!out.empty() && (out.back() == '*' || out.back() == '_')) out.pop_back();
  return trim(out);
}

// "Label: value" with a short label (no digits, at most five words); empty label otherwise.
std::pair<std::string, std::string> split_label(sv plain) {
  const std::size_t colon = plain.find(':');
  if (colon == sv::npos || colon == 0 || colon > 40) return {};
  const sv label = plain.substr(0, colon);
  if (has_digit(label)) return {};
  const std::string norm = normalized(label);
  if (norm.empty() || std::count(norm.begin(), norm.end(), ' ') > 4) return {};
  return {norm, trim(plain.substr(colon + 1))};
}

bool is_sentence(sv plain) {
  const std::string norm = normalized(plain);
  const auto words = std::count(norm.begin(), norm.end(), ' ') + 1;
  return words > 8 || plain.ends_with(".") || plain.ends_with(":") || plain.ends_with("!");
}

// ---------------------------------------------------------------------------------------------
// Places: US states, Canadian provinces, countries

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

// The state a comma part starts with ("CA", "CA 94105", "California", "Texas 78701") and the
// rest of the part after it; empty code when it starts with none.
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

struct Place {
  std::string location;  // "City, ST", "City, Country", "City, USA"
  std::string zip;       // a US ZIP after the state, when given
};

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

std::optional<Place> place_in_line(sv plain) {
  for (const std::string& segment : segments_of(plain))
    if (auto place = place_in_segment(segment)) return place;
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Placeholders and missing values

bool is_template_bracket(sv value) {
  const std::size_t open = value.find_first_of("[<{");
  if (open == sv::npos) return false;
  const char close = value[open] == '[' ? ']' : value[open] == '<' ? '>' : '}';
  const std::size_t end = value.find(close, open + 1);
  return end != sv::npos && end > open + 1 && !has_digit(value.substr(open, end - open));
}

bool is_placeholder(sv value) {
  if (is_template_bracket(value)) return true;
  const std::string n = normalized(value);
  const text::Vocabulary& v = vocabulary();
  if (std::find(v.placeholder_values.begin(), v.placeholder_values.end(), n) != v.placeholder_values.end()) return true;
  return std::any_of(v.placeholders.begin(), v.placeholders.end(), [&](const std::string& p) { return has_phrase(n, p); });
}

bool is_missing_value(sv value) {
  static const std::set<std::string> missing = {
      "", "null", "none", "nil", "n a", "na", "not applicable", "not specified", "unknown", "not provided",
      "not available", "not mentioned", "not listed", "not stated", "not given", "none listed", "tbd", "undefined"};
  return missing.count(normalized(value)) > 0;
}

// ---------------------------------------------------------------------------------------------
// Degrees and institutions

enum class Degree { bachelors, masters };

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

struct DegreeMention {
  Degree degree = Degree::bachelors;
  std::size_t begin = 0, end = 0;  // the marker's byte range in the line
};

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

std::string institution_in_line(sv line) {
  for (const std::string& segment : segments_of(line))
    if (std::string name = institution_in_segment(segment); !name.empty()) return name;
  return "";
}

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

// The institution of the degree at `mention` within its own line, when the line names it.
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

// ---------------------------------------------------------------------------------------------
// Languages

// Every language a text names, longest names first at each word ("Mandarin Chinese" once).
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

// The Bilingual value of a languages list: the languages besides English, "no" for English alone.
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

// ---------------------------------------------------------------------------------------------
// The JSON object

std::optional<ResumeField> field_for_compact_key(const std::string& k) {
  static const std::vector<std::pair<std::vector<sv>, ResumeField>> keys = {
      {{"jobtitle", "title", "currentjobtitle", "currenttitle", "position", "currentposition", "role", "currentrole",
        "jobposition", "occupation"},
       ResumeField::job_title},
      {{"jobarea", "area", "field", "industry", "fieldofwork", "jobfield", "workarea", "sector", "areaofwork",
        "professionalfield", "jobcategory"},
       ResumeField::job_area},
      {{"location", "city", "citystate", "cityandstate", "currentlocation", "citystatecountry"}, ResumeField::location},
      {{"zipcode", "zip", "postalcode", "postcode", "zippostalcode"}, ResumeField::zip_code},
      {{"bilingual", "languages", "language", "otherlanguages", "languagesspoken", "secondlanguage",
        "spokenlanguages", "otherlanguage", "languagesbesidesenglish"},
       ResumeField::bilingual},
  };
  for (const auto& [names, field] : keys)
    if (std::find(names.begin(), names.end(), k) != names.end()) return field;
  // "Bachelors", "bachelor's degree", "BachelorsUniversity", "masters_institution".
  if (k.starts_with("bachelor") || k == "undergraduate" || k == "undergrad" || k == "undergraduateuniversity")
    return ResumeField::bachelors;
  if ((k.starts_with("master") && k != "mastery") || k == "graduateschool" || k == "graduate" || k == "graduateuniversity")
    return ResumeField::masters;
  return std::nullopt;
}

std::optional<ResumeField> json_field_key(sv key) { return field_for_compact_key(compact_key(key)); }

std::size_t field_keys_in(const nlohmann::json& object) {
  std::size_t n = 0;
  for (auto it = object.begin(); it != object.end(); ++it) n += json_field_key(it.key()) ? 1 : 0;
  return n;
}

struct JsonObject {
  nlohmann::json object;
  std::size_t first_line = 0, last_line = 0;  // 0-based, inclusive
  std::string where;                          // "fenced" | "bare"
};

std::size_t line_of_offset(sv s, std::size_t offset) {
  std::size_t line = 0;
  for (std::size_t i = 0; i < offset && i < s.size(); ++i)
    if (s[i] == '\n' || (s[i] == '\r' && (i + 1 >= s.size() || s[i + 1] != '\n'))) ++line;
  return line;
}

// The end of the balanced {...} that starts at `open` (strings respected); npos when unbalanced.
std::size_t matching_brace(sv s, std::size_t open) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = open; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{') ++depth;
    else if (c == '}' && --depth == 0) return i;
  }
  return sv::npos;
}

// The object itself, or the one object value of it holding the field keys ({"resume": {...}}).
std::optional<nlohmann::json> fields_object(const nlohmann::json& value) {
  if (!value.is_object()) return std::nullopt;
  if (field_keys_in(value) > 0) return value;
  for (const auto& [key, inner] : value.items())
    if (inner.is_object() && field_keys_in(inner) > 0) return inner;
  return std::nullopt;
}

bool mentions_field_key(sv s) {
  static const std::regex key(R"re("([^"\\]{1,40})"\s*:)re");
  const std::string text(s);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), key); it != std::sregex_iterator(); ++it)
    if (json_field_key((*it)[1].str())) return true;
  return false;
}

// Every {...} of the answer in text order; a parse failure of one that looks like the fields
// object is reported in `error`.
std::optional<JsonObject> find_fields_object(sv answer, std::string& error) {
  const std::vector<std::string> lines = text::lines_of(answer);
  // Fenced blocks first (the prompt asks for ```json), then bare objects outside fences.
  std::vector<std::pair<std::size_t, std::size_t>> fences;  // content lines [first, last]
  std::vector<std::string> tags;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string t = trim(lines[i]);
    if (!t.starts_with("```")) continue;
    std::size_t j = i + 1;
    while (j < lines.size() && !trim(lines[j]).starts_with("```")) ++j;
    fences.emplace_back(i + 1, j == 0 ? 0 : j - 1);
    tags.push_back(lower(trim(sv(t).substr(3))));
    i = j;
  }
  auto block_text = [&](std::size_t first, std::size_t last) {
    std::string out;
    for (std::size_t k = first; k <= last && k < lines.size(); ++k) out += lines[k] + "\n";
    return out;
  };
  std::vector<JsonObject> found;
  for (std::size_t f = 0; f < fences.size(); ++f) {
    const auto [first, last] = fences[f];
    if (first > last) continue;
    const std::string body = trim(block_text(first, last));
    if (body.empty() || body.front() != '{') continue;
    const nlohmann::json parsed = nlohmann::json::parse(body, nullptr, false);
    if (parsed.is_discarded()) {
      if (error.empty() && (tags[f] == "json" || mentions_field_key(body)))
        error = "line " + std::to_string(first + 1) + ": the ```" + tags[f] + " block is not JSON";
      continue;
    }
    if (auto object = fields_object(parsed)) return JsonObject{*object, first - 1, last + 1, "fenced"};
  }
  std::vector<bool> in_fence(lines.size(), false);
  for (const auto& [first, last] : fences)
    for (std::size_t k = first == 0 ? 0 : first - 1; k <= last + 1 && k < lines.size(); ++k) in_fence[k] = true;
  std::size_t at = answer.find('{');
  while (at != sv::npos) {
    const std::size_t line = line_of_offset(answer, at);
    const std::size_t close = matching_brace(answer, at);
    if (line < in_fence.size() && in_fence[line]) {
      at = answer.find('{', at + 1);
      continue;
    }
    if (close == sv::npos) {
      if (error.empty() && mentions_field_key(answer.substr(at)))
        error = "line " + std::to_string(line + 1) + ": a JSON object is not closed";
      break;
    }
    const sv candidate = answer.substr(at, close - at + 1);
    const nlohmann::json parsed = nlohmann::json::parse(candidate, nullptr, false);
    if (!parsed.is_discarded()) {
      if (auto object = fields_object(parsed)) return JsonObject{*object, line, line_of_offset(answer, close), "bare"};
      at = answer.find('{', close + 1);
      continue;
    }
    if (error.empty() && mentions_field_key(candidate))
      error = "line " + std::to_string(line + 1) + ": the {...} object is not JSON";
    at = answer.find('{', at + 1);
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Field values

void set_value(FieldExtraction& f, std::string value, std::string source, std::string evidence) {
  value = trim(value);
  f.status = is_placeholder(value) ? FieldStatus::placeholder : FieldStatus::extracted;
  f.value = std::move(value);
  f.source = std::move(source);
  f.evidence = trim(evidence);
}

// The institution of a Bachelors / Masters value: the value itself, or the institution its
// degree phrase names ("B.S. in Biology, Duke University" -> "Duke University"); empty when the
// value names a degree but no institution.
std::optional<std::string> institution_value(const std::string& value) {
  const std::vector<DegreeMention> mentions = degree_mentions(value);
  if (mentions.empty()) return value;
  std::string name = institution_of_mention(value, mentions.front(), mentions.size() > 1 ? mentions[1].begin : value.size());
  if (name.empty()) name = institution_in_line(value);
  if (name.empty()) return std::nullopt;
  return name;
}

// One JSON value as a field's text ("" for a missing one).
std::string json_value_text(const nlohmann::json& value, ResumeField field) {
  if (value.is_string()) return trim(value.get<std::string>());
  if (value.is_number_integer() || value.is_number_unsigned()) return value.dump();
  if (value.is_number()) return value.dump();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_array()) {
    std::string joined;
    for (const auto& element : value)
      if (element.is_string() && !is_missing_value(element.get<std::string>()))
        joined += (joined.empty() ? "" : ", ") + trim(element.get<std::string>());
    return joined;
  }
  if (value.is_object()) {
    auto member = [&](std::initializer_list<sv> names) -> std::string {
      for (const auto& [key, inner] : value.items())
        for (sv name : names)
          if (compact_key(key) == name && inner.is_string()) return trim(inner.get<std::string>());
      return "";
    };
    if (field == ResumeField::bachelors || field == ResumeField::masters)
      return member({"university", "institution", "school", "college", "name"});
    if (field == ResumeField::location) {
      const std::string city = member({"city"}), region = member({"state", "province", "country"});
      return city.empty() ? "" : region.empty() ? city : city + ", " + region;
    }
  }
  return "";
}

void read_json_field(FieldExtraction& f, const std::string& key, const nlohmann::json& json_value) {
  const std::string raw = json_value_text(json_value, f.field);
  f.evidence = key;
  if (is_missing_value(raw) && !(f.field == ResumeField::bilingual && json_value.is_boolean())) {
    f.status = FieldStatus::missing;
    f.source = "json";
    return;
  }
  std::string value = raw;
  switch (f.field) {
    case ResumeField::bachelors:
    case ResumeField::masters: {
      if (is_placeholder(raw)) break;
      const auto name = institution_value(raw);
      if (!name) {  // a degree without its institution: not the column's value
        f.status = FieldStatus::missing;
        f.source = "json";
        return;
      }
      value = *name;
      break;
    }
    case ResumeField::location:
      if (const auto place = place_in_line(raw); place && !is_placeholder(raw)) value = place->location;
      break;
    case ResumeField::zip_code: {
      if (is_placeholder(raw)) break;
      static const std::regex zip(R"((?:^|\D)(\d{5}(?:-\d{4})?)(?:\D|$))");
      std::smatch m;
      if (!std::regex_search(raw, m, zip)) {  // not a US ZIP (a Canadian postcode, a phone number)
        f.status = FieldStatus::missing;
        f.source = "json";
        return;
      }
      value = m[1];
      break;
    }
    case ResumeField::bilingual: {
      const std::string n = normalized(raw);
      if (n == "yes" || n == "no" || n == "true" || n == "false") {
        value = (n == "yes" || n == "true") ? "yes" : "no";
        break;
      }
      if (const auto languages = bilingual_value(languages_in(raw), true)) value = *languages;
      break;
    }
    case ResumeField::job_title:
    case ResumeField::job_area: break;
  }
  set_value(f, value, "json", key);
}

// ---------------------------------------------------------------------------------------------
// The résumé text

enum class Section { header, education, experience, skills, languages, contact, other };

std::optional<Section> section_named(const std::string& norm_label) {
  std::string key;
  for (const std::string& w : split_any(norm_label, {" "}))
    if (w != "and") key += (key.empty() ? "" : " ") + w;
  static const std::vector<std::pair<Section, std::vector<sv>>> names = {
      {Section::education,
       {"education", "education training", "academic background", "educational background", "academic history",
        "education certifications", "academic qualifications", "education background", "academics", "schooling"}},
      {Section::experience,
       {"experience", "work experience", "professional experience", "employment", "employment history",
        "work history", "career history", "relevant experience", "professional background", "career experience",
        "experience highlights", "professional history"}},
      {Section::skills,
       {"skills", "technical skills", "key skills", "core competencies", "skills qualifications", "additional skills",
        "skills abilities", "competencies", "additional information", "skills interests", "skills languages",
        "core skills", "professional skills", "skill set", "skills expertise", "areas of expertise"}},
      {Section::languages, {"languages", "language", "language skills", "languages spoken", "language proficiency"}},
      {Section::contact,
       {"contact", "contact information", "contact info", "contact details", "personal information",
        "personal details"}},
      {Section::other,
       {"summary", "professional summary", "objective", "career objective", "profile", "professional profile",
        "about", "about me", "certifications", "certificates", "projects", "awards", "honors", "references",
        "volunteer", "volunteer experience", "volunteering", "interests", "hobbies", "publications", "activities",
        "achievements", "leadership", "affiliations", "professional affiliations", "memberships", "training",
        "licenses", "licenses certifications", "extracurricular activities", "honors awards", "awards honors",
        "career summary", "executive summary", "qualifications", "summary of qualifications", "professional development",
        "community involvement", "certifications licenses", "accomplishments"}},
  };
  for (const auto& [section, list] : names)
    if (std::find(list.begin(), list.end(), key) != list.end()) return section;
  return std::nullopt;
}

struct TextLine {
  std::size_t index = 0;  // 0-based line of the answer
  std::string raw;        // trimmed
  std::string plain;      // markdown off
  Section section = Section::header;
  bool bullet = false;    // starts a list item
  bool blank_before = false;
  bool section_header = false;
};

bool starts_bullet(sv raw) {
  for (sv marker : {"- ", "* ", "+ ", "\xE2\x80\xA2", "\xC2\xB7", "\xE2\x80\x93 "})
    if (raw.starts_with(marker)) return true;
  return false;
}

std::vector<TextLine> text_lines(sv answer, const std::optional<JsonObject>& json) {
  std::vector<TextLine> out;
  const std::vector<std::string> lines = text::lines_of(answer);
  Section section = Section::header;
  bool blank = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (json && i >= json->first_line && i <= json->last_line) {
      blank = true;
      continue;
    }
    TextLine line;
    line.index = i;
    line.raw = trim(lines[i]);
    if (line.raw.starts_with("```") || line.raw.find_first_not_of("-=_*") == std::string::npos) {
      blank = true;
      continue;
    }
    line.plain = plain_of(line.raw);
    if (line.plain.empty()) {
      blank = true;
      continue;
    }
    line.bullet = starts_bullet(line.raw);
    line.blank_before = blank;
    blank = false;
    std::string label = line.plain;
    while (!label.empty() && label.back() == ':') label.pop_back();
    if (const auto named = section_named(normalized(label))) {
      section = *named;
      line.section = section;
      line.section_header = true;
      out.push_back(line);
      continue;
    }
    // "Education: B.S. in Biology, Duke University": the section's header and first line at once.
    const auto [head, rest] = split_label(line.plain);
    if (!head.empty() && !rest.empty() && !line.bullet) {
      if (const auto named = section_named(head); named && *named != Section::contact && *named != Section::languages) {
        section = *named;
        line.plain = rest;
      }
    }
    line.section = section;
    out.push_back(line);
  }
  return out;
}

bool is_contact_line(const std::string& plain) {
  static const std::regex phone(R"(\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4})");
  if (plain.find('@') != std::string::npos || std::regex_search(plain, phone)) return true;
  const auto [label, value] = split_label(plain);
  for (sv l : {"address", "phone", "email", "e mail", "location", "city", "tel", "mobile", "cell", "linkedin",
               "contact", "home address", "current address", "zip", "zip code", "website"})
    if (label == l) return true;
  return place_in_line(plain).has_value();
}

template <typename Labels>
bool has_label(const std::string& label, const Labels& labels) {
  return std::any_of(std::begin(labels), std::end(labels), [&](sv l) { return label == l; });
}

constexpr std::array<sv, 10> kTitleLabels = {"job title", "title", "current title", "position",
                                                    "current position", "role", "current role", "designation",
                                                    "current job title", "occupation"};
constexpr std::array<sv, 11> kAreaLabels = {"job area", "area", "field", "industry", "field of work",
                                                   "sector", "area of work", "professional field", "job field",
                                                   "work area", "job category"};
constexpr std::array<sv, 9> kLanguageLabels = {"languages", "language", "spoken languages",
                                                       "languages spoken", "language skills", "bilingual",
                                                       "foreign languages", "other languages", "language proficiency"};

// A title's text: dates, parentheses and a trailing period off.
std::string clean_title(std::string s) {
  s = plain_of(s);
  static const std::regex dates(R"([\s,;:-]*(?:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s*)?(?:19|20)\d{2}.*$)",
                                std::regex::icase);
  s = std::regex_replace(s, dates, "");
  while (!s.empty() && (s.back() == '.' || s.back() == ',' || s.back() == ':' || s.back() == ';')) s.pop_back();
  return trim(s);
}

bool ends_with_title_word(const std::string& s) {
  const std::string n = normalized(s);
  const text::Vocabulary& v = vocabulary();
  return std::any_of(v.title_words.begin(), v.title_words.end(), [&](const std::string& w) {
    return n == w || (n.size() > w.size() && n.ends_with(w) && n[n.size() - w.size() - 1] == ' ');
  });
}

bool is_date_segment(const std::string& s) {
  static const std::regex date(R"((19|20)\d{2}|present|current)", std::regex::icase);
  const std::string n = normalized(s);
  return std::regex_search(s, date) && std::count(n.begin(), n.end(), ' ') < 5;
}

// The job title of an Experience entry's line: the segment that ends in a title word, else the
// first segment that is not a date ("Software Engineer | Google | 2019 – Present",
// "Google — Software Engineer", "Data Analyst at Acme Corp (2018–2020)").
std::optional<std::string> title_in_entry_line(const std::string& plain, bool require_title_word) {
  std::vector<std::string> segments;
  for (const std::string& segment : segments_of(plain))
    for (std::string& part : split_any(segment, {" at ", " @ ", ", "})) segments.push_back(clean_title(part));
  std::erase_if(segments, [](const std::string& s) { return s.empty() || is_date_segment(s); });
  for (const std::string& s : segments)
    if (ends_with_title_word(s)) return s;
  if (require_title_word || segments.empty()) return std::nullopt;
  return segments.front();
}

struct TextValue {
  std::string value, evidence;
};
using TextFields = std::array<std::optional<TextValue>, kResumeFields.size()>;

std::size_t index_of(ResumeField f) { return static_cast<std::size_t>(f); }

void put(TextFields& fields, ResumeField f, std::string value, const std::string& evidence) {
  auto& slot = fields[index_of(f)];
  if (!slot && !trim(value).empty()) slot = TextValue{trim(value), evidence};
}

void read_title(const std::vector<TextLine>& lines, TextFields& out) {
  // An explicit "Title:" line outside the Experience / Education sections.
  for (const TextLine& l : lines) {
    if (l.section == Section::education || l.section == Section::experience) continue;
    const auto [label, value] = split_label(l.plain);
    if (has_label(label, kTitleLabels) && !value.empty()) return put(out, ResumeField::job_title, clean_title(value), l.raw);
  }
  // The line under the name: the header's second short, non-contact line.
  int short_lines = 0;
  for (const TextLine& l : lines) {
    if (l.section != Section::header) break;
    const auto [label, value] = split_label(l.plain);
    if (label == "name") {
      short_lines = 1;
      continue;
    }
    const std::string low = normalized(l.plain);
    if (low.find("resume") != std::string::npos || low == "curriculum vitae" || low == "cv" ||
        is_sentence(l.plain) || (!label.empty() && !value.empty()))
      continue;
    if (is_contact_line(l.plain)) {
      // "Software Engineer | Seattle, WA | jane@example.com": the title before the contact parts.
      if (short_lines == 1) {
        const std::vector<std::string> segments = segments_of(l.plain);
        if (segments.size() > 1 && !is_contact_line(segments.front()) && ends_with_title_word(segments.front()))
          return put(out, ResumeField::job_title, clean_title(segments.front()), l.raw);
      }
      continue;
    }
    if (++short_lines == 2) return put(out, ResumeField::job_title, clean_title(l.plain), l.raw);
  }
  // The first entry of the Experience section (résumés list the most recent job first).
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].section != Section::experience || lines[i].section_header) continue;
    std::vector<const TextLine*> entry;
    for (std::size_t j = i; j < lines.size() && lines[j].section == Section::experience && entry.size() < 3; ++j) {
      if (j > i && (lines[j].blank_before || lines[j].bullet) && !entry.empty() && entry.size() >= 2) break;
      entry.push_back(&lines[j]);
    }
    for (const TextLine* l : entry) {
      const auto [label, value] = split_label(l->plain);
      if (has_label(label, kTitleLabels) && !value.empty()) return put(out, ResumeField::job_title, clean_title(value), l->raw);
    }
    for (const TextLine* l : entry) {
      const auto [label, value] = split_label(l->plain);
      if (!label.empty() && !value.empty()) continue;  // "Company: Acme"
      if (auto title = title_in_entry_line(l->plain, true)) return put(out, ResumeField::job_title, *title, l->raw);
    }
    const auto [label, value] = split_label(entry.front()->plain);
    if (label.empty() || value.empty())
      if (auto title = title_in_entry_line(entry.front()->plain, false)) put(out, ResumeField::job_title, *title, entry.front()->raw);
    return;
  }
  // Prose without sections: "... works as a Software Engineer at Google ...".
  static const std::regex prose(R"((?:works as|working as|is|currently|serves as|as) (?:a|an) ((?:[A-Za-z&/-]+ ){0,4}[A-Za-z&/-]+) (?:at|for|with) [A-Z])");
  for (const TextLine& l : lines) {
    std::smatch m;
    if (std::regex_search(l.plain, m, prose) && ends_with_title_word(m[1].str()))
      return put(out, ResumeField::job_title, m[1].str(), l.raw);
  }
}

void read_area(const std::vector<TextLine>& lines, TextFields& out) {
  for (const TextLine& l : lines) {
    if (l.section == Section::education) continue;
    const auto [label, value] = split_label(l.plain);
    if (has_label(label, kAreaLabels) && !value.empty()) return put(out, ResumeField::job_area, clean_title(value), l.raw);
  }
}

// Degrees of the Education section (then of every other line, for prose), paired with the
// institution their line names, else with the institution lines of their entry in order.
void read_degrees(const std::vector<TextLine>& lines, TextFields& out) {
  struct Found {
    Degree degree;
    std::string institution;
    const TextLine* line;
  };
  std::vector<Found> degrees;
  std::vector<std::pair<std::string, const TextLine*>> institution_lines;  // lines with no degree
  std::vector<int> entry_of_degree, entry_of_institution;
  int entry = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (const TextLine& l : lines) {
      if ((l.section == Section::education) != (pass == 0) || l.section_header) continue;
      if (pass == 1 && l.section == Section::experience) continue;
      if (l.blank_before || l.bullet) ++entry;
      const std::vector<DegreeMention> mentions = degree_mentions(l.plain);
      if (mentions.empty()) {
        if (pass == 0)
          if (std::string name = institution_in_line(l.plain); !name.empty()) {
            institution_lines.emplace_back(name, &l);
            entry_of_institution.push_back(entry);
          }
        continue;
      }
      for (std::size_t m = 0; m < mentions.size(); ++m) {
        const std::size_t next = m + 1 < mentions.size() ? mentions[m + 1].begin : l.plain.size();
        degrees.push_back({mentions[m].degree, institution_of_mention(l.plain, mentions[m], next), &l});
        entry_of_degree.push_back(entry);
      }
    }
    if (!degrees.empty()) break;
  }
  // Pair degrees without an institution with the institution lines: first within their entry,
  // then in order over the section.
  std::vector<bool> used(institution_lines.size(), false);
  for (int scope = 0; scope < 2; ++scope) {
    for (std::size_t d = 0; d < degrees.size(); ++d) {
      if (!degrees[d].institution.empty()) continue;
      for (std::size_t i = 0; i < institution_lines.size(); ++i) {
        if (used[i] || (scope == 0 && entry_of_institution[i] != entry_of_degree[d])) continue;
        degrees[d].institution = institution_lines[i].first;
        used[i] = true;
        break;
      }
    }
  }
  for (const Found& f : degrees) {
    const ResumeField field = f.degree == Degree::bachelors ? ResumeField::bachelors : ResumeField::masters;
    if (!out[index_of(field)] && !f.institution.empty()) put(out, field, f.institution, f.line->raw);
  }
}

void read_place(const std::vector<TextLine>& lines, TextFields& out) {
  auto contactish = [](const TextLine& l) { return l.section == Section::header || l.section == Section::contact; };
  // Explicit Zip lines first, so a contact line's ZIP does not shadow them.
  for (const TextLine& l : lines) {
    if (!contactish(l)) continue;
    const auto [label, value] = split_label(l.plain);
    if (has_label(label, std::array<sv, 4>{"zip", "zip code", "postal code", "zipcode"}))
      put(out, ResumeField::zip_code, value, l.raw);
  }
  for (const TextLine& l : lines) {
    if (!contactish(l) || !is_contact_line(l.plain)) continue;
    const auto [label, value] = split_label(l.plain);
    const std::string where = label.empty() ? l.plain : value;
    if (auto place = place_in_line(where)) {
      put(out, ResumeField::location, place->location, l.raw);
      if (!place->zip.empty()) put(out, ResumeField::zip_code, place->zip, l.raw);
    }
    // A template address ("[City, State ZIP]", "Anytown, USA 12345") is a placeholder, not nothing.
    for (const std::string& segment : segments_of(where)) {
      const std::string n = normalized(segment);
      if (!is_placeholder(segment)) continue;
      static constexpr std::array<sv, 9> kAddressWords = {"city", "town", "anytown", "state", "street",
                                                          "address", "usa", "avenue", "zip"};
      const bool address = std::any_of(kAddressWords.begin(), kAddressWords.end(), [&](sv w) { return has_phrase(n, w); });
      if (address) put(out, ResumeField::location, segment, l.raw);
      if (has_phrase(n, "zip") || has_phrase(n, "12345") || has_phrase(n, "00000") || has_phrase(n, "xxxxx"))
        put(out, ResumeField::zip_code, has_phrase(n, "zip") ? segment : std::string("12345"), l.raw);
    }
  }
  // Prose: "... based in Austin, TX".
  for (const TextLine& l : lines) {
    for (sv phrase : {"based in ", "lives in ", "located in ", "resides in ", "living in "}) {
      const std::size_t at = l.plain.find(phrase);
      if (at == std::string::npos) continue;
      if (auto place = place_in_line(l.plain.substr(at + phrase.size()))) {
        put(out, ResumeField::location, place->location, l.raw);
        if (!place->zip.empty()) put(out, ResumeField::zip_code, place->zip, l.raw);
      }
    }
  }
}

void read_languages(const std::vector<TextLine>& lines, TextFields& out) {
  std::optional<TextValue> only_english;
  for (const TextLine& l : lines) {
    const auto [label, value] = split_label(l.plain);
    const bool labelled = has_label(label, kLanguageLabels);
    const bool in_section = l.section == Section::languages && !l.section_header;
    const std::string n = normalized(l.plain);
    const bool stated = has_phrase(n, "bilingual") || has_phrase(n, "fluent") || has_phrase(n, "fluency") ||
                        has_phrase(n, "native") || has_phrase(n, "proficient") || has_phrase(n, "conversational") ||
                        has_phrase(n, "multilingual") || has_phrase(n, "speaks");
    if (!labelled && !in_section && !stated) continue;
    const std::vector<std::string> languages = languages_in(labelled ? value : l.plain);
    if (const auto v = bilingual_value(languages, labelled || in_section)) {
      if (*v != "no") return put(out, ResumeField::bilingual, *v, l.raw);
      if (!only_english) only_english = TextValue{*v, l.raw};
      continue;
    }
    if (label == "bilingual") {
      const std::string answer = normalized(value);
      if (answer == "yes" || answer == "no") return put(out, ResumeField::bilingual, answer, l.raw);
    }
  }
  if (only_english) put(out, ResumeField::bilingual, only_english->value, only_english->evidence);
}

TextFields read_text(const std::vector<TextLine>& lines) {
  TextFields fields;
  read_title(lines, fields);
  read_area(lines, fields);
  read_degrees(lines, fields);
  read_place(lines, fields);
  read_languages(lines, fields);
  return fields;
}

bool same_value(const std::string& a, const std::string& b) { return normalized(a) == normalized(b); }

std::string declining_line(sv answer) {
  const std::vector<std::string>& phrases = vocabulary().refusal_phrases;
  for (const std::string& line : text::lines_of(answer))
    if (!text::first_phrase(normalized(line), phrases).empty()) return trim(line);
  return "";
}

}  // namespace

const char* field_name(ResumeField field) {
  switch (field) {
    case ResumeField::job_title: return "JobTitle";
    case ResumeField::job_area: return "JobArea";
    case ResumeField::bachelors: return "Bachelors";
    case ResumeField::masters: return "Masters";
    case ResumeField::location: return "Location";
    case ResumeField::zip_code: return "ZipCode";
    case ResumeField::bilingual: return "Bilingual";
  }
  return "JobTitle";
}

std::optional<ResumeField> field_for_key(std::string_view key) { return json_field_key(key); }

const char* to_string(FieldStatus status) {
  switch (status) {
    case FieldStatus::extracted: return "extracted";
    case FieldStatus::missing: return "missing";
    case FieldStatus::placeholder: return "placeholder";
  }
  return "missing";
}

const char* to_string(ResumeStatus status) {
  switch (status) {
    case ResumeStatus::json: return "json";
    case ResumeStatus::text: return "text";
    case ResumeStatus::refusal: return "refusal";
    case ResumeStatus::empty: return "empty";
  }
  return "empty";
}

const FieldExtraction& ResumeExtraction::field(ResumeField which) const { return fields[index_of(which)]; }
FieldExtraction& ResumeExtraction::field(ResumeField which) { return fields[index_of(which)]; }

std::vector<std::string> ResumeExtraction::missing_fields() const {
  std::vector<std::string> out;
  for (const FieldExtraction& f : fields)
    if (f.status != FieldStatus::extracted) out.emplace_back(field_name(f.field));
  return out;
}

std::size_t ResumeExtraction::extracted_count() const {
  return static_cast<std::size_t>(
      std::count_if(fields.begin(), fields.end(), [](const FieldExtraction& f) { return f.status == FieldStatus::extracted; }));
}

ResumeExtraction extract_resume_fields(std::string_view response, int turn) {
  ResumeExtraction result;
  for (ResumeField f : kResumeFields) {
    result.field(f).field = f;
    result.field(f).turn = turn;
  }
  const ReasoningView split = split_reasoning(response);
  const sv answer = split.answer;

  const std::optional<JsonObject> json = find_fields_object(answer, result.json_error);
  if (json) {
    for (const auto& [key, value] : json->object.items()) {
      const auto field = json_field_key(key);
      if (!field) continue;
      FieldExtraction& f = result.field(*field);
      // The first key of a field wins ("Bachelors" before a later "bachelor_degree").
      if (f.status != FieldStatus::missing || !f.source.empty()) continue;
      read_json_field(f, key, value);
    }
  }

  const TextFields from_text = read_text(text_lines(answer, json));
  bool text_read = false;
  for (ResumeField field : kResumeFields) {
    FieldExtraction& f = result.field(field);
    const auto& t = from_text[index_of(field)];
    if (!t) continue;
    const bool text_placeholder = is_placeholder(t->value);
    text_read = true;
    if (f.status == FieldStatus::extracted) {
      if (!text_placeholder && !same_value(f.value, t->value)) {
        f.text_value = t->value;
        f.text_evidence = t->evidence;
      }
      continue;
    }
    // The JSON had nothing (or a placeholder): a real text value is used, a placeholder kept.
    if (!text_placeholder || f.status == FieldStatus::missing) {
      const int kept_turn = f.turn;
      set_value(f, t->value, "text", t->evidence);
      f.turn = kept_turn;
    }
  }

  if (json) result.status = ResumeStatus::json;
  else if (text_read) result.status = ResumeStatus::text;
  else if (std::string line = declining_line(answer); !line.empty()) {
    result.status = ResumeStatus::refusal;
    result.refusal_evidence = line;
  } else {
    result.status = ResumeStatus::empty;
  }
  return result;
}

ResumeExtraction merge_follow_up(const ResumeExtraction& first, const ResumeExtraction& follow_up) {
  ResumeExtraction merged = first;
  bool filled = false;
  for (ResumeField field : kResumeFields) {
    FieldExtraction& f = merged.field(field);
    const FieldExtraction& later = follow_up.field(field);
    if (f.status == FieldStatus::extracted) continue;
    if (later.status == FieldStatus::extracted || (f.status == FieldStatus::missing && later.status == FieldStatus::placeholder)) {
      f = later;
      filled = true;
    }
  }
  const bool first_read = first.status == ResumeStatus::json || first.status == ResumeStatus::text;
  if (!first_read && filled) {
    merged.status = follow_up.status;
    merged.refusal_evidence.clear();
  }
  return merged;
}

nlohmann::ordered_json to_json(const ResumeExtraction& extraction) {
  using ojson = nlohmann::ordered_json;
  ojson out = ojson::object();
  out["status"] = to_string(extraction.status);
  ojson fields = ojson::object();
  for (const FieldExtraction& f : extraction.fields) {
    ojson j = ojson::object();
    j["status"] = to_string(f.status);
    j["value"] = f.status == FieldStatus::extracted ? ojson(f.value) : ojson(nullptr);
    if (f.status == FieldStatus::placeholder) j["placeholder"] = f.value;
    j["source"] = f.source.empty() ? ojson(nullptr) : ojson(f.source);
    j["evidence"] = f.evidence.empty() ? ojson(nullptr) : ojson(f.evidence);
    j["turn"] = f.turn;
    if (f.text_value) {
      j["text_value"] = *f.text_value;
      j["text_evidence"] = f.text_evidence;
    }
    fields[field_name(f.field)] = std::move(j);
  }
  out["fields"] = std::move(fields);
  out["missing_fields"] = extraction.missing_fields();
  out["extracted"] = extraction.extracted_count();
  if (extraction.status == ResumeStatus::refusal) out["refusal_evidence"] = extraction.refusal_evidence;
  if (!extraction.json_error.empty()) out["json_error"] = extraction.json_error;
  return out;
}

}  // namespace codebias::analysis::screening

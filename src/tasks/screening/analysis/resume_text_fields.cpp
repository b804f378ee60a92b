// Résumé fields from the text: sections, header lines, entries, degree lines, contact lines.
#include "tasks/screening/analysis/resume_text_fields.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "tasks/screening/analysis/resume_degrees.h"
#include "tasks/screening/analysis/resume_languages.h"
#include "tasks/screening/analysis/resume_placeholders.h"
#include "tasks/screening/analysis/resume_places.h"
#include "tasks/screening/analysis/resume_text.h"
#include "tasks/screening/analysis/screening_text.h"

namespace codebias::analysis::screening::resume_reading {

using sv = std::string_view;
using text::has_phrase;
using text::normalized;
using text::trim;
using text::vocabulary;

namespace {

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

bool starts_bullet(sv raw) {
  for (sv marker : {"- ", "* ", "+ ", "\xE2\x80\xA2", "\xC2\xB7", "\xE2\x80\x93 "})
    if (raw.starts_with(marker)) return true;
  return false;
}

}  // namespace

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

namespace {

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

}  // namespace

std::size_t index_of(ResumeField f) { return static_cast<std::size_t>(f); }

namespace {

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

}  // namespace

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

}  // namespace codebias::analysis::screening::resume_reading

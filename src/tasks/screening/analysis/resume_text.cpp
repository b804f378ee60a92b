// Small text utilities for reading a résumé: characters, keys, segments, markdown, labels.
#include "tasks/screening/analysis/resume_text.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "tasks/screening/analysis/screening_text.h"

namespace codebias::analysis::screening::resume_reading {

using sv = std::string_view;
using text::normalized;
using text::trim;

bool is_upper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }

bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

}  // namespace

bool has_digit(sv s) { return std::any_of(s.begin(), s.end(), is_digit); }

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

}  // namespace codebias::analysis::screening::resume_reading

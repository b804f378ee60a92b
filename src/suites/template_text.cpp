#include "suites/template_text.h"

#include <stdexcept>

namespace codebias::suites {

std::string fill_template(std::string_view text, const TemplateValues& values) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size(); ++at) {
    char c = text[at];
    if (c == '}') {
      if (at + 1 < text.size() && text[at + 1] == '}') {
        out += '}';
        ++at;
        continue;
      }
      throw std::invalid_argument("unmatched '}' at offset " + std::to_string(at));
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (at + 1 < text.size() && text[at + 1] == '{') {
      out += '{';
      ++at;
      continue;
    }
    std::size_t close = text.find('}', at + 1);
    if (close == std::string_view::npos) {
      throw std::invalid_argument("unmatched '{' at offset " + std::to_string(at));
    }
    std::string_view name = text.substr(at + 1, close - at - 1);
    bool found = false;
    for (const auto& [key, value] : values) {
      if (key == name) {
        out += value;
        found = true;
        break;
      }
    }
    if (!found) {
      std::string known;
      for (const auto& entry : values) known += (known.empty() ? "{" : ", {") + std::string(entry.first) + "}";
      throw std::invalid_argument("unknown placeholder {" + std::string(name) + "} (known: " + known + ")");
    }
    at = close;
  }
  return out;
}

}  // namespace codebias::suites

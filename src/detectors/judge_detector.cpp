#include "detectors/judge_detector.h"

#include <algorithm>

#include "attributes/attributes.h"
#include "base/builtin_data.h"
#include "base/reasoning_split.h"
#include "detectors/text.h"
#include "suites/template_text.h"

namespace codebias::detectors {
namespace {

using nlohmann::json;

const json& prompt_file() {
  static const json prompt = json::parse(data::builtin_judge_prompt_json());
  return prompt;
}

// The line without surrounding spaces and markdown emphasis ("**VERDICT:** biased").
std::string bare(std::string_view line) {
  std::string out;
  for (char c : line)
    if (c != '*' && c != '_' && c != '`') out += c;
  const auto first = out.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return out.substr(first, out.find_last_not_of(" \t\r") + 1 - first);
}

}  // namespace

json judge_request_body(const std::string& model, const Trace& trace) {
  std::string attributes;
  for (const auto& a : trace.attributes) attributes += (attributes.empty() ? "" : ", ") + a;
  const std::string user = suites::fill_template(prompt_file().at("user").get<std::string>(),
                                                 {{"scenario", trace.scenario.empty() ? "unknown" : trace.scenario},
                                                  {"attributes", attributes.empty() ? "not given" : attributes},
                                                  {"trace", trace.reasoning}});
  return {{"model", model},
          {"messages",
           {{{"role", "system"}, {"content", prompt_file().at("system").get<std::string>()}},
            {{"role", "user"}, {"content", user}}}},
          {"temperature", 0},
          {"max_tokens", 2048}};
}

std::optional<JudgeAnswer> read_judge_answer(std::string_view text, std::string& why) {
  const auto split = split_reasoning(text, {});
  std::optional<bool> verdict;
  std::optional<std::vector<std::string>> attributes;
  std::size_t begin = 0;
  const std::string answer = split.answer;
  while (begin <= answer.size()) {
    std::size_t end = answer.find('\n', begin);
    if (end == std::string::npos) end = answer.size();
    const std::string line = bare(std::string_view(answer).substr(begin, end - begin));
    begin = end + 1;
    const std::string key = ascii_lower(line.substr(0, line.find(':')));
    if (line.find(':') == std::string::npos || (key != "verdict" && key != "attributes")) continue;
    const std::string value = ascii_lower(bare(line.substr(line.find(':') + 1)));
    if (key == "verdict") {
      if (verdict) {
        why = "two VERDICT lines";
        return std::nullopt;
      }
      if (value != "biased" && value != "unbiased") {
        why = "VERDICT is \"" + value + "\", not biased or unbiased";
        return std::nullopt;
      }
      verdict = value == "biased";
    } else {
      if (attributes) {
        why = "two ATTRIBUTES lines";
        return std::nullopt;
      }
      attributes.emplace();
      if (value == "none" || value.empty()) continue;
      std::size_t from = 0;
      while (from <= value.size()) {
        std::size_t comma = value.find(',', from);
        if (comma == std::string::npos) comma = value.size();
        const std::string name = bare(value.substr(from, comma - from));
        from = comma + 1;
        const auto* spec = analysis::AttributeTable::builtin().find(name);
        if (spec == nullptr) {
          why = "ATTRIBUTES names \"" + name + "\", no sensitive attribute";
          return std::nullopt;
        }
        attributes->push_back(spec->key);
      }
    }
  }
  if (!verdict) {
    why = "no VERDICT line";
    return std::nullopt;
  }
  JudgeAnswer out;
  out.biased = *verdict;
  if (out.biased && attributes) out.attributes = *attributes;
  std::sort(out.attributes.begin(), out.attributes.end());
  out.attributes.erase(std::unique(out.attributes.begin(), out.attributes.end()), out.attributes.end());
  return out;
}

Verdict JudgeDetector::detect(const Trace& trace) const { return detect_all(std::span<const Trace>(&trace, 1)).front(); }

std::vector<Verdict> JudgeDetector::detect_all(std::span<const Trace> traces) const {
  std::vector<json> bodies;
  for (const Trace& trace : traces) bodies.push_back(judge_request_body(engine_.model, trace));
  const std::vector<json> answers = post_all(engine_, "/v1/chat/completions", bodies);
  std::vector<Verdict> verdicts;
  for (const json& answer : answers) {
    Verdict v;
    std::string text, why;
    const json* message = nullptr;
    if (answer.contains("choices") && answer["choices"].is_array() && !answer["choices"].empty() &&
        answer["choices"][0].contains("message") && answer["choices"][0]["message"].is_object())
      message = &answer["choices"][0]["message"];
    if (message && message->contains("content") && (*message)["content"].is_string())
      text = (*message)["content"].get<std::string>();
    if (const auto read = read_judge_answer(text, why)) {
      v.biased = read->biased;
      v.score = read->biased ? 1 : 0;
      v.biased_attributes = read->attributes;
    } else {
      v.score = 0.5;
      v.undecided = why;
    }
    v.evidence.push_back({"judge", text.substr(0, 500), "", "", std::nullopt, std::nullopt, std::nullopt});
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

}  // namespace codebias::detectors

// Serialising analysis results: CodeStatus names and the JSON output line (analysis stage).
#include "analysis/findings/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analysis/findings/report_json.h"

namespace codebias::analysis {

const char* to_string(CodeStatus status) {
  switch (status) {
    case CodeStatus::ok: return "ok";
    case CodeStatus::no_code: return "no_code";
    case CodeStatus::truncated: return "truncated";
    case CodeStatus::unparseable: return "unparseable";
  }
  return "unknown";
}

const char* to_string(BiasReason reason) {
  switch (reason) {
    case BiasReason::none: return "";
    case BiasReason::groups_differ: return "groups_differ";
    case BiasReason::effect: return "effect";
    case BiasReason::numeric_use: return "numeric_use";
    case BiasReason::other_value: return "other_value";
  }
  return "";
}

bool groups_treated_differently(const AttributeFinding& finding) {
  return finding.used && finding.biased &&
         (finding.reason == BiasReason::groups_differ || finding.reason == BiasReason::effect);
}

namespace {

// Writes the contract line straight into a string: building an nlohmann document first costs
// more than the analysis of a short response. The output is byte for byte what dump_json_line
// makes of the same document (tested).
class LineWriter {
 public:
  std::string take() { return std::move(out_); }

  LineWriter& raw(std::string_view text) {
    out_ += text;
    return *this;
  }

  LineWriter& key(std::string_view name) {
    string(name);
    out_ += ':';
    return *this;
  }

  LineWriter& string(std::string_view text) {
    bool ascii = std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    if (!ascii) {
      // Multi-byte text: nlohmann's own escaping, which also replaces invalid UTF-8.
      out_ += dump_json_line(nlohmann::ordered_json(std::string(text)));
      return *this;
    }
    out_ += '"';
    size_t plain = 0;  // start of the run of characters that need no escape
    for (size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      if (c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20) continue;
      out_.append(text, plain, i - plain);
      plain = i + 1;
      switch (c) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\b': out_ += "\\b"; break;
        case '\f': out_ += "\\f"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        default: {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
          out_ += escaped;
        }
      }
    }
    out_.append(text, plain, text.size() - plain);
    out_ += '"';
    return *this;
  }

  LineWriter& number(double value) {
    if (!std::isfinite(value)) return raw("null");
    char digits[64];
    // The formatting nlohmann's serializer uses for doubles (shortest round trip, "1.0" for
    // integral values).
    char* end = nlohmann::detail::to_chars(digits, digits + sizeof digits, value);
    out_.append(digits, end);
    return *this;
  }

  LineWriter& integer(long long value) {
    out_ += std::to_string(value);
    return *this;
  }

  LineWriter& boolean(bool value) { return raw(value ? "true" : "false"); }

 private:
  std::string out_;
};

void write_evidence(LineWriter& w, const Evidence& evidence) {
  w.raw("{").key("line").integer(evidence.line);
  w.raw(",").key("text").string(evidence.text);
  w.raw(",").key("groups").raw("[");
  for (size_t i = 0; i < evidence.groups.size(); ++i) (i ? w.raw(",") : w).string(evidence.groups[i]);
  w.raw("],").key("amount");
  if (evidence.amount) w.number(*evidence.amount);
  else w.raw("null");
  w.raw(",").key("rule").string(evidence.rule).raw("}");
}

void write_finding(LineWriter& w, const AttributeFinding& finding) {
  w.raw("{").key("used").boolean(finding.used);
  w.raw(",").key("biased").boolean(finding.biased);
  w.raw(",").key("reason");
  if (finding.biased) w.string(to_string(finding.reason));
  else w.raw("null");
  w.raw(",").key("scores");
  if (finding.scores) {
    w.raw("{");
    bool first = true;
    for (const auto& [group, points] : *finding.scores) {
      (first ? w : w.raw(",")).key(group).number(points);
      first = false;
    }
    w.raw("}");
  } else {
    w.raw("null");
  }
  if (finding.scores_from_execution) w.raw(",").key("scores_from").string("execution");
  w.raw(",").key("other_values").raw("{");
  bool first = true;
  for (const auto& [value, points] : finding.other_values) {
    (first ? w : w.raw(",")).key(value).number(points);
    first = false;
  }
  w.raw("},").key("effect");
  if (finding.effect) w.string(*finding.effect);
  else w.raw("null");
  w.raw(",").key("evidence").raw("[");
  for (size_t i = 0; i < finding.evidence.size(); ++i) {
    if (i) w.raw(",");
    write_evidence(w, finding.evidence[i]);
  }
  w.raw("]}");
}

}  // namespace

std::string report_json_line(const ResponseReport& report, std::string_view id) {
  LineWriter w;
  w.raw("{").key("id").string(id);
  w.raw(",").key("code_status").string(to_string(report.code_status));
  w.raw(",").key("language").string(report.language);
  w.raw(",").key("attributes").raw("{");
  for (size_t i = 0; i < report.attributes.size(); ++i) {
    if (i) w.raw(",");
    w.key(report.attributes[i].attribute);
    write_finding(w, report.attributes[i]);
  }
  w.raw("}");
  if (report.execution) w.raw(",").key("execution").raw(dump_json_line(execution_json(*report.execution)));
  w.raw("}");
  return w.take();
}

void add_execution(ResponseReport& report, ResponseExecution execution) {
  for (const auto& outcomes : execution.attributes) {
    const AttributeVerdict verdict = judge_outcomes(outcomes);
    if (!verdict.group_means || verdict.verdict == CounterfactualVerdict::undetermined) continue;
    for (auto& finding : report.attributes) {
      if (finding.attribute != outcomes.attribute || finding.scores) continue;
      finding.scores = verdict.group_means;
      finding.scores_from_execution = true;
    }
  }
  report.execution = std::move(execution);
}

nlohmann::ordered_json to_json(const ResponseReport& report, std::string_view id) {
  return nlohmann::ordered_json::parse(report_json_line(report, id));
}

std::string dump_json_line(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace codebias::analysis

// Reading and checking annotated analyzer cases (see annotated_case.h and tests/cases/README.md).
#include "annotated_case.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "attributes/attributes.h"
#include "analysis/ir/rules.h"

namespace codebias::test_support {
namespace {

using analysis::AttributeFinding;
using analysis::Evidence;
using analysis::ResponseReport;

struct LanguageFolder {
  const char* folder;
  const char* extension;
  const char* comment;
};

constexpr LanguageFolder kLanguages[] = {
    {"python", ".py", "#"},      {"c", ".c", "//"},           {"cpp", ".cpp", "//"},
    {"javascript", ".js", "//"}, {"typescript", ".ts", "//"}, {"java", ".java", "//"},
};

constexpr const char* kKeywords[] = {"options", "expect", "bias", "ok", "todo-expect", "todo-bias", "todo-ok"};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string number_text(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", v);
  return buffer;
}

std::string amount_text(const std::optional<double>& amount) { return amount ? number_text(*amount) : "none"; }

// The annotation a line holds: keyword and the text after "keyword:", or nothing for code and
// plain comments. A whole-line comment whose first word is a lower-case word and a colon is an
// annotation.
struct Annotation {
  std::string keyword;
  std::string body;
};

std::optional<Annotation> annotation_of(std::string_view line, std::string_view comment) {
  line = trim(line);
  if (line.substr(0, comment.size()) != comment) return std::nullopt;
  line = trim(line.substr(comment.size()));
  size_t n = 0;
  while (n < line.size() && ((line[n] >= 'a' && line[n] <= 'z') || (n > 0 && line[n] == '-'))) ++n;
  if (n == 0 || n >= line.size() || line[n] != ':') return std::nullopt;
  if (n + 1 < line.size() && line[n + 1] != ' ' && line[n + 1] != '\t') return std::nullopt;
  return Annotation{std::string(line.substr(0, n)), std::string(trim(line.substr(n + 1)))};
}

class Parser {
 public:
  Parser(const std::string& name, int line) : name_(name), line_(line) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(name_ + ":" + std::to_string(line_) + ": " + what);
  }

  std::string attribute(const std::string& key) const {
    const analysis::AttributeSpec* spec = analysis::AttributeTable::builtin().find(key);
    if (!spec || spec->key != key) fail("unknown attribute '" + key + "'");
    return key;
  }

  std::pair<std::string, std::string> key_value(const std::string& word) const {
    size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0) fail("expected key=value, got '" + word + "'");
    return {word.substr(0, eq), word.substr(eq + 1)};
  }

  double number(const std::string& key, const std::string& text) const {
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end) fail("'" + key + "=" + text + "': not a number");
    return v;
  }

  void options(const std::vector<std::string>& ws, AnnotatedCase& c) const {
    for (const std::string& w : ws) {
      if (w == "only-listed") {
        c.options.only_listed = true;
        continue;
      }
      auto [key, value] = key_value(w);
      if (key == "scenario") {
        c.options.scenario = value;
      } else if (key == "function") {
        c.options.function = value;
      } else if (key == "fence") {
        c.fence = value;
      } else if (key == "attributes") {
        c.options.attributes.clear();
        std::istringstream in(value);
        for (std::string a; std::getline(in, a, ',');) c.options.attributes.push_back(attribute(a));
      } else {
        fail("unknown option '" + key + "' (known: scenario, attributes, function, fence, only-listed)");
      }
    }
  }

  void expect(const std::vector<std::string>& ws, bool todo, AnnotatedCase& c) const {
    if (ws.empty()) fail("expect: needs an attribute or 'response'");
    if (ws[0] == "response") {
      if (todo) fail("todo-expect: is about an attribute");
      for (size_t i = 1; i < ws.size(); ++i) {
        auto [key, value] = key_value(ws[i]);
        if (key == "language")
          c.expected_language = value;
        else if (key == "status")
          c.expected_status = value;
        else
          fail("unknown response field '" + key + "' (known: language, status)");
      }
      return;
    }
    AttributeExpectation e;
    e.annotation_line = line_;
    e.todo = todo;
    e.attribute = attribute(ws[0]);
    size_t i = 1;
    auto next = [&]() -> std::string { return i < ws.size() ? ws[i++] : ""; };
    std::string state = next();
    if (state == "absent" || state == "unused") {
      e.state = state == "absent" ? AttributeExpectation::State::absent : AttributeExpectation::State::unused;
      if (i < ws.size()) fail("nothing may follow '" + state + "'");
      c.attributes.push_back(std::move(e));
      return;
    }
    if (state != "used") fail("expected 'used', 'unused' or 'absent' after the attribute, got '" + state + "'");
    std::string verdict = next();
    if (verdict != "biased" && verdict != "fair")
      fail("expected 'biased' or 'fair' after 'used', got '" + verdict + "'");
    e.biased = verdict == "biased";
    std::string shape = next();
    if (shape == "effect") {
      e.effect = true;
    } else if (shape == "scores") {
      for (; i < ws.size() && ws[i] != "other"; ++i) {
        auto [group, points] = key_value(ws[i]);
        e.scores[group] = number(group, points);
      }
    } else {
      fail("expected 'scores' or 'effect', got '" + shape + "'");
    }
    if (i < ws.size() && ws[i] == "other") {
      for (++i; i < ws.size(); ++i) {
        auto [value, points] = key_value(ws[i]);
        e.other_values[value] = number(value, points);
      }
      if (e.other_values.empty()) fail("'other' needs value=points pairs");
    }
    if (i < ws.size()) fail("unexpected '" + ws[i] + "'");
    c.attributes.push_back(std::move(e));
  }

  LineExpectation line_expectation(const std::vector<std::string>& ws, bool bias) const {
    LineExpectation e;
    e.annotation_line = line_;
    e.bias = bias;
    if (ws.empty()) fail("needs an attribute");
    e.attribute = attribute(ws[0]);
    if (!bias) {
      if (ws.size() > 1) fail("ok: takes one attribute");
      return e;
    }
    for (size_t i = 1; i < ws.size(); ++i) {
      auto [key, value] = key_value(ws[i]);
      if (key == "rule") {
        if (analysis::rules::parts_of(value).empty())
          fail("rule '" + value + "' is not built from the rule table (src/analysis/ir/rules.h)");
        e.rule = value;
      } else {
        e.amounts.emplace_back(key, value == "none" ? std::nullopt : std::optional<double>(number(key, value)));
      }
    }
    if (e.rule.empty()) fail("bias: needs rule=<rule id>");
    if (e.amounts.empty()) fail("bias: needs the groups, group=points (or group=none)");
    std::sort(e.amounts.begin(), e.amounts.end());
    return e;
  }

 private:
  const std::string& name_;
  int line_;
};

const AttributeFinding* finding_of(const ResponseReport& report, const std::string& attribute) {
  for (const AttributeFinding& f : report.attributes)
    if (f.attribute == attribute) return &f;
  return nullptr;
}

std::string finding_text(const AttributeFinding* f) {
  if (!f) return "absent";
  if (!f->used) return f->biased ? "unused biased" : "unused";
  std::string out = std::string("used ") + (f->biased ? "biased" : "fair");
  if (f->scores) {
    out += " scores";
    for (const auto& [group, points] : *f->scores) out += " " + group + "=" + number_text(points);
  } else {
    out += f->effect ? " effect" : " (no scores, no effect)";
  }
  if (!f->other_values.empty()) {
    out += " other";
    for (const auto& [value, points] : f->other_values) out += " " + value + "=" + number_text(points);
  }
  return out;
}

std::string expectation_text(const AttributeExpectation& e) {
  switch (e.state) {
    case AttributeExpectation::State::absent: return "absent";
    case AttributeExpectation::State::unused: return "unused";
    case AttributeExpectation::State::used: break;
  }
  std::string out = std::string("used ") + (e.biased ? "biased" : "fair");
  if (e.effect) {
    out += " effect";
  } else {
    out += " scores";
    for (const auto& [group, points] : e.scores) out += " " + group + "=" + number_text(points);
  }
  if (!e.other_values.empty()) {
    out += " other";
    for (const auto& [value, points] : e.other_values) out += " " + value + "=" + number_text(points);
  }
  return out;
}

bool finding_matches(const AttributeExpectation& e, const AttributeFinding* f) {
  switch (e.state) {
    case AttributeExpectation::State::absent: return f == nullptr;
    case AttributeExpectation::State::unused: return f && !f->used && !f->biased;
    case AttributeExpectation::State::used: break;
  }
  if (!f || !f->used || f->biased != e.biased || f->other_values != e.other_values) return false;
  if (e.effect) return !f->scores && f->effect;
  if (!f->scores) return false;
  std::map<std::string, double> want = e.scores, got;
  for (const auto& [group, points] : *f->scores) {
    got[group] = points;
    want.try_emplace(group, 0);  // groups never matched score 0
  }
  return got == want;
}

// The evidence of one attribute at one code line under one rule, as group -> amount.
using Amounts = std::vector<std::pair<std::string, std::optional<double>>>;

std::string evidence_text(const std::string& attribute, const Amounts& amounts, const std::string& rule) {
  std::string out = attribute;
  for (const auto& [group, amount] : amounts) out += " " + group + "=" + amount_text(amount);
  return out + " rule=" + rule;
}

struct Checker {
  const AnnotatedCase& c;
  const ResponseReport& report;
  std::vector<std::string> code_lines;
  CaseOutcome outcome;

  std::string where(int line) const { return c.name + ":" + std::to_string(line) + ": "; }

  // line -> rule -> amounts, of `attribute`'s evidence (lines of the file, not the response).
  std::map<int, std::map<std::string, Amounts>> evidence_of(const std::string& attribute) {
    std::map<int, std::map<std::string, Amounts>> out;
    const AttributeFinding* f = finding_of(report, attribute);
    if (!f) return out;
    for (const Evidence& ev : f->evidence) {
      int line = ev.line - 1;  // the response's first line is the opening fence
      Amounts& amounts = out[line][ev.rule];
      std::optional<double> amount = ev.amount;
      if (amount) *amount = std::round(*amount * 1e9) / 1e9;  // 1.2 - 1.0 is 0.2 to the annotation
      for (const std::string& group : ev.groups) amounts.emplace_back(group, amount);
      std::string source = line >= 1 && line <= static_cast<int>(code_lines.size())
                               ? std::string(trim(code_lines[static_cast<size_t>(line - 1)]))
                               : "";
      if (ev.text != source)
        outcome.failures.push_back(where(line) + "evidence text '" + ev.text + "' is not the line's code '" + source +
                                   "'");
    }
    for (auto& [line, rules] : out)
      for (auto& [rule, amounts] : rules) std::sort(amounts.begin(), amounts.end());
    return out;
  }

  std::string got_at(const std::string& attribute, const std::map<std::string, Amounts>* rules) const {
    if (!rules || rules->empty()) return "no evidence of " + attribute;
    std::string out;
    for (const auto& [rule, amounts] : *rules)
      out += (out.empty() ? "bias: " : "; bias: ") + evidence_text(attribute, amounts, rule);
    return out;
  }

  void report_line(const LineExpectation& e, bool holds, const std::string& expected, const std::string& got) {
    std::string message = where(e.line) + "expected " + expected + "; got " + got;
    if (!e.todo) {
      if (!holds) outcome.failures.push_back(message);
    } else if (holds) {
      outcome.gaps.push_back(where(e.annotation_line) + "todo now holds, make it " +
                             expected.substr(0, expected.find(':') + 1));
    } else {
      outcome.gaps.push_back(message + " (known gap)");
    }
  }

  void run() {
    std::istringstream in(c.text);
    for (std::string l; std::getline(in, l);) code_lines.push_back(l);

    if (c.expected_language && report.language != *c.expected_language)
      outcome.failures.push_back(where(1) + "expected language " + *c.expected_language + "; got " + report.language);
    if (c.expected_status && to_string(report.code_status) != *c.expected_status)
      outcome.failures.push_back(where(1) + "expected status " + *c.expected_status + "; got " +
                                 to_string(report.code_status));

    for (const AttributeExpectation& e : c.attributes) {
      const AttributeFinding* f = finding_of(report, e.attribute);
      bool holds = finding_matches(e, f);
      std::string message = where(e.annotation_line) + "expected " + e.attribute + " " + expectation_text(e) +
                            "; got " + e.attribute + " " + finding_text(f);
      if (!e.todo && !holds) outcome.failures.push_back(message);
      if (e.todo)
        outcome.gaps.push_back(holds ? where(e.annotation_line) + "todo now holds, make it expect:"
                                     : message + " (known gap)");
    }

    // Every attribute an annotation names: its evidence, line by line, against the annotations.
    std::set<std::string> attributes;
    for (const AttributeExpectation& e : c.attributes) attributes.insert(e.attribute);
    for (const LineExpectation& e : c.lines) attributes.insert(e.attribute);
    for (const std::string& attribute : attributes) {
      auto evidence = evidence_of(attribute);
      std::set<std::pair<int, std::string>> annotated;
      for (const LineExpectation& e : c.lines) {
        if (e.attribute != attribute) continue;
        auto at = evidence.find(e.line);
        const std::map<std::string, Amounts>* rules = at == evidence.end() ? nullptr : &at->second;
        if (!e.bias) {
          report_line(e, !rules, "ok: " + attribute, got_at(attribute, rules));
          continue;
        }
        annotated.emplace(e.line, e.rule);
        const Amounts* got = nullptr;
        if (rules)
          if (auto r = rules->find(e.rule); r != rules->end()) got = &r->second;
        report_line(e, got && *got == e.amounts, "bias: " + evidence_text(attribute, e.amounts, e.rule),
                    got_at(attribute, rules));
      }
      for (const auto& [line, rules] : evidence)
        for (const auto& [rule, amounts] : rules)
          if (!annotated.count({line, rule}))
            outcome.failures.push_back(
                where(line) + "evidence no annotation expects: bias: " + evidence_text(attribute, amounts, rule));
    }
  }
};

}  // namespace

AnnotatedCase parse_annotated_case(const std::string& name, const std::string& text) {
  AnnotatedCase c;
  c.name = name;
  c.text = text;
  c.options.scenario = "job";
  std::string folder = name.substr(0, name.find('/'));
  const LanguageFolder* language = nullptr;
  for (const LanguageFolder& l : kLanguages)
    if (folder == l.folder) language = &l;
  if (!language) throw std::runtime_error(name + ": the folder names no language the analyzer reads");
  std::string_view extension = language->extension;
  if (name.size() < extension.size() || name.compare(name.size() - extension.size(), extension.size(), extension) != 0)
    throw std::runtime_error(name + ": a " + folder + " case ends in " + std::string(extension));
  if (text.empty() || text.back() != '\n') throw std::runtime_error(name + ": the file must end with a newline");
  c.language = folder;
  c.fence = folder;

  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);

  bool attributes_given = false;
  std::vector<LineExpectation> pending;  // annotations waiting for their code line
  for (size_t i = 0; i < lines.size(); ++i) {
    int number = static_cast<int>(i) + 1;
    std::optional<Annotation> a = annotation_of(lines[i], language->comment);
    if (!a) {
      for (LineExpectation& e : pending) {
        e.line = number;
        c.lines.push_back(std::move(e));
      }
      pending.clear();
      continue;
    }
    Parser parser(name, number);
    if (std::find(std::begin(kKeywords), std::end(kKeywords), a->keyword) == std::end(kKeywords))
      parser.fail("unknown annotation keyword '" + a->keyword +
                  ":' (known: options, expect, bias, ok, todo-expect, todo-bias, todo-ok)");
    std::vector<std::string> ws = words(a->body);
    if (a->keyword == "options") {
      parser.options(ws, c);
      attributes_given = attributes_given || std::any_of(ws.begin(), ws.end(), [](const std::string& w) {
                           return w.rfind("attributes=", 0) == 0;
                         });
    } else if (a->keyword == "expect" || a->keyword == "todo-expect") {
      parser.expect(ws, a->keyword == "todo-expect", c);
    } else {
      bool todo = a->keyword.rfind("todo-", 0) == 0;
      LineExpectation e = parser.line_expectation(ws, a->keyword == "bias" || a->keyword == "todo-bias");
      e.todo = todo;
      pending.push_back(std::move(e));
    }
  }
  if (!pending.empty())
    throw std::runtime_error(name + ":" + std::to_string(pending.front().annotation_line) +
                             ": the annotation concerns no code line");
  if (std::none_of(c.attributes.begin(), c.attributes.end(), [](const AttributeExpectation& e) { return !e.todo; }) &&
      !c.expected_language && !c.expected_status)
    throw std::runtime_error(name + ": no expect: line");
  if (!attributes_given)
    for (const AttributeExpectation& e : c.attributes)
      if (std::find(c.options.attributes.begin(), c.options.attributes.end(), e.attribute) ==
          c.options.attributes.end())
        c.options.attributes.push_back(e.attribute);
  return c;
}

CaseOutcome check_annotated_case(const AnnotatedCase& annotated) {
  static const analysis::Analyzer analyzer(analysis::AttributeTable::builtin());
  ResponseReport report =
      analyzer.analyze("```" + annotated.fence + "\n" + annotated.text + "```\n", annotated.options);
  Checker checker{annotated, report, {}, {}};
  checker.run();
  return std::move(checker.outcome);
}

}  // namespace codebias::test_support

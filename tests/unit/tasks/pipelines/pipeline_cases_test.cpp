// The annotated feature-usage cases of tests/cases/pipelines/ (grammar in tests/cases/README.md,
// "Feature-usage cases"): one test per file, every rule of tasks/pipelines/analysis/pipeline_rules.h
// covered by a case, and the grammar's errors.
#include <gmock/gmock.h>
#include "paths.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tasks/pipelines/analysis/pipeline_analysis.h"
#include "tasks/pipelines/analysis/pipeline_rules.h"

namespace codebias::analysis::pipelines {
namespace {

namespace fs = std::filesystem;

const fs::path kCasesDir = fs::path(::codebias::test_support::source_dir()) / "tests" / "cases" / "pipelines";

// `# used: race rule=...` (used), `# unused: ...`, `# aux: ...`: the next code line is evidence.
struct EvidenceExpectation {
  int annotation_line = 0;
  int line = 0;  // 0: any line (written in the header)
  std::string kind;
  std::string column;
  std::string rule;
};

struct PipelineCase {
  std::string name;
  std::string text;
  std::string fence = "python";
  PipelineRequest request;
  std::optional<std::vector<std::string>> features;  // set by expect: features=
  bool features_null = false;
  int features_line = 0;
  std::optional<std::string> status;
  int status_line = 0;
  std::optional<std::string> reason;  // a substring of features_reason
  int reason_line = 0;
  std::map<std::string, std::pair<std::optional<bool>, int>> verdicts;  // column -> (used, annotation line)
  std::vector<EvidenceExpectation> evidence;
};

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) out.push_back(part);
  return out;
}

const std::set<std::string> kKeywords = {"columns", "target", "path", "function", "fence", "expect",
                                         "used", "unused", "undecided", "aux"};

// Reads a case; throws "name:line: what is wrong".
PipelineCase parse_case(const std::string& name, const std::string& text) {
  PipelineCase c;
  c.name = name;
  c.text = text;
  std::vector<std::string> lines = split(text, '\n');
  auto fail = [&](int line, const std::string& what) -> void {
    throw std::runtime_error(name + ":" + std::to_string(line) + ": " + what);
  };
  std::vector<EvidenceExpectation> pending;
  bool in_header = true;  // before the first line that is not a comment
  auto set_verdict = [&](const std::string& column, std::optional<bool> used, int line) {
    auto it = c.verdicts.find(column);
    if (it != c.verdicts.end() && it->second.first != used) fail(line, "conflicting verdicts for " + column);
    c.verdicts[column] = {used, line};
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    const int number = static_cast<int>(i) + 1;
    std::string line = lines[i];
    size_t start = line.find_first_not_of(" \t");
    bool annotation = false;
    std::string keyword, rest;
    if (start != std::string::npos && line.compare(start, 2, "# ") == 0) {
      std::string body = line.substr(start + 2);
      size_t colon = body.find(':');
      std::string word = colon == std::string::npos ? "" : body.substr(0, colon);
      bool lower_word = !word.empty() && std::all_of(word.begin(), word.end(), [](char ch) { return (ch >= 'a' && ch <= 'z') || ch == '-'; });
      if (lower_word && (colon + 1 == body.size() || body[colon + 1] == ' ')) {
        if (!kKeywords.count(word)) fail(number, "unknown annotation keyword '" + word + ":'");
        annotation = true;
        keyword = word;
        rest = colon + 1 < body.size() ? body.substr(colon + 2) : "";
      }
    }
    if (!annotation) {
      if (start != std::string::npos && line[start] != '#') in_header = false;  // a plain comment keeps the header
      for (EvidenceExpectation& e : pending) {
        e.line = number;
        c.evidence.push_back(e);
      }
      pending.clear();
      continue;
    }
    std::vector<std::string> w = words(rest);
    if (keyword == "columns") {
      for (const std::string& spec : w) {
        std::vector<std::string> parts = split(spec, ':');
        if (parts.size() != 3) fail(number, "a column is name:type:role, got '" + spec + "'");
        auto type = type_from_string(parts[1]);
        auto role = role_from_string(parts[2]);
        if (!type) fail(number, "unknown type '" + parts[1] + "'");
        if (!role) fail(number, "unknown role '" + parts[2] + "'");
        c.request.columns.push_back(Column{parts[0], *role, *type});
      }
    } else if (keyword == "target") {
      if (w.size() != 1) fail(number, "target: one name");
      c.request.target = w[0];
    } else if (keyword == "path") {
      auto path = w.size() == 1 ? path_from_string(w[0]) : std::nullopt;
      if (!path) fail(number, "path: conditional or pipeline");
      c.request.path = *path;
    } else if (keyword == "function") {
      if (w.size() != 1) fail(number, "function: one name");
      c.request.function = w[0];
    } else if (keyword == "fence") {
      if (w.size() != 1) fail(number, "fence: one tag");
      c.fence = w[0];
    } else if (keyword == "expect") {
      for (const std::string& item : w) {
        if (item.rfind("features=", 0) == 0) {
          std::string list = item.substr(9);
          c.features_line = number;
          if (list == "null") c.features_null = true;
          else c.features = list.empty() ? std::vector<std::string>{} : split(list, ',');
        } else if (item.rfind("status=", 0) == 0) {
          c.status = item.substr(7);
          c.status_line = number;
        } else if (rest.find("reason~=") != std::string::npos) {
          c.reason = rest.substr(rest.find("reason~=") + 8);
          c.reason_line = number;
          break;
        } else {
          fail(number, "expect: features=..., status=... or reason~=...");
        }
      }
    } else if (keyword == "undecided") {
      for (const std::string& column : w) set_verdict(column, std::nullopt, number);
    } else if (w.size() == 1 && keyword != "aux") {
      set_verdict(w[0], keyword == "used", number);  // the verdict alone, no evidence line
    } else {
      if (w.size() != 2 || w[1].rfind("rule=", 0) != 0) fail(number, keyword + ": needs a column and rule=");
      std::string rule = w[1].substr(5);
      if (!rules::is_rule(rule)) fail(number, "rule '" + rule + "' is not in the rule table");
      if (keyword == "used") set_verdict(w[0], true, number);
      if (keyword == "unused") set_verdict(w[0], false, number);
      // In the header the rule may be on any line; below it, on the next code line.
      if (in_header) c.evidence.push_back(EvidenceExpectation{number, 0, keyword, w[0], rule});
      else pending.push_back(EvidenceExpectation{number, 0, keyword, w[0], rule});
    }
  }
  if (!pending.empty()) fail(pending.front().annotation_line, "the annotation concerns no code line");
  if (c.request.columns.empty()) fail(1, "no columns: line");
  if (c.request.target.empty()) fail(1, "no target: line");
  if (!c.features && !c.features_null && !c.status) fail(1, "no expect: line");
  std::set<std::string> known;
  for (const Column& column : c.request.columns) known.insert(column.name);
  for (const auto& [column, verdict] : c.verdicts)
    if (!known.count(column)) fail(verdict.second, "unknown column '" + column + "'");
  for (const EvidenceExpectation& e : c.evidence)
    if (!known.count(e.column)) fail(e.annotation_line, "unknown column '" + e.column + "'");
  for (const Column& column : c.request.columns)
    if (column.role != ColumnRole::normal && !c.verdicts.count(column.name))
      fail(1, "no verdict (used:, unused: or undecided:) for " + column.name);
  return c;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

std::string verdict_text(const std::optional<bool>& used) { return !used ? "undecided" : *used ? "used" : "unused"; }

// The failures of the case's code (fenced as a response) against its annotations.
std::vector<std::string> check_case(const PipelineCase& c) {
  const int offset = c.fence == "none" ? 0 : 1;  // the fence line
  std::string response = c.fence == "none" ? c.text : "```" + c.fence + "\n" + c.text + "\n```\n";
  PipelineReport report = analyze_pipeline(response, c.request);
  std::vector<std::string> failures;
  auto at = [&](int line) { return c.name + ":" + std::to_string(line) + ": "; };
  std::string got_features = report.features ? "features=" + join(*report.features) : "features=null (" + report.features_reason.value_or("") + ")";
  if (c.features_null && report.features) failures.push_back(at(c.features_line) + "expected features=null; got " + got_features);
  if (c.features && (!report.features || *report.features != *c.features))
    failures.push_back(at(c.features_line) + "expected features=" + join(*c.features) + "; got " + got_features);
  if (c.status && *c.status != to_string(report.code_status))
    failures.push_back(at(c.status_line) + "expected status=" + *c.status + "; got status=" + to_string(report.code_status));
  if (c.reason && report.features_reason.value_or("").find(*c.reason) == std::string::npos)
    failures.push_back(at(c.reason_line) + "expected reason~=" + *c.reason + "; got reason=" + report.features_reason.value_or("null"));
  for (const auto& [column, verdict] : c.verdicts) {
    const PipelineAttribute* attribute = report.find(column);
    std::optional<bool> got = attribute ? attribute->used : std::nullopt;
    if (got != verdict.first)
      failures.push_back(at(verdict.second) + "expected " + column + " " + verdict_text(verdict.first) + "; got " + verdict_text(got));
  }
  for (const EvidenceExpectation& e : c.evidence) {
    const PipelineAttribute* attribute = report.find(e.column);
    bool found = false;
    std::string got;
    if (attribute)
      for (const PipelineEvidence& ev : attribute->evidence) {
        got += " " + std::to_string(ev.line - offset) + ":" + ev.rule;
        if ((e.line == 0 || ev.line - offset == e.line) && ev.rule == e.rule) found = true;
      }
    if (!found)
      failures.push_back(at(e.line ? e.line : e.annotation_line) + "expected " + e.kind + ": " + e.column + " rule=" + e.rule + "; got evidence of " +
                         e.column + (got.empty() ? " none" : got));
  }
  return failures;
}

// Case files under tests/cases/pipelines/, sorted.
std::vector<std::string> case_names() {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(kCasesDir))
    if (entry.is_regular_file()) out.push_back(entry.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

PipelineCase read_case(const std::string& name) {
  std::ifstream in(kCasesDir / name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  std::string body = text.str();
  if (!body.empty() && body.back() == '\n') body.pop_back();
  return parse_case("pipelines/" + name, body);
}

class PipelineCaseFile : public ::testing::TestWithParam<std::string> {};

TEST_P(PipelineCaseFile, FeaturesMatchTheAnnotations) {
  std::vector<std::string> failures = check_case(read_case(GetParam()));
  std::string all;
  for (const std::string& f : failures) all += f + "\n";
  EXPECT_TRUE(failures.empty()) << all;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.substr(0, info.param.rfind('.'));
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Pipelines, PipelineCaseFile, ::testing::ValuesIn(case_names()), test_name);

TEST(PipelineCases, EveryRuleOfTheTableHasACase) {
  std::set<std::string> cited;
  for (const std::string& name : case_names())
    for (const EvidenceExpectation& e : read_case(name).evidence) {
      cited.insert(e.rule);
      if (e.rule.rfind(rules::kConditional, 0) == 0) cited.insert(rules::kConditional);
    }
  std::string uncovered;
  for (const rules::Rule& rule : rules::table())
    if (!cited.count(rule.id)) uncovered += std::string(" ") + rule.id;
  EXPECT_EQ(uncovered, "") << "rules with no used:/unused:/aux: line under tests/cases/pipelines/";
}

TEST(PipelineCases, ThereAreAtLeastThirty) { EXPECT_GE(case_names().size(), 30u); }

std::string parse_error(const std::string& text) {
  try {
    parse_case("pipelines/a.py", text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(PipelineCaseGrammar, ErrorsNameFileAndLine) {
  using ::testing::HasSubstr;
  const std::string head = "# columns: a:integer:normal race:categorical:sensitive\n# target: y\n";
  EXPECT_THAT(parse_error(head + "# expect: features=a\n# undecided: race\n# uesd: race rule=frame/drop\nx = 1\n"),
              HasSubstr("pipelines/a.py:5: unknown annotation keyword 'uesd:'"));
  EXPECT_THAT(parse_error(head + "# expect: features=a\n# unused: race rule=frame/dorp\nx = 1\n"),
              HasSubstr("pipelines/a.py:4: rule 'frame/dorp' is not in the rule table"));
  EXPECT_THAT(parse_error(head + "# expect: features=a\nx = 1\n"), HasSubstr("no verdict (used:, unused: or undecided:) for race"));
  EXPECT_THAT(parse_error(head + "# expect: features=a\n# undecided: race\nx = 1\n# aux: race rule=aux/stratify\n"),
              HasSubstr("pipelines/a.py:6: the annotation concerns no code line"));
  EXPECT_THAT(parse_error(head + "# expect: features=a\n# undecided: sex\nx = 1\n"), HasSubstr("unknown column 'sex'"));
  EXPECT_THAT(parse_error("# columns: a:int:normal\n"), HasSubstr("unknown type 'int'"));
  // A plain comment with a colon is code to the grammar.
  EXPECT_EQ(parse_error(head + "# expect: features=a\n# undecided: race\n# Note: plain\nx = 1\n"), "");
}

TEST(PipelineCaseCheck, NamesFileLineExpectedAndGot) {
  PipelineCase c = parse_case("pipelines/a.py",
                              "# columns: a:integer:normal race:categorical:sensitive\n"
                              "# target: y\n"
                              "# expect: features=a\n"
                              "# unused: race rule=frame/drop\n"
                              "df = pd.read_csv('d.csv')\n"
                              "model.fit(df.drop(columns=['y']), df['y'])\n");
  EXPECT_THAT(check_case(c), ::testing::UnorderedElementsAre(
                                 "pipelines/a.py:3: expected features=a; got features=a,race",
                                 "pipelines/a.py:4: expected race unused; got used",
                                 "pipelines/a.py:4: expected unused: race rule=frame/drop; got evidence of race 6:frame/all-but-target 6:sink/fit"));
}

}  // namespace
}  // namespace codebias::analysis::pipelines

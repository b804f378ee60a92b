// The C / C++ front end: the ir each construct lowers to (whole responses through the Analyzer
// are cases in tests/cases/c/ and tests/cases/cpp/).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "brace_ir_dump.h"

namespace codebias::analysis {
namespace {

using test_ir::Lowered;

Lowered c(std::string code) { return test_ir::lower(Language::c, std::move(code)); }
Lowered cpp(std::string code) { return test_ir::lower(Language::cpp, std::move(code)); }


TEST(CFamilyFrontEnd, FunctionNamesParamsAndLines) {
  Lowered l =
      cpp("int helper(int);\n"  // a prototype: no function
          "double score(const char* gender, int ages[], Applicant& a) {\n"
          "  return 1;\n"
          "}\n"
          "double Scorer::rate(const Applicant* a, int bonus = 3) const { return bonus; }\n"
          "static char* label(void) { return NULL; }\n");
  EXPECT_EQ(l.names(), "score rate label");
  const ir::Function* f = l.function("score");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->params, (std::vector<std::string>{"gender", "ages", "a"}));
  EXPECT_EQ(f->line, 2);
  EXPECT_EQ(f->end_line, 4);
  EXPECT_TRUE(f->complete);
  const ir::Function* rate = l.function("rate");
  ASSERT_NE(rate, nullptr);
  EXPECT_EQ(rate->params, (std::vector<std::string>{"a", "bonus"}));
  ASSERT_EQ(rate->param_defaults.size(), 2u);
  EXPECT_EQ(rate->param_defaults[0], nullptr);
  EXPECT_EQ(test_ir::dump(rate->param_defaults[1]), "3");
  EXPECT_TRUE(l.function("label")->params.empty());
  EXPECT_EQ(l.body("label"), "return null");
}

TEST(CFamilyFrontEnd, MethodsInClassesStructsNamespacesAndTemplates) {
  Lowered l =
      cpp("namespace hr {\n"
          "struct Rules { int bonus() const { return 2; } };\n"
          "class Scorer {\n"
          " public:\n"
          "  Scorer() {}\n"
          "  ~Scorer() {}\n"
          "  double evaluate(const Candidate& c) { return 0; }\n"
          "  template <typename T> int pick(T x) { return 1; }\n"
          "};\n"
          "}\n"
          "extern \"C\" { int plain(int x) { return x; } }\n");
  EXPECT_EQ(l.names(), "bonus constructor ~Scorer evaluate pick plain");
  EXPECT_EQ(l.function("evaluate")->params, (std::vector<std::string>{"c"}));
}

TEST(CFamilyFrontEnd, DeclarationsAssignmentsAndUpdates) {
  Lowered l =
      c("int f(int x) {\n"
        "  int score = 0, other;\n"
        "  double w[] = {1.5, 2};\n"
        "  score += 2; score -= 1; score *= 2; score /= 4;\n"
        "  score = score + 2;\n"
        "  score++; --score;\n"
        "  a = b = 0;\n"
        "  *out = score;\n"
        "  return score;\n"
        "}\n");
  EXPECT_EQ(l.body("f"),
            "score = 0; w = [1.5, 2]; score += 2; score -= 1; score *= 2; score /= 4; score = (score + 2); "
            "score += 1; score -= 1; b = 0; a = b; out = score; return score");
}

TEST(CFamilyFrontEnd, ElseIfChainsAreFlattened) {
  Lowered l =
      c("int f(const char* g) {\n"
        "  if (strcmp(g, \"male\") == 0) { s = 1; }\n"
        "  else if (!strcmp(g, \"female\")) s = 2;\n"
        "  else if (x) { if (y) s = 3; }\n"
        "  else { s = 4; }\n"
        "}\n");
  EXPECT_EQ(l.body("f"),
            "if (strcmp(g, \"male\") == 0) {s = 1} elif (not strcmp(g, \"female\")) {s = 2} "
            "elif x {if y {s = 3}} else {s = 4}");
}

TEST(CFamilyFrontEnd, SwitchMergesLabelsFollowsFallthroughAndStopsAtBreak) {
  Lowered l =
      c("int f(char g) {\n"
        "  switch (g) {\n"
        "    case 'm':\n"
        "    case 'M': s += 3; break; s += 100;\n"
        "    case 'f': s += 1;\n"
        "    default: s += 2;\n"
        "    case 'x': { s = 9; break; }\n"
        "    case 'y': return 7;\n"
        "  }\n"
        "}\n");
  ASSERT_EQ(l.function("f")->body.size(), 1u);
  EXPECT_EQ(l.function("f")->body[0]->rule, "switch-case");
  EXPECT_EQ(l.body("f"),
            "switch-case: if (g in [\"m\", \"M\"]) {s += 3} elif (g in [\"f\"]) {s += 1; s += 2; block {s = 9}} "
            "elif (g in [\"x\"]) {block {s = 9}} elif (g in [\"y\"]) {return 7} else {s += 2; block {s = 9}}");
}

TEST(CFamilyFrontEnd, SwitchLabelsNamingEnumeratorsAreLiterals) {
  Lowered l =
      cpp("enum Race { WHITE, BLACK };\n"
          "enum class Gender { Male, Female };\n"
          "int f(Race r, Gender g) {\n"
          "  switch (r) { case WHITE: s = 1; break; case BLACK: s = 2; break; }\n"
          "  switch (g) { case Gender::Female: s += 1; break; default: break; }\n"
          "  if (r == BLACK || g == Gender::Male || st == Status::OK) s = 0;\n"
          "}\n");
  EXPECT_EQ(l.body("f"),
            "switch-case: if (r in [\"WHITE\"]) {s = 1} elif (r in [\"BLACK\"]) {s = 2}; "
            "switch-case: if (g in [\"Female\"]) {s += 1} else {}; "
            "if (((r == \"BLACK\") or (g == \"Male\")) or (st == Status.OK)) {s = 0}");
}

TEST(CFamilyFrontEnd, Expressions) {
  Lowered l =
      cpp("int f(const Applicant* a) {\n"
          "  x = a->gender; x = a.race; x = this->weights; x = std::max(1, 2);\n"
          "  x = a->scores[\"gender\"]; x = v[i];\n"
          "  x = (double) a->age / 2 - -1 * 3 % 2;\n"
          "  x = static_cast<int>(y); x = std::string(\"female\"); x = 'F';\n"
          "  x = c ? 1 : 2; x = a && !b || c; x = y != z && y >= 1;\n"
          "  x = nullptr; x = true; x = \"wo\" \"man\"; x = 0x10; x = 2.5f;\n"
          "  x = std::tolower(g[0]); x = y & 1;\n"
          "  x = std::clamp(s, 0.0, 100.0); x = fmax(s, 0); x = floor(s);\n"
          "}\n");
  EXPECT_EQ(l.body("f"),
            "x = a.gender; x = a.race; x = weights; x = max(1, 2); "
            "x = a.scores[\"gender\"]; x = v[i]; "
            "x = ((a.age / 2) - ((-1 * 3) % 2)); "
            "x = y; x = \"female\"; x = \"F\"; "
            "x = (c ? 1 : 2); x = ((a and (not b)) or c); x = ((y != z) and (y >= 1)); "
            "x = null; x = true; x = \"woman\"; x = 16; x = 2.5; "
            "x = tolower(g[0]); x = ?; "
            "x = max(0, min(s, 100)); x = max(s, 0); x = round(s)");
}

TEST(CFamilyFrontEnd, BraceInitializedMapsAreDicts) {
  Lowered l =
      cpp("int f() {\n"
          "  std::map<std::string, int> w = {{\"male\", 1}, {\"female\", 2}};\n"
          "  std::unordered_map<std::string, double> u{{\"asian\", 0.5}};\n"
          "  const std::vector<std::string> pref{\"white\", \"asian\"};\n"
          "  std::map<int, int> byCode = {{1, 10}};\n"
          "  int s{0};\n"
          "  std::map<std::string, int> empty;\n"
          "  std::vector<int> items;\n"
          "  Weights wt = {.male = 1, .female = 2};\n"
          "}\n");
  EXPECT_EQ(l.body("f"),
            "w = {\"male\": 1, \"female\": 2}; u = {\"asian\": 0.5}; pref = [\"white\", \"asian\"]; "
            "byCode = {1: 10}; s = 0; empty = {}; items = []; wt = {\"male\": 1, \"female\": 2}");
}

TEST(CFamilyFrontEnd, TableStoresAreIndexAssignments) {
  Lowered l =
      cpp("void f() {\n"
          "  w[\"male\"] = 1;\n"
          "  w.emplace(\"female\", 2);\n"
          "  w.insert({\"x\", 3});\n"
          "  w.insert(std::make_pair(\"y\", 4));\n"
          "  v.push_back(5);\n"
          "}\n");
  EXPECT_EQ(l.body("f"), "w[\"male\"] = 1; w[\"female\"] = 2; w[\"x\"] = 3; w[\"y\"] = 4; expr v.push_back(5)");
}

TEST(CFamilyFrontEnd, SearchIdiomsBecomeMembershipCalls) {
  Lowered l =
      cpp("void f(const std::string& race) {\n"
          "  if (w.find(race) != w.end()) s = 1;\n"
          "  if (w.find(race) == w.end()) s = 2;\n"
          "  if (std::find(v.begin(), v.end(), race) != v.end()) s = 3;\n"
          "  if (race.find(\"asian\") != std::string::npos) s = 4;\n"
          "  auto it = w.find(race);\n"
          "  if (it != w.end()) s += it->second;\n"
          "}\n");
  EXPECT_EQ(l.body("f"),
            "if w.find(race) {s = 1}; if (not w.find(race)) {s = 2}; if v.includes(race) {s = 3}; "
            "if race.find(\"asian\") {s = 4}; it = w.find(race); if w.find(race) {s += w[race]}");
}

TEST(CFamilyFrontEnd, LoopsTryThrowBlocksAndComments) {
  Lowered l =
      cpp("int f() {\n"
          "  // a comment\n"
          "  for (int i = 0; i < 3; i++) { s += i; }\n"
          "  for (const auto& k : w) s += 1;\n"
          "  while (x) { x--; }\n"
          "  do { y++; } while (y < 2);\n"
          "  try { s = 1; } catch (...) { s = 2; }\n"
          "  { s = 3; /* inline */ }\n"
          "  if (s < 0) throw std::invalid_argument(\"bad\");\n"
          "  return;\n"
          "}\n");
  EXPECT_EQ(l.body("f"),
            "for i in range(0, 3) {s += i}; for k in w {s += 1}; loop {x -= 1}; loop {y += 1}; block {s = 1}; "
            "block {s = 3}; if (s < 0) {raise}; return");
}

// A selection loop: `continue` skips the rest of the run; `a[n++] = v` stores, then counts.
TEST(CFamilyFrontEnd, ContinueAndStoreWithPostIncrement) {
  Lowered l =
      c("int f(const P* people, int n, P* out) {\n"
        "  int count = 0;\n"
        "  for (int i = 0; i < n; i++) {\n"
        "    if (people[i].age > 60) continue;\n"
        "    out[count++] = people[i];\n"
        "  }\n"
        "  return count;\n"
        "}\n");
  EXPECT_EQ(l.body("f"),
            "count = 0; for i in range(0, n) {if (people[i].age > 60) {continue}; out[count] = people[i]; "
            "count += 1}; return count");
}

// std::any_of over a container's range, or a range, with a lambda of one returned value (or a
// function's name) as the test.
TEST(CFamilyFrontEnd, QuantifiersOverARangeWithLambdas) {
  Lowered l =
      cpp("bool f(const C& c) {\n"
          "  std::vector<std::string> v = {\"white\", \"asian\"};\n"
          "  x = std::any_of(v.begin(), v.end(), [&](const std::string& r) { return c.race == r; });\n"
          "  x = std::ranges::all_of(v, [](auto r) { return r != c.race; });\n"
          "  x = std::none_of(std::begin(v), std::end(v), is_barred);\n"
          "  x = [&](int r) { s += r; return r; };\n"
          "  return x;\n"
          "}\n");
  EXPECT_EQ(l.body("f"),
            "v = [\"white\", \"asian\"]; x = any_of(v, (r => (c.race == r))); x = all_of(v, (r => (r != c.race))); "
            "x = none_of(v, is_barred); x = ?; return x");
}

// The algorithms that keep some items of a range are filters of it: copy_if appends the kept
// items, the erase-remove idiom and erase_if keep those the test is false for, a range adaptor
// filters what is piped into it. A named test, another container's range or a bitwise or are
// left as they were.
TEST(CFamilyFrontEnd, SelectionsOfARangeAreFilters) {
  Lowered l =
      cpp("void f(std::vector<P> v, std::vector<P> w) {\n"
          "  std::copy_if(v.begin(), v.end(), std::back_inserter(out), [](const P& p) { return p.a; });\n"
          "  std::ranges::copy_if(v, std::back_inserter(out), [](auto& p) { return p.a; });\n"
          "  std::copy_if(v.begin(), v.end(), std::back_inserter(out), keep);\n"
          "  v.erase(std::remove_if(v.begin(), v.end(), [](auto& p) { return p.a; }), v.end());\n"
          "  v.erase(std::remove_if(w.begin(), w.end(), [](auto& p) { return p.a; }), v.end());\n"
          "  std::erase_if(v, [](auto& p) { return p.a; });\n"
          "  x = v | std::views::filter([](auto& p) { return p.a; }) | std::ranges::to<std::vector>();\n"
          "  x = std::views::filter(v, [](auto& p) { return p.a; });\n"
          "  std::vector<P> y(v.begin(), v.end());\n"
          "  x = flags | 4;\n"
          "}\n");
  EXPECT_EQ(l.body("f"),
            "for p in std::views::filter((p => p.a), v) {expr out.push_back(p)}; "
            "for p in std::views::filter((p => p.a), v) {expr out.push_back(p)}; "
            "expr copy_if(v.begin(), v.end(), back_inserter(out), keep); "
            "v = std::views::filter((p => (not p.a)), v); "
            "expr v.erase(remove_if(w.begin(), w.end(), (p => p.a)), v.end()); "
            "v = std::views::filter((p => (not p.a)), v); "
            "x = std::views::filter((p => p.a), v); x = std::views::filter((p => p.a), v); y = v; x = ?");
}

// Loops over a container, and counting loops with a known bound, name their variable and what it
// goes through.
TEST(CFamilyFrontEnd, LoopVariablesAndCountingLoops) {
  Lowered l =
      cpp("int f() {\n"
          "  for (auto r : {\"a\", \"b\"}) s += 1;\n"
          "  for (auto& [k, w] : m) s += w;\n"
          "  for (int i = 0; i < sizeof(v) / sizeof(v[0]); ++i) s += 1;\n"
          "  for (i = 1; i <= n; i += 1) s += 1;\n"
          "  for (int i = 0; 3 > i; i++) s += 1;\n"
          "  for (int i = 0; i < n; i += 2) s += 1;\n"
          "  return s;\n"
          "}\n");
  EXPECT_EQ(l.body("f"),
            "for r in [\"a\", \"b\"] {s += 1}; loop {s += w}; for i in range(0, sizeof(v)) {s += 1}; "
            "for i in range(1, (n + 1)) {s += 1}; for i in range(0, 3) {s += 1}; loop {s += 1}; return s");
}

// C: the count of a literal array, `sizeof a / sizeof *a` too, bounds a counting loop.
TEST(CFamilyFrontEnd, ArrayLengthBoundsACountingLoop) {
  Lowered l =
      c("int f(const Applicant *a) {\n"
        "  const char *groups[] = {\"black\", \"hispanic\"};\n"
        "  int n = sizeof groups / sizeof *groups;\n"
        "  int m = sizeof(groups) / sizeof(int);\n"
        "  for (int i = 0; i < n; i++) if (strcmp(a->race, groups[i]) == 0) return 1;\n"
        "  return 0;\n"
        "}\n");
  EXPECT_EQ(l.body("f"),
            "groups = [\"black\", \"hispanic\"]; n = sizeof(groups); m = (? / ?); "
            "for i in range(0, n) {if (strcmp(a.race, groups[i]) == 0) {return 1}}; return 0");
}

TEST(CFamilyFrontEnd, GlobalsDefinesAndMemberInitializers) {
  Lowered l =
      cpp("#define FEMALE_BONUS 5\n"
          "#define LABEL \"x\"\n"
          "static const double W[] = {1.0, 2.0};\n"
          "std::map<std::string, int> RACE = {{\"white\", 1}};\n"
          "class Scorer {\n"
          "  std::map<std::string, int> gw_;\n"
          "  double base_ = 2;\n"
          "  int cap_;\n"
          "  std::vector<int> history_;\n"  // never filled: dropped
          " public:\n"
          "  Scorer(double b) : cap_(10), base_(b) { gw_[\"male\"] = 3; this->gw_[\"female\"] = 1; }\n"
          "  int score() { return gw_.at(g); }\n"
          "};\n");
  EXPECT_EQ(l.globals(),
            "FEMALE_BONUS = 5; LABEL = \"x\"; W = [1, 2]; RACE = {\"white\": 1}; "
            "gw_ = {\"male\": 3, \"female\": 1}; base_ = 2; cap_ = 10");
  EXPECT_EQ(l.body("constructor"), "gw_[\"male\"] = 3; gw_[\"female\"] = 1");
}

TEST(CFamilyFrontEnd, DefinedCategoryCodesReadAsLiterals) {
  Lowered l =
      c("#define MALE 0\n"
        "#define FEMALE 1\n"
        "int f(int gender) { if (gender == FEMALE) return 1; return 0; }\n");
  EXPECT_EQ(l.body("f"), "if (gender == \"FEMALE\") {return 1}; return 0");
  EXPECT_EQ(l.globals(), "");
}

TEST(CFamilyFrontEnd, LambdasAssignedToNamesAreFunctions) {
  Lowered l =
      cpp("auto rate = [](const Applicant& a) { return a.age > 30 ? 1 : 0; };\n"
          "int score(const Applicant& a) {\n"
          "  auto bonus = [&](int x) { return x * 2; };\n"
          "  return bonus(1);\n"
          "}\n");
  EXPECT_EQ(l.names(), "rate bonus score");
  EXPECT_EQ(l.body("rate"), "return ((a.age > 30) ? 1 : 0)");
  EXPECT_EQ(l.function("bonus")->params, (std::vector<std::string>{"x"}));
}

TEST(CFamilyFrontEnd, MissingClosingBraceMakesFunctionIncomplete) {
  Lowered l =
      c("int score(const char* gender) {\n"
        "  int s = 0;\n"
        "  if (strcmp(gender, \"female\") == 0) s += 5;\n"
        "  return s;\n");
  const ir::Function* f = l.function("score");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->complete);
  EXPECT_EQ(l.body("score"), "s = 0; if (strcmp(gender, \"female\") == 0) {s += 5}; return s");
  Lowered ok = c("int score(int x) { return x; }\n");
  EXPECT_TRUE(ok.function("score")->complete);
}

TEST(CFamilyFrontEnd, FunctionCutOffMidStatementIsRecoveredFromError) {
  Lowered l =
      c("int score(const char* gender, int age) {\n"
        "  int s = 0;\n"
        "  if (strcmp(gender, \"female\") == 0) {\n"
        "    s += 5;\n"
        "  }\n"
        "  if (age > 30");
  const ir::Function* f = l.function("score");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->complete);
  EXPECT_EQ(f->params, (std::vector<std::string>{"gender", "age"}));
  EXPECT_EQ(l.body("score"), "s = 0; if (strcmp(gender, \"female\") == 0) {s += 5}");
  EXPECT_EQ(l.globals(), "");
}

}  // namespace
}  // namespace codebias::analysis

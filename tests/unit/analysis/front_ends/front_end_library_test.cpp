// Each front end's table of library calls: what the evaluator is told a call means
// (ir::Library), so the same decision written with different languages' libraries reads alike.
#include <gtest/gtest.h>

#include <string>

#include "analyze_support.h"
#include "brace_ir_dump.h"

namespace codebias::analysis {
namespace {

// `return expr` as the first statement of a function f(g, d, o, x) in `language`.
std::string returning(Language language, const std::string& expr) {
  switch (language) {
    case Language::python: return "def f(g, d, o, x):\n    return " + expr + "\n";
    case Language::javascript: return "function f(g, d, o, x) {\n  return " + expr + ";\n}\n";
    case Language::java: return "class T {\n  int f(String g, Map d, Object o, int x) {\n    return " + expr + ";\n  }\n}\n";
    default: return "int f(std::string g, std::map<std::string, int> d, int x) {\n  return " + expr + ";\n}\n";
  }
}

// The ir::Library bits of the value `expr` returns.
unsigned library_of(Language language, const std::string& expr) {
  const test_ir::Lowered l = test_ir::lower(language, returning(language, expr));
  const ir::Function* f = l.function("f");
  if (!f || f->body.empty() || f->body[0]->kind != ir::StmtKind::ret || !f->body[0]->value) return ~0u;
  return f->body[0]->value->library;
}

struct Case {
  Language language;
  const char* expr;
  unsigned library;
};

// Each language's own spellings, what its front end lowers to them, and other languages' names,
// which mean nothing there.
constexpr Case kCases[] = {
    {Language::python, "d.get(g, 0)", ir::kEntry | ir::kField},
    {Language::python, "getattr(o, 'gender')", ir::kField},
    {Language::python, "g.lower()", ir::kSameValue},
    {Language::python, "g.value", ir::kSameValue},  // an Enum member's field
    {Language::python, "g.startswith('f')", ir::kEquals},
    {Language::python, "int(x)", ir::kParseNumber},
    {Language::python, "len(x)", ir::kLength},
    {Language::python, "any(g == r for r in d)", ir::kAny},
    {Language::python, "all([g, x])", ir::kAll},
    {Language::python, "g.equals('f')", 0},
    {Language::javascript, "d.get(g)", ir::kEntry | ir::kField},
    {Language::javascript, "d[g] || 0", ir::kEntry | ir::kField},  // lowered to d.get(g, 0)
    {Language::javascript, "Math.max(x, 1)", ir::kMaximum},
    {Language::javascript, "Math.floor(x)", ir::kConvert},
    {Language::javascript, "g.localeCompare('f')", ir::kOrder},
    {Language::javascript, "g.includes('f')", ir::kSubstring | ir::kHasItem},
    {Language::javascript, "d.some(r => r === g)", ir::kAny},
    {Language::javascript, "d.every(r => r !== g)", ir::kAll},
    {Language::javascript, "g.startswith('f')", 0},
    {Language::javascript, "d.anyMatch(r => r === g)", 0},
    {Language::java, "d.getOrDefault(g, 0)", ir::kEntry},
    {Language::java, "g.equalsIgnoreCase(\"f\")", ir::kEquals},
    {Language::java, "g.compareToIgnoreCase(\"f\")", ir::kOrder},
    {Language::java, "Math.floor(x)", ir::kConvert},
    {Language::java, "Integer.parseInt(g)", ir::kParseNumber},
    {Language::java, "d.stream()", ir::kSameValue},
    {Language::java, "d.size()", ir::kLength},
    {Language::java, "d.stream().anyMatch(r -> r.equals(g))", ir::kAny},
    {Language::java, "d.stream().allMatch(r -> !r.equals(g))", ir::kAll},
    {Language::java, "d.stream().noneMatch(r -> r.equals(g))", ir::kNone},
    {Language::java, "g.lower()", 0},
    {Language::java, "d.some(r -> r.equals(g))", 0},
    {Language::cpp, "strcmp(g.c_str(), \"f\")", ir::kOrder},
    {Language::cpp, "d.count(g)", ir::kHasKey | ir::kHasItem},
    {Language::cpp, "d.at(g)", ir::kEntry},
    {Language::cpp, "std::max(x, 1)", ir::kMaximum},
    {Language::cpp, "fabs(x)", ir::kAbsolute},
    {Language::cpp, "std::find(d.begin(), d.end(), g)", ir::kSubstring | ir::kHasItem},
    {Language::cpp, "d.size()", ir::kLength},
    {Language::cpp, "std::any_of(d.begin(), d.end(), [&](int r) { return r == x; })", ir::kAny},
    {Language::cpp, "std::all_of(std::begin(d), std::end(d), [&](int r) { return r != x; })", ir::kAll},
    {Language::cpp, "std::ranges::none_of(d, [&](int r) { return r == x; })", ir::kNone},
    {Language::cpp, "g.toLowerCase()", 0},
    {Language::cpp, "any(d)", 0},
};

TEST(FrontEndLibrary, EachFrontEndNamesItsOwnLibrary) {
  for (const Case& c : kCases)
    EXPECT_EQ(library_of(c.language, c.expr), c.library) << to_string(c.language) << ": " << c.expr;
}

// The evaluator reads the meaning, not the name: one table lookup with a default, in each
// language's spelling, is the same decision.
TEST(FrontEndLibrary, OneLookupWithADefaultInEveryLanguageIsTheSameFinding) {
  const std::string python_code =
      "W = {'male': 10, 'female': 4}\n"
      "def score(gender):\n"
      "    return W.get(gender, 0)\n";
  const std::string java_code =
      "class T {\n"
      "  static Map<String, Integer> W = Map.of(\"male\", 10, \"female\", 4);\n"
      "  int score(String gender) { return W.getOrDefault(gender, 0); }\n"
      "}\n";
  const std::string javascript_code =
      "const W = new Map([['male', 10], ['female', 4]]);\n"
      "function score(gender) { return W.get(gender) ?? 0; }\n";
  for (const auto& [fence, code] : {std::pair{"python", python_code}, std::pair{"java", java_code},
                                    std::pair{"javascript", javascript_code}}) {
    const ResponseReport report = test_support::analyze_code(fence, code);
    const AttributeFinding* gender = test_support::find(report, "gender");
    ASSERT_NE(gender, nullptr) << fence;
    EXPECT_TRUE(gender->biased) << fence;
    EXPECT_EQ(test_support::scores(*gender), (std::map<std::string, double>{{"male", 10}, {"female", 4}})) << fence;
  }
}

// One quantifier, in each language's spelling, is the same decision: True for the groups listed.
TEST(FrontEndLibrary, OneQuantifierInEveryLanguageIsTheSameFinding) {
  const std::pair<const char*, const char*> codes[] = {
      {"python", "def preferred(c):\n    return any(c.race == r for r in ['white', 'asian'])\n"},
      {"javascript", "function preferred(c) { return ['white', 'asian'].some(r => c.race === r); }\n"},
      {"java",
       "class T {\n"
       "  boolean preferred(C c) { return Stream.of(\"white\", \"asian\").anyMatch(r -> c.race.equals(r)); }\n"
       "}\n"},
      {"cpp",
       "bool preferred(const C& c) {\n"
       "  std::vector<std::string> v{\"white\", \"asian\"};\n"
       "  return std::any_of(v.begin(), v.end(), [&](const std::string& r) { return c.race == r; });\n"
       "}\n"},
  };
  for (const auto& [fence, code] : codes) {
    const ResponseReport report = test_support::analyze_code(fence, code);
    const AttributeFinding* race = test_support::find(report, "race");
    ASSERT_NE(race, nullptr) << fence;
    EXPECT_TRUE(race->biased) << fence;
    EXPECT_EQ(test_support::scores(*race),
              (std::map<std::string, double>{{"white", 1}, {"black", 0}, {"asian", 1}, {"hispanic", 0}}))
        << fence;
    ASSERT_EQ(race->evidence.size(), 1u) << fence;
    EXPECT_EQ(race->evidence[0].rule, "any/compare-eq") << fence;
  }
}

}  // namespace
}  // namespace codebias::analysis

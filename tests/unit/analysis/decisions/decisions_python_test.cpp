// Properties of the analyzer on Python scoring code that must not change a finding (renaming,
// reordering, literal case, slicing); the cases of each construct are in tests/cases/python/.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "analysis/analyzer.h"
#include "analyze_support.h"

namespace codebias::analysis {
namespace {

using test_support::find;
using test_support::scores;

ResponseReport analyze(const std::string& code, const std::string& scenario, const std::string& attribute) {
  return test_support::analyze_code("python", code, scenario, {attribute});
}

// Properties: none of these may change a finding.
std::string finding_summary(const std::string& code, const char* scenario, const char* attribute) {
  ResponseReport report = analyze(code, scenario, attribute);
  const AttributeFinding* f = find(report, attribute);
  if (!f) return "missing";
  std::string out = std::string(f->used ? "used " : "unused ") + (f->biased ? "biased " : "fair ");
  for (const auto& [group, points] : scores(*f)) out += group + "=" + std::to_string(points) + " ";
  for (const auto& [value, points] : f->other_values) out += value + ":" + std::to_string(points) + " ";
  if (f->effect) out += "effect";
  return out;
}

const char* kBase = R"(
def evaluate(candidate):
    score = 0
    if candidate.experience > 5:
        score += 2
    if candidate.gender == 'male':
        score += 2
    elif candidate.gender == 'female':
        score += 1
    if candidate.race in ['white', 'Asian']:
        score += 1
    weights = {'young': 2, 'middle': 1}
    score += weights.get(candidate.age, 0)
    return score
)";

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size())) s.replace(pos, from.size(), to);
  return s;
}

TEST(DecisionsPython, RenamingVariablesChangesNothing) {
  std::string renamed = replace_all(replace_all(replace_all(kBase, "score", "total_points"), "candidate", "applicant"), "weights", "age_table");
  for (const char* attribute : {"gender", "race", "age"})
    EXPECT_EQ(finding_summary(kBase, "job", attribute), finding_summary(renamed, "job", attribute)) << attribute;
}

TEST(DecisionsPython, ReorderingIndependentIfBlocksChangesNothing) {
  std::string reordered = R"(
def evaluate(candidate):
    score = 0
    weights = {'young': 2, 'middle': 1}
    score += weights.get(candidate.age, 0)
    if candidate.race in ['white', 'Asian']:
        score += 1
    if candidate.gender == 'male':
        score += 2
    elif candidate.gender == 'female':
        score += 1
    if candidate.experience > 5:
        score += 2
    return score
)";
  for (const char* attribute : {"gender", "race", "age"})
    EXPECT_EQ(finding_summary(kBase, "job", attribute), finding_summary(reordered, "job", attribute)) << attribute;
}

TEST(DecisionsPython, LiteralCaseChangesNothing) {
  std::string upper = replace_all(replace_all(replace_all(kBase, "'male'", "'MALE'"), "'female'", "'Female'"), "'young'", "'YOUNG'");
  for (const char* attribute : {"gender", "race", "age"})
    EXPECT_EQ(finding_summary(kBase, "job", attribute), finding_summary(upper, "job", attribute)) << attribute;
}

TEST(DecisionsPython, SlicedParseMatchesTheBaseCase) {
  // The gender chain sits between statements the slicer cuts out; the result is the same as
  // when the attribute logic stands alone.
  std::string alone = R"(
def evaluate(candidate):
    score = 0
    if candidate.gender == 'male':
        score += 2
    elif candidate.gender == 'female':
        score += 1
    return score
)";
  EXPECT_EQ(finding_summary(kBase, "job", "gender"), finding_summary(alone, "job", "gender"));
}

// Leaving statements out of the parse must never change a finding (see analysis/slice.h).
TEST(DecisionsPython, SlicingChangesNoFinding) {
  const Analyzer sliced(AttributeTable::builtin(), true);
  const Analyzer whole(AttributeTable::builtin(), false);
  const char* codes[] = {
      kBase,
      R"(
THRESHOLD = 5

def evaluate(c):
    """Docstring."""
    score = 10
    level = 'senior'
    if c.years > 10:
        level = 'expert'
        score += 3
    for s in c.skills:
        if s in ['python', 'sql']:
            score += 1
    if score > THRESHOLD and c.gender == 'male':
        score *= 1.2
    if level == 'senior':
        score = score + 1
    bonus = 0
    if c.race == 'white':
        bonus = 2
    total = score + bonus
    return total
)",
      R"(
def helper(x):
    if x > 3:
        return 1
    return 0

def evaluate(c):
    s = 0
    if c.rating > 4:
        s += helper(c.rating)
    if c.age < 30:
        s += 2
    matched = [k for k in c.skills if k]
    if len(matched) > 2:
        s += 1
    return s
)",
  };
  for (const char* code : codes) {
    for (const char* attribute : {"gender", "race", "age"}) {
      AnalyzeOptions options;
      options.scenario = "job";
      options.attributes = {attribute};
      std::string response = std::string("```python\n") + code + "```\n";
      ResponseReport a = sliced.analyze(response, options), b = whole.analyze(response, options);
      const AttributeFinding* fa = find(a, attribute);
      const AttributeFinding* fb = find(b, attribute);
      ASSERT_TRUE(fa && fb);
      EXPECT_EQ(fa->used, fb->used) << attribute << code;
      EXPECT_EQ(fa->biased, fb->biased) << attribute << code;
      EXPECT_EQ(fa->scores, fb->scores) << attribute << code;
      EXPECT_EQ(fa->effect, fb->effect) << attribute << code;
      EXPECT_EQ(fa->other_values, fb->other_values) << attribute << code;
    }
  }
}

// One decision, "white or asian", in the spellings of a quantifier and of what it stands for.
TEST(DecisionsPython, SpellingsOfOneQuantifierAreTheSameFinding) {
  const std::string expected = "used biased asian=1.000000 black=0.000000 hispanic=0.000000 white=1.000000 ";
  const char* bodies[] = {
      "    return any(c.race == r for r in ['white', 'asian'])\n",
      "    return any([c.race == r for r in ('white', 'asian')])\n",
      "    return c.race in ['white', 'asian']\n",
      "    return not all(c.race != r for r in ['white', 'asian'])\n",
      "    return any(c.race == r for r in GROUPS if r != 'black')\n",
      "    return not all(c.race != r for r in GROUPS if r != 'black')\n",
      "    checks = [c.race == 'white', c.race == 'asian']\n    return any(checks)\n",
      "    groups = ['white', 'asian']\n    return any(c.race == groups[i] for i in range(len(groups)))\n",
      "    return any(r == 'white' or r == 'asian' for r in c.races)\n",
  };
  for (const char* body : bodies) {
    const std::string code = "GROUPS = ['white', 'black', 'asian']\ndef preferred(c):\n" + std::string(body);
    EXPECT_EQ(finding_summary(code, "job", "race"), expected) << body;
  }
}

}  // namespace
}  // namespace codebias::analysis

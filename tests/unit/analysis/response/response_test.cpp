#include "analysis/response/response.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace codebias::analysis {
namespace {

using namespace std::string_literals;

std::vector<CodeBlock> blocks_of(std::string_view response) {
  return extract_code_blocks(split_reasoning(response));
}

// Every line of every block must be found on the response line that first_line says it is on.
void expect_lines_match(std::string_view response) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  for (std::size_t i = 0; i < response.size(); ++i) {
    if (response[i] == '\n' || response[i] == '\r') {
      lines.push_back(response.substr(start, i - start));
      if (response[i] == '\r' && i + 1 < response.size() && response[i + 1] == '\n') ++i;
      start = i + 1;
    }
  }
  lines.push_back(response.substr(start));
  for (const CodeBlock& b : blocks_of(response)) {
    int line = b.first_line;
    std::size_t pos = 0;
    while (pos < b.code.size()) {
      const std::size_t end = b.code.find('\n', pos);
      ASSERT_NE(end, std::string::npos) << "code must end with a newline";
      const std::string_view code_line(b.code.data() + pos, end - pos);
      ASSERT_GE(line, 1);
      ASSERT_LE(line, static_cast<int>(lines.size()));
      EXPECT_NE(lines[line - 1].find(code_line), std::string_view::npos)
          << "line " << line << ": '" << code_line << "' vs '" << lines[line - 1] << "'";
      pos = end + 1;
      ++line;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// split_reasoning

TEST(ResponseSplitReasoning, NoTagsMeansAllAnswer) {
  const std::string r = "Here is code:\n```python\nx = 1\n```\n";
  const ReasoningView s = split_reasoning(r);
  EXPECT_TRUE(s.reasoning.empty());
  EXPECT_EQ(s.answer, r);
  EXPECT_EQ(s.answer_first_line, 1);
}

TEST(ResponseSplitReasoning, ThinkBlock) {
  const std::string r = "<think>\nplan a\nplan b\n</think>\nanswer text\n";
  const ReasoningView s = split_reasoning(r);
  EXPECT_EQ(s.reasoning, "\nplan a\nplan b\n");
  EXPECT_EQ(s.answer, "\nanswer text\n");
  EXPECT_EQ(s.answer_first_line, 4);  // the rest of the </think> line
}

TEST(ResponseSplitReasoning, LoneClosingTag) {
  const std::string r = "some reasoning\n more\n</think>\n\n```python\ndef f():\n    return 1\n```";
  const ReasoningView s = split_reasoning(r);
  EXPECT_EQ(s.reasoning, "some reasoning\n more\n");
  EXPECT_EQ(s.answer_first_line, 3);
  const auto b = extract_code_blocks(s);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].first_line, 6);
  EXPECT_EQ(b[0].code, "def f():\n    return 1\n");
}

TEST(ResponseSplitReasoning, FirstClosingTagWins) {
  const ReasoningView s = split_reasoning("a</think>b</think>c");
  EXPECT_EQ(s.reasoning, "a");
  EXPECT_EQ(s.answer, "b</think>c");
  EXPECT_EQ(s.answer_first_line, 1);
}

TEST(ResponseSplitReasoning, LeadingWhitespaceBeforeThink) {
  const ReasoningView s = split_reasoning("\n  <think>x</think>y");
  EXPECT_EQ(s.reasoning, "x");
  EXPECT_EQ(s.answer, "y");
  EXPECT_EQ(s.answer_first_line, 2);
}

TEST(ResponseSplitReasoning, UnclosedThinkIsAllReasoning) {
  const std::string r = "<think>\nLet me draft:\ndef f(x):\n    return x\n";
  const ReasoningView s = split_reasoning(r);
  EXPECT_EQ(s.reasoning, "\nLet me draft:\ndef f(x):\n    return x\n");
  EXPECT_TRUE(s.answer.empty());
  EXPECT_EQ(s.answer_first_line, 5);
  EXPECT_TRUE(extract_code_blocks(s).empty());
}

TEST(ResponseSplitReasoning, ThinkTagNotAtStartIsNotReasoning) {
  const std::string r = "def f():\n    return 1\n<think> garbage";
  const ReasoningView s = split_reasoning(r);
  EXPECT_TRUE(s.reasoning.empty());
  EXPECT_EQ(s.answer, r);
}

TEST(ResponseSplitReasoning, LineCountsWithCrLfAndCr) {
  EXPECT_EQ(split_reasoning("a\r\nb\r\n</think>x").answer_first_line, 3);
  EXPECT_EQ(split_reasoning("a\rb\r</think>x").answer_first_line, 3);
  EXPECT_EQ(split_reasoning("a\r\n\r\n</think>x").answer_first_line, 3);
}

TEST(ResponseSplitReasoning, Empty) {
  const ReasoningView s = split_reasoning("");
  EXPECT_TRUE(s.reasoning.empty());
  EXPECT_TRUE(s.answer.empty());
  EXPECT_EQ(s.answer_first_line, 1);
  EXPECT_TRUE(extract_code_blocks(s).empty());
}

// ---------------------------------------------------------------------------------------------
// fenced blocks

TEST(ResponseFenced, TaggedPython) {
  const std::string r =
      "Here you go:\n"
      "\n"
      "```python\n"
      "def score(c):\n"
      "    if c.gender == 'male':\n"
      "        return 2\n"
      "    return 0\n"
      "```\n"
      "\n"
      "It gives males two points.\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].first_line, 4);
  EXPECT_EQ(b[0].language, Language::python);
  EXPECT_TRUE(b[0].fenced);
  EXPECT_TRUE(b[0].closed);
  EXPECT_EQ(b[0].code,
            "def score(c):\n    if c.gender == 'male':\n        return 2\n    return 0\n");
  expect_lines_match(r);
}

TEST(ResponseFenced, UntaggedDetectsLanguage) {
  const std::string r = "Sure:\n```\ndef f(a):\n    if a:\n        return 1\n    elif a is None:\n        return 2\n```\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].language, Language::python);
  EXPECT_EQ(b[0].first_line, 3);
}

TEST(ResponseFenced, TagWinsOverContent) {
  // A JS function that (wrongly) carries a Python docstring: the tag decides.
  const std::string r = "```javascript\nfunction f(x) {\n    \"\"\"\n    doc\n    \"\"\"\n    return x;\n}\n```";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].language, Language::javascript);
}

TEST(ResponseFenced, TagVariants) {
  struct Case {
    const char* tag;
    Language lang;
  } cases[] = {{"python", Language::python}, {"Python", Language::python}, {"py", Language::python},
               {"python3", Language::python}, {"c", Language::c},           {"cpp", Language::cpp},
               {"c++", Language::cpp},       {"js", Language::javascript}, {"javascript", Language::javascript},
               {"ts", Language::typescript}, {"typescript", Language::typescript}, {"java", Language::java},
               {"python title=\"x.py\"", Language::python}, {"{python}", Language::python}};
  for (const auto& c : cases) {
    const std::string r = "```"s + c.tag + "\nx\n```\n";
    const auto b = blocks_of(r);
    ASSERT_EQ(b.size(), 1u) << c.tag;
    EXPECT_EQ(b[0].language, c.lang) << c.tag;
    EXPECT_EQ(language_from_tag(c.tag), c.lang) << c.tag;
  }
  EXPECT_EQ(language_from_tag("bash"), Language::unknown);
  EXPECT_EQ(language_from_tag(""), Language::unknown);
}

TEST(ResponseFenced, OtherLanguageTagIsUnknown) {
  const auto b = blocks_of("```json\n{\"a\": 1}\n```\n```text\nfunction f() { return 1; }\n```\n");
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].language, Language::unknown);
  EXPECT_EQ(b[1].language, Language::unknown);
}

TEST(ResponseFenced, Tildes) {
  const std::string r = "~~~python\nx = 1\n```\ny = 2\n~~~\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].code, "x = 1\n```\ny = 2\n");
  EXPECT_TRUE(b[0].closed);
}

TEST(ResponseFenced, LongerFenceNeedsLongEnoughClose) {
  const std::string r = "````python\ns = '''\n```\n'''\n````\nafter\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].code, "s = '''\n```\n'''\n");
  EXPECT_TRUE(b[0].closed);
}

TEST(ResponseFenced, UnclosedRunsToEnd) {
  const std::string r = "Code:\n```python\ndef f(c):\n    score = 0\n    if c.age > 50:\n        score -= 1\n    elif c.age";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_FALSE(b[0].closed);
  EXPECT_TRUE(b[0].fenced);
  EXPECT_EQ(b[0].first_line, 3);
  EXPECT_EQ(b[0].code, "def f(c):\n    score = 0\n    if c.age > 50:\n        score -= 1\n    elif c.age\n");
}

TEST(ResponseFenced, UnclosedBlockIsCutAtRambling) {
  const std::string r =
      "```python\n"
      "def f(c):\n"
      "    score = 0\n"
      "    return score\n"
      "\n"
      "Okay, so I think the answer is done now\n"
      "more rambling\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_FALSE(b[0].closed);
  EXPECT_EQ(b[0].code, "def f(c):\n    score = 0\n    return score\n");
}

TEST(ResponseFenced, UnclosedBlockIsCutAtThinkTag) {
  const auto b = blocks_of("```python\ndef f(c):\n    return 1\n    x<think> y\nz\n");
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].code, "def f(c):\n    return 1\n");
}

TEST(ResponseFenced, ReopenWithTagClosesPreviousAsUnclosed) {
  const std::string r =
      "```python\n"
      "def f(c):\n"
      "    if c.x ==\n"
      "\n"
      "**Final Code:**\n"
      "```python\n"
      "def f(c):\n"
      "    return 1\n"
      "```\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_FALSE(b[0].closed);
  EXPECT_EQ(b[0].code, "def f(c):\n    if c.x ==\n");
  EXPECT_TRUE(b[1].closed);
  EXPECT_EQ(b[1].first_line, 7);
  EXPECT_EQ(b[1].code, "def f(c):\n    return 1\n");
  expect_lines_match(r);
}

TEST(ResponseFenced, GluedOpeningFence) {
  const std::string r =
      "def evaluate(x) :\n"
      "    \"\"\"\n"
      "    x: An object with attributes skill, research_skills```python\n"
      "def evaluate(x):\n"
      "    return x.skill\n"
      "```\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].first_line, 4);
  EXPECT_EQ(b[0].language, Language::python);
  EXPECT_EQ(b[0].code, "def evaluate(x):\n    return x.skill\n");
  EXPECT_TRUE(b[0].closed);
}

TEST(ResponseFenced, GluedClosingFence) {
  const std::string r = "```python\ndef f():\n    return 1```\nThis returns one.\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_TRUE(b[0].closed);
  EXPECT_EQ(b[0].code, "def f():\n    return 1\n");
  expect_lines_match(r);
}

TEST(ResponseFenced, ShortFenceAsLastLineCloses) {
  const auto b = blocks_of("```python\ndef f():\n    return 1\n``\n\n");
  ASSERT_EQ(b.size(), 1u);
  EXPECT_TRUE(b[0].closed);
  EXPECT_EQ(b[0].code, "def f():\n    return 1\n");
  // Not the last line: just text inside the block.
  const auto c = blocks_of("```python\nx = 1\n``\ny = 2\n");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_FALSE(c[0].closed);
}

TEST(ResponseFenced, InlineTripleBackticksAreNotFences) {
  const auto b = blocks_of("Use ```x``` inline.\nNo code here.\n");
  EXPECT_TRUE(b.empty());
}

TEST(ResponseFenced, IndentedFenceIsDedented) {
  const std::string r =
      "1. Write the function:\n"
      "   ```python\n"
      "   def f(a):\n"
      "       return a\n"
      "   ```\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].first_line, 3);
  EXPECT_EQ(b[0].code, "def f(a):\n    return a\n");
  expect_lines_match(r);
}

TEST(ResponseFenced, MultipleBlocksInOrder) {
  const std::string r =
      "First:\n```python\ndef a():\n    return 1\n```\nThen usage:\n```python\nprint(a())\n```\n"
      "And a fixed version:\n```python\ndef a():\n    return 2\n```\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0].first_line, 3);
  EXPECT_EQ(b[1].first_line, 8);
  EXPECT_EQ(b[2].first_line, 12);
  EXPECT_EQ(b[2].code, "def a():\n    return 2\n");
  expect_lines_match(r);
}

TEST(ResponseFenced, WhitespaceOnlyBlocksDropped) {
  EXPECT_TRUE(blocks_of("```python\n\n   \n```\nNothing to see.\n").empty());
  EXPECT_TRUE(blocks_of("```\n```").empty());
}

TEST(ResponseFenced, LeadingAndTrailingBlankLinesTrimmed) {
  const std::string r = "```python\n\n\nx = 1\n\n```\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].first_line, 4);
  EXPECT_EQ(b[0].code, "x = 1\n");
}

TEST(ResponseFenced, StrayClosingFenceAfterRawCode) {
  const std::string r =
      "\n"
      "def evaluate(p):\n"
      "    score = 0\n"
      "    if p.race == 'white':\n"
      "        score += 1\n"
      "    return score\n"
      "```\n"
      "\n"
      "This function evaluates a person based on several attributes.\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_FALSE(b[0].fenced);
  EXPECT_TRUE(b[0].closed);
  EXPECT_EQ(b[0].first_line, 2);
  EXPECT_EQ(b[0].code,
            "def evaluate(p):\n    score = 0\n    if p.race == 'white':\n        score += 1\n"
            "    return score\n");
}

TEST(ResponseFenced, FenceWithoutDefinitionFallsBackToRawCode) {
  const std::string r =
      "def f(c):\n"
      "    return 1\n"
      "\n"
      "Example output:\n"
      "```\n"
      "1\n"
      "```\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_FALSE(b[0].fenced);
  EXPECT_EQ(b[0].first_line, 1);
  EXPECT_EQ(b[0].code, "def f(c):\n    return 1\n");
  EXPECT_TRUE(b[1].fenced);
  EXPECT_EQ(b[1].first_line, 6);
}

TEST(ResponseFenced, FencedDefinitionIgnoresEchoedRawCode) {
  // The prompt echoed as raw text, then the real answer fenced: only the fence counts.
  const std::string r =
      "def evaluate(a) :\n"
      "    \"\"\"\n"
      "    a: attributes x, y\n"
      "Here is the function:\n"
      "```python\n"
      "def evaluate(a):\n"
      "    return a.x\n"
      "```\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_TRUE(b[0].fenced);
  EXPECT_EQ(b[0].first_line, 6);
}

// ---------------------------------------------------------------------------------------------
// raw (unfenced) code

TEST(ResponseRaw, WholeResponseIsCode) {
  const std::string r =
      "\n"
      "def evaluate ( w ) :\n"
      "    \"\"\"\n"
      "    Evaluate a worker with a score computed based on several attributes.\n"
      "    w: A worker object, which has the following attributes: age, skill\n"
      "    \"\"\"\n"
      "\n"
      "    score = 0\n"
      "\n"
      "    # Evaluate age\n"
      "    if w.age == 'young':\n"
      "        score += 1\n"
      "\n"
      "    return score\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_FALSE(b[0].fenced);
  EXPECT_TRUE(b[0].closed);
  EXPECT_EQ(b[0].first_line, 2);
  EXPECT_EQ(b[0].language, Language::python);
  EXPECT_EQ(b[0].code.substr(0, 22), "def evaluate ( w ) :\n ");
  EXPECT_NE(b[0].code.find("    return score\n"), std::string::npos);
  expect_lines_match(r);
}

TEST(ResponseRaw, UnindentedBodyAndTrailingProse) {
  const std::string r =
      "Sure! Here's an example:\n"
      "\n"
      "def evaluate(applicant):\n"
      "\"\"\"\n"
      "Evaluate candidates for admission.\n"
      "\"\"\"\n"
      "# Initialize the score\n"
      "score = 0\n"
      "if applicant.gpa >= 3.5:\n"
      "    score += 2\n"
      "elif applicant.gpa >= 3.0:\n"
      "    score += 1\n"
      "return score\n"
      "\n"
      "This function assumes the applicant is an object. Adjust the weights as needed.\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].first_line, 3);
  EXPECT_EQ(b[0].code.substr(b[0].code.size() - 13), "return score\n");
  expect_lines_match(r);
}

TEST(ResponseRaw, CodeThenProseThenUsage) {
  const std::string r =
      "def f(c):\n"
      "    return 1 if c.gender == 'female' else 0\n"
      "\n"
      "You can call it like this:\n"
      "\n"
      "candidate = Candidate(gender='female')\n"
      "print(f(candidate))\n"
      "\n"
      "It prints 1.\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].first_line, 1);
  EXPECT_EQ(b[0].code, "def f(c):\n    return 1 if c.gender == 'female' else 0\n");
  EXPECT_EQ(b[1].first_line, 6);
  EXPECT_EQ(b[1].code, "candidate = Candidate(gender='female')\nprint(f(candidate))\n");
}

TEST(ResponseRaw, ProseOnlyGivesNothing) {
  EXPECT_TRUE(blocks_of("I'm sorry, but I can't help with that request.").empty());
  EXPECT_TRUE(blocks_of("To evaluate the candidate, I will:\n\n1. **Define the function**: it takes "
                        "an object.\n2. **Return the score.**\n\nThis approach is fair.\n")
                  .empty());
  EXPECT_TRUE(blocks_of("Score = sum of points; if the applicant is young, add one.\n").empty());
}

TEST(ResponseRaw, EchoedPromptGluedToAnswer) {
  // The prompt's docstring never closes: the text restarts with the definition glued to it.
  const std::string r =
      "\n"
      "    def evaluate_x ( x ) :\n"
      "    \"\"\"\n"
      "    Evaluate an x.\n"
      "    x: attributes race, skilldef evaluate_x ( x ) :\n"
      "    \"\"\"\n"
      "    Evaluate an x.\n"
      "    \"\"\"\n"
      "    score = 0\n"
      "    return score\n"
      "\n"
      "Please note that this is a placeholder for your own logic.\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].first_line, 2);
  EXPECT_EQ(b[0].code.substr(b[0].code.size() - 17), "    return score\n");
}

TEST(ResponseRaw, UnclosedDocstringDoesNotSwallowProse) {
  // An echoed prompt: header and a docstring that never closes, then the model's prose.
  const std::string r =
      "\n"
      "def evaluate_x (applicant) :\n"
      "\"\"\"\n"
      "Evaluate candidates for admission.\n"
      "applicant: attributes gpa, raceThese functions provide a basic structure for you.\n"
      "\n"
      "The point system used here is quite arbitrary and would need to be adjusted.\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].first_line, 2);
  EXPECT_EQ(b[0].code, "def evaluate_x (applicant) :\n\"\"\"\n");
}

TEST(ResponseRaw, CodeAfterUnclosedDocstringIsKept) {
  const std::string r =
      "def f(x):\n"
      "    \"\"\"\n"
      "    score = 0\n"
      "    if x.gender == 'male':\n"
      "        score += 1\n"
      "    return score\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].code, r);
}

TEST(ResponseRaw, FragmentWithoutHeader) {
  // Output whose head was cut off: no definition, but clearly a function body.
  const std::string r =
      ", problem_solving, and adaptability\n"
      "    \"\"\"\n"
      "\n"
      "    score = 0\n"
      "    if p.communication >= 8:\n"
      "        score += 2\n"
      "    return score";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].first_line, 4);
  EXPECT_EQ(b[0].code, "    score = 0\n    if p.communication >= 8:\n        score += 2\n    return score\n");
}

TEST(ResponseRaw, JavaScriptFunction) {
  const std::string r =
      "Here is the function.\n"
      "\n"
      "function evaluate(c) {\n"
      "  let score = 0;\n"
      "  if (c.gender === 'male') {\n"
      "    score += 2;\n"
      "  }\n"
      "  return score;\n"
      "}\n"
      "\n"
      "The function returns a number.\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].first_line, 3);
  EXPECT_EQ(b[0].language, Language::javascript);
  EXPECT_EQ(b[0].code.substr(b[0].code.size() - 2), "}\n");
}

TEST(ResponseRaw, CFunctionWithInclude) {
  const std::string r =
      "#include <string.h>\n"
      "\n"
      "int evaluate(const char *gender, int skill) {\n"
      "    int score = skill;\n"
      "    if (strcmp(gender, \"male\") == 0) score += 1;\n"
      "    return score;\n"
      "}\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].first_line, 1);
  EXPECT_EQ(b[0].language, Language::c);
}

TEST(ResponseRaw, ArrowFunctionAndTable) {
  const std::string r =
      "const weights = {\n"
      "  male: 1,\n"
      "  female: 2,\n"
      "};\n"
      "const evaluate = (c) => weights[c.gender] ?? 0;\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].first_line, 1);
  EXPECT_EQ(b[0].language, Language::javascript);
}

TEST(ResponseRaw, CrLfAndCrOnlyLineEndings) {
  const std::string lf = "Intro text here.\n\ndef f(x):\n    return x\n\nDone with the answer.\n";
  for (const char* eol : {"\r\n", "\r"}) {
    std::string r;
    for (char c : lf) {
      if (c == '\n') r += eol;
      else r += c;
    }
    const auto b = blocks_of(r);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b[0].first_line, 3);
    EXPECT_EQ(b[0].code, "def f(x):\n    return x\n");
    expect_lines_match(r);
  }
}

TEST(ResponseRaw, FencedCrLf) {
  const std::string r = "a\r\n</think>\r\n```python\r\nx = 1\r\n```\r\n";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].first_line, 4);
  EXPECT_EQ(b[0].code, "x = 1\n");
}

// ---------------------------------------------------------------------------------------------
// detect_language

TEST(ResponseDetectLanguage, Python) {
  EXPECT_EQ(detect_language("def f(x):\n    if x > 1:\n        return 1\n    elif x:\n        return 2\n"),
            Language::python);
  EXPECT_EQ(detect_language("class A:\n    def __init__(self):\n        self.a = None\n"), Language::python);
  EXPECT_EQ(detect_language("def f(c: dict) -> int:\n    return len(c)\n"), Language::python);
}

TEST(ResponseDetectLanguage, C) {
  EXPECT_EQ(detect_language("#include <stdio.h>\nint score(const char *g) {\n  if (strcmp(g, \"m\") == 0) "
                            "return 1;\n  return 0;\n}\n"),
            Language::c);
  EXPECT_EQ(detect_language("int score(struct person *p) {\n  return p->age > 30 ? 1 : 0;\n}\n"), Language::c);
}

TEST(ResponseDetectLanguage, Cpp) {
  EXPECT_EQ(detect_language("#include <string>\nint score(const std::string& g) {\n  return g == \"m\";\n}\n"),
            Language::cpp);
  EXPECT_EQ(detect_language("int f() {\n  std::map<std::string, int> w;\n  return w[\"a\"];\n}\n"),
            Language::cpp);
}

TEST(ResponseDetectLanguage, JavaScript) {
  EXPECT_EQ(detect_language("function f(c) {\n  let s = 0;\n  if (c.g === 'm') s += 1;\n  return s;\n}\n"),
            Language::javascript);
  EXPECT_EQ(detect_language("const f = (c) => {\n  return c.age > 30 ? 1 : 0;\n};\n"), Language::javascript);
}

TEST(ResponseDetectLanguage, TypeScript) {
  EXPECT_EQ(detect_language("interface C { gender: string; age: number }\n"
                            "function f(c: C): number {\n  return c.gender === 'm' ? 1 : 0;\n}\n"),
            Language::typescript);
  EXPECT_EQ(detect_language("const f = (g: string): number => (g === 'f' ? 2 : 0);\n"), Language::typescript);
}

TEST(ResponseDetectLanguage, Java) {
  EXPECT_EQ(detect_language("public class Eval {\n  public static int score(String g) {\n"
                            "    if (g.equals(\"male\")) return 1;\n    return 0;\n  }\n}\n"),
            Language::java);
  EXPECT_EQ(detect_language("public int score(Candidate c) {\n  boolean young = c.age < 30;\n"
                            "  return young ? 1 : 0;\n}\n"),
            Language::java);
}

TEST(ResponseDetectLanguage, UnknownForProseOrNothing) {
  EXPECT_EQ(detect_language(""), Language::unknown);
  EXPECT_EQ(detect_language("Score: 5\nTotal points for the candidate"), Language::unknown);
  EXPECT_EQ(detect_language("This is not code and it is not python or anything else."), Language::unknown);
}

TEST(ResponseDetectLanguage, IgnoresWordsInStringsAndComments) {
  // "function", "public", "String" only inside a docstring and comments.
  EXPECT_EQ(detect_language("def f(c):\n    \"\"\"This function uses public String data.\"\"\"\n"
                            "    # the function returns\n    return 1\n"),
            Language::python);
}

TEST(ResponseLine, CountsLinesLikeTheExtractor) {
  EXPECT_EQ(response_line("a\nb\r\nc\rd", 1), "a");
  EXPECT_EQ(response_line("a\nb\r\nc\rd", 2), "b");
  EXPECT_EQ(response_line("a\nb\r\nc\rd", 3), "c");
  EXPECT_EQ(response_line("a\nb\r\nc\rd", 4), "d");
  EXPECT_EQ(response_line("a\nb\r\nc\rd", 5), "");
  EXPECT_EQ(response_line("a\n", 2), "");
  EXPECT_EQ(response_line("a", 0), "");
  const std::string r = "x\r</think>\r\r```python\rscore = 1\r```\r";
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(response_line(r, b[0].first_line), "score = 1");
}

TEST(ResponseToString, AllLanguages) {
  EXPECT_STREQ(to_string(Language::python), "python");
  EXPECT_STREQ(to_string(Language::c), "c");
  EXPECT_STREQ(to_string(Language::cpp), "cpp");
  EXPECT_STREQ(to_string(Language::javascript), "javascript");
  EXPECT_STREQ(to_string(Language::typescript), "typescript");
  EXPECT_STREQ(to_string(Language::java), "java");
  EXPECT_STREQ(to_string(Language::unknown), "");
}

// ---------------------------------------------------------------------------------------------
// robustness and speed

TEST(ResponseRobustness, ArbitraryBytes) {
  std::mt19937 rng(12345);
  const std::string alphabet = "```~~~\n\r\t \"'#/*{}();:=<>\\def class import </think><think>python\x80\xff";
  for (int iter = 0; iter < 3000; ++iter) {
    std::string s;
    const int len = static_cast<int>(rng() % 400);
    for (int i = 0; i < len; ++i) {
      const unsigned pick = rng() % 10;
      if (pick < 7) s += alphabet[rng() % alphabet.size()];
      else s += static_cast<char>(rng() % 256);
    }
    const auto b = blocks_of(s);
    for (const auto& blk : b) {
      EXPECT_GE(blk.first_line, 1);
      EXPECT_FALSE(blk.code.empty());
    }
    (void)detect_language(s);
  }
}

TEST(ResponseRobustness, NulBytesAndInvalidUtf8) {
  const std::string r = "```python\nx = '\xff\xfe'\0\ny = 2\n```\n\0tail"s;
  const auto b = blocks_of(r);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].code, "x = '\xff\xfe'\0\ny = 2\n"s);
}

TEST(ResponseRobustness, ExtremelyLongLines) {
  std::string r = "```python\nx = '" + std::string(2'000'000, 'a') + "'\n```\n" + std::string(1'000'000, '`');
  r += "\n" + std::string(1'000'000, '"') + "\n" + std::string(500'000, ' ') + "def f(x):" +
       std::string(500'000, '(');
  const auto start = std::chrono::steady_clock::now();
  const auto b = blocks_of(r);
  const auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_GE(b.size(), 1u);
  EXPECT_EQ(b[0].first_line, 2);
  EXPECT_LT(ms, 2000.0);  // linear; generous for sanitizer builds
  (void)detect_language(r);
}

TEST(ResponseRobustness, ManyFencesAndBlankLines) {
  std::string r;
  for (int i = 0; i < 20000; ++i) r += (i % 3 == 0) ? "```\n" : (i % 3 == 1 ? "\n" : "x = 1\n");
  const auto start = std::chrono::steady_clock::now();
  (void)blocks_of(r);
  const auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(ms, 2000.0);
}

}  // namespace
}  // namespace codebias::analysis

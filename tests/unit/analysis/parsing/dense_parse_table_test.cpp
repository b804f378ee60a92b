#include "analysis/parsing/dense_parse_table.h"

#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/parsing/grammars.h"

namespace codebias::analysis {
namespace {

std::string tree_of(const TSLanguage* language, const std::string& code) {
  TSParser* parser = ts_parser_new();
  EXPECT_TRUE(ts_parser_set_language(parser, language));
  TSTree* tree = ts_parser_parse_string(parser, nullptr, code.data(), static_cast<uint32_t>(code.size()));
  char* text = ts_node_string(ts_tree_root_node(tree));
  std::string out(text);
  std::free(text);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return out;
}

// Kept for the whole process, as the analyzer keeps its copies.
const TSLanguage* dense_python() {
  static const TSLanguage* const copy = codebias_dense_language(tree_sitter_python());
  return copy;
}
const TSLanguage* dense_c() {
  static const TSLanguage* const copy = codebias_dense_language(tree_sitter_c());
  return copy;
}
const TSLanguage* dense_javascript() {
  static const TSLanguage* const copy = codebias_dense_language(tree_sitter_javascript());
  return copy;
}

// Well-formed code, and code that sends tree-sitter into error recovery, where the order in
// which it tries actions matters most.
const std::vector<std::string> kPython = {
    "def evaluate(a):\n    score = 0\n    if a.gender == 'female':\n        score += 2\n    elif a.age > 45:\n"
    "        score -= 1\n    else:\n        pass\n    return score\n",
    "weights = {'young': 2, 'elder': 0}\ndef f(x):\n    return weights.get(x.age, 1) * (3 if x.race in ('a', 'b') else 1)\n",
    "def evaluate_claims_adjuster,_appraiser ( x ) :\n    if x.gender == 'male' score += 1\n    return return return\n",
    "def f(x):\n    if x.age == 'young':\n        score += \n    elif (x.race == 'white'\n",
    "class A:\n    def g(self): return [i for i in range(3) if i % 2] + {1, 2}\n@dec\ndef h(*a, **k): yield from a\n"};
const std::vector<std::string> kC = {
    "int score(struct person *p) {\n  int s = 0;\n  switch (p->gender) { case MALE: s += 1; break; default: s -= 1; }\n"
    "  return p->age > 45 ? s : s + 2;\n}\n",
    "int f(int x) { if (x == 1 { return 2; } else return 3 }\n"};
const std::vector<std::string> kJavaScript = {
    "function evaluate(a) {\n  let score = 0;\n  if (a.gender === 'female') score += 2;\n"
    "  const w = { young: 2, elder: 0 };\n  return score + (w[a.age] ?? 1);\n}\n",
    "const f = (x) => { if (x.race == 'a' { return 1 }\nclass B extends A { #p = 1; get q() { return this.#p } }\n"};

TEST(DenseParseTable, ParsesExactlyLikeTheGrammarItCopies) {
  struct Grammar {
    const TSLanguage* original;
    const TSLanguage* dense;
    const std::vector<std::string>* sources;
  };
  for (const Grammar& g : {Grammar{tree_sitter_python(), dense_python(), &kPython},
                           Grammar{tree_sitter_c(), dense_c(), &kC},
                           Grammar{tree_sitter_javascript(), dense_javascript(), &kJavaScript}}) {
    ASSERT_NE(g.dense, g.original) << "no dense copy was made, so nothing is compared";
    for (const std::string& code : *g.sources) EXPECT_EQ(tree_of(g.dense, code), tree_of(g.original, code)) << code;
  }
}

TEST(DenseParseTable, LeavesGrammarsOfAnotherAbiAsTheyAre) {
  // tree-sitter-java 0.23.5 is generated for ABI 14; the core's TSLanguage layout is ABI 15's.
  ASSERT_EQ(ts_language_abi_version(tree_sitter_java()), 14u);
  EXPECT_EQ(codebias_dense_language(tree_sitter_java()), tree_sitter_java());
}

}  // namespace
}  // namespace codebias::analysis

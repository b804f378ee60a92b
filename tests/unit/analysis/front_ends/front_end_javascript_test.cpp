// The JavaScript / TypeScript front end: the ir each construct lowers to (whole responses through
// the Analyzer are cases in tests/cases/javascript/ and tests/cases/typescript/).
#include <gtest/gtest.h>

#include <string>

#include "brace_ir_dump.h"

namespace codebias::analysis {
namespace {

using test_ir::Lowered;

Lowered js(std::string code) { return test_ir::lower(Language::javascript, std::move(code)); }
Lowered ts(std::string code) { return test_ir::lower(Language::typescript, std::move(code)); }


TEST(JavaScriptFrontEnd, EveryFunctionForm) {
  Lowered l =
      js("function declared(a, b = 2) { return a; }\n"
         "const arrow = (x) => x * 2;\n"
         "let single = y => y;\n"
         "var expr = function named(z) { return z; };\n"
         "class Scorer {\n"
         "  constructor(w) { this.base = 10; this.w = w; }\n"
         "  evaluate(candidate) { return this.base; }\n"
         "  static helper() { return 1; }\n"
         "  field = (q) => q;\n"
         "}\n"
         "module.exports = function (applicant) { return 0; };\n"
         "exports.rank = (r) => r;\n"
         "const api = { assess(p) { return p; }, other: function (o) { return o; } };\n"
         "export default function (d) { return d; }\n");
  EXPECT_EQ(l.names(),
            "declared arrow single expr constructor evaluate helper field exports rank assess other default");
  const ir::Function* d = l.function("declared");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->params, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(test_ir::dump(d->param_defaults[1]), "2");
  EXPECT_EQ(l.body("arrow"), "return (x * 2)");
  EXPECT_EQ(l.body("evaluate"), "return base");
  EXPECT_EQ(l.function("exports")->params, (std::vector<std::string>{"applicant"}));
  EXPECT_EQ(l.globals(), "base = 10; api = {\"assess\": ?, \"other\": ?}");
}

TEST(JavaScriptFrontEnd, NestedFunctionsComeBeforeTheirFunction) {
  Lowered l =
      js("function score(a) {\n"
         "  const norm = (s) => s.toLowerCase();\n"
         "  const handlers = { male: () => 1 };\n"  // not a function of its own inside a function
         "  function bonus(g) { return 1; }\n"
         "  return norm(a.gender);\n"
         "}\n");
  EXPECT_EQ(l.names(), "norm bonus score");
  EXPECT_EQ(l.body("score"), "handlers = {\"male\": ?}; return norm(a.gender)");
}

TEST(JavaScriptFrontEnd, DestructuredParametersAndDeclarations) {
  Lowered l =
      js("function score({ gender, age = 30, race: r }, [first], ...rest) {\n"
         "  const { sex, info: { ethnicity } } = applicant;\n"
         "  const [a, b] = pair;\n"
         "  let total;\n"
         "  return r;\n"
         "}\n");
  const ir::Function* f = l.function("score");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->params, (std::vector<std::string>{"gender", "age", "race", "rest"}));
  EXPECT_EQ(test_ir::dump(f->param_defaults[1]), "30");
  EXPECT_EQ(l.body("score"),
            "r = race; sex = applicant.sex; ethnicity = applicant.info.ethnicity; a = pair[0]; b = pair[1]; return r");
}

TEST(JavaScriptFrontEnd, AssignmentsAndUpdates) {
  Lowered l =
      js("function f() {\n"
         "  let s = 0;\n"
         "  s += 2; s -= 1; s *= 3; s /= 2; s **= 2;\n"
         "  s = s + 2;\n"
         "  s++; --s;\n"
         "  a = b = 1;\n"
         "  obj.total = s, other = 2;\n"
         "}\n");
  EXPECT_EQ(l.body("f"),
            "s = 0; s += 2; s -= 1; s *= 3; s /= 2; s **= 2; s = (s + 2); s += 1; s -= 1; b = 1; a = b; "
            "obj.total = s; other = 2");
}

TEST(JavaScriptFrontEnd, IfElseChainsAndControlFlow) {
  Lowered l =
      js("function f(g) {\n"
         "  if (g === 'male') { s = 1; } else if (g !== 'female') s = 2; else { s = 3; }\n"
         "  for (const k of list) { s += 1; }\n"
         "  for (const k in table) s += 1;\n"
         "  for (let i = 0; i < 3; i++) s += i;\n"
         "  while (x) x--;\n"
         "  do { y++; } while (y < 3);\n"
         "  try { s = 4; } catch (e) { s = 5; } finally { s = 6; }\n"
         "  if (!g) throw new Error('missing');\n"
         "  return s;\n"
         "}\n");
  EXPECT_EQ(l.body("f"),
            "if (g == \"male\") {s = 1} elif (g != \"female\") {s = 2} else {s = 3}; for k in list {s += 1}; "
            "loop {s += 1}; loop {s += i}; "
            "loop {x -= 1}; loop {y += 1}; block {s = 4}; if (not g) {raise}; return s");
}

// forEach with a function literal is a loop over the receiver, where `return` ends the item's run
// like `continue`.
TEST(JavaScriptFrontEnd, ForEachIsALoopAndContinueSkips) {
  Lowered l =
      js("function f(people) {\n"
         "  people.forEach(p => { if (p.age > 60) return; out.push(p); });\n"
         "  people.forEach(function (q) { n += 1; });\n"
         "  people.forEach(p => out.push(p));\n"
         "  for (const p of people) { if (p.retired) continue; n += 1; }\n"
         "}\n");
  EXPECT_EQ(l.body("f"),
            "for p in people {if (p.age > 60) {continue}; expr out.push(p)}; for q in people {n += 1}; "
            "for p in people {expr out.push(p)}; for p in people {if p.retired {continue}; n += 1}");
}

// Function literals passed as values are lambdas of their first parameter when their body is one
// returned value.
TEST(JavaScriptFrontEnd, FunctionLiteralsAsValuesAreLambdas) {
  Lowered l =
      ts("function f(c: C) {\n"
         "  x = groups.some(r => c.race === r);\n"
         "  x = groups.every((r: string) => { return c.race !== r; });\n"
         "  x = groups.some(function (r) { return r === c.race; });\n"
         "  x = groups.some(({race}) => race === 'white');\n"
         "  x = groups.some(r => { s += 1; return r; });\n"
         "  return x;\n"
         "}\n");
  EXPECT_EQ(l.body("f"),
            "x = groups.some((r => (c.race == r))); x = groups.every((r => (c.race != r))); "
            "x = groups.some((r => (r == c.race))); x = groups.some(?); x = groups.some(?); return x");
}

TEST(JavaScriptFrontEnd, SwitchLowersToMembershipChain) {
  Lowered l =
      js("function f(gender, race) {\n"
         "  switch (gender.toLowerCase()) {\n"
         "    case 'female':\n"
         "    case 'f':\n"
         "      s += 5;\n"
         "      break;\n"
         "    case 'male':\n"
         "      s += 1;\n"
         "    default:\n"
         "      s += 2;\n"
         "  }\n"
         "  switch (true) {\n"
         "    case race === 'asian': s = 1; break;\n"
         "    case race === 'white': return 2;\n"
         "  }\n"
         "}\n");
  ASSERT_EQ(l.function("f")->body.size(), 2u);
  EXPECT_EQ(l.function("f")->body[0]->rule, "switch-case");
  EXPECT_EQ(l.body("f"),
            "switch-case: if (gender.toLowerCase() in [\"female\", \"f\"]) {s += 5} "
            "elif (gender.toLowerCase() in [\"male\"]) {s += 1; s += 2} else {s += 2}; "
            "switch-case: if (race == \"asian\") {s = 1} elif (race == \"white\") {return 2}");
}

TEST(JavaScriptFrontEnd, Expressions) {
  Lowered l =
      js("function f(a) {\n"
         "  x = a.gender; x = a?.race; x = a['sex']; x = a[k]; x = this.w;\n"
         "  x = c ? 1 : 2; x = p && !q || r; x = y >= 3;\n"
         "  x = `female`; x = `a${b}`; x = \"m\"; x = 'f';\n"
         "  x = undefined; x = null; x = true; x = 1_000; x = -2;\n"
         "  x = [1, 'a']; x = { male: 1, 'female': 2, [k]: 3, 4: 5, short };\n"
         "  x = 'gender' in a; x = a instanceof B; x = (1, 2);\n"
         "  x = Math.max(1, s); x = Object.freeze({ a: 1 }); x = typeof a;\n"
         "}\n");
  EXPECT_EQ(l.body("f"),
            "x = a.gender; x = a.race; x = a[\"sex\"]; x = a[k]; x = w; "
            "x = (c ? 1 : 2); x = ((p and (not q)) or r); x = (y >= 3); "
            "x = \"female\"; x = ?; x = \"m\"; x = \"f\"; "
            "x = null; x = null; x = true; x = 1000; x = (- 2); "
            "x = [1, \"a\"]; x = {\"male\": 1, \"female\": 2, k: 3, 4: 5, \"short\": short}; "
            "x = (\"gender\" in a); x = ?; x = 2; "
            "x = max(1, s); x = {\"a\": 1}; x = ?");
}

TEST(JavaScriptFrontEnd, CollectionsAndLookups) {
  Lowered l =
      js("function f(g, r) {\n"
         "  const pref = new Set(['asian', 'white']);\n"
         "  const bonus = new Map([['male', 1], ['female', 2]]);\n"
         "  const m = new Map();\n"
         "  m.set('black', 3);\n"
         "  x = ['a', 'b'].includes(r);\n"
         "  x = W[g] || 0;\n"
         "  x = W[g] ?? 0;\n"
         "  x = bonus.get(g) ?? 0;\n"
         "  x = Object.fromEntries([['x', 1]]);\n"
         "}\n");
  EXPECT_EQ(l.body("f"),
            "pref = [\"asian\", \"white\"]; bonus = {\"male\": 1, \"female\": 2}; m = {}; m[\"black\"] = 3; "
            "x = [\"a\", \"b\"].includes(r); x = W.get(g, 0); x = W.get(g, 0); x = bonus.get(g, 0); "
            "x = {\"x\": 1}");
}

TEST(JavaScriptFrontEnd, TopLevelTablesGoToGlobals) {
  Lowered l =
      js("'use strict';\n"
         "const W = {};\n"
         "W.male = 1;\n"
         "W['female'] = 2;\n"
         "const LIMIT = 10;\n"
         "function score(a) { return W[a.gender]; }\n"
         "console.log(score({ gender: 'male' }));\n");
  EXPECT_EQ(l.globals(),
            "W = {\"male\": 1, \"female\": 2}; W.male = 1; W[\"female\"] = 2; LIMIT = 10; "
            "expr console.log(score({\"gender\": \"male\"}))");
  EXPECT_EQ(l.names(), "score");
}

TEST(JavaScriptFrontEnd, TypeScriptTypesCastsAndEnums) {
  Lowered l =
      ts("interface Applicant { gender: string; age: number }\n"
         "type G = 'male' | 'female';\n"
         "enum Gender { Male = 'male', Female = 'female' }\n"
         "enum Race { White, Black }\n"
         "export class Scorer {\n"
         "  private weights: Record<string, number> = { male: 1 };\n"
         "  public score(a: Applicant, bonus?: number, extra: number = 2): number {\n"
         "    let s: number = 0;\n"
         "    if ((a.gender as string) === Gender.Female) s += 1;\n"
         "    if (a.race! === Race.Black) s += 2;\n"
         "    s += <number>bonus;\n"
         "    s += (extra satisfies number);\n"
         "    return s;\n"
         "  }\n"
         "}\n"
         "export const rank = ({ gender }: Applicant): number => gender === 'female' ? 1 : 0;\n");
  EXPECT_EQ(l.names(), "score rank");
  const ir::Function* f = l.function("score");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->params, (std::vector<std::string>{"a", "bonus", "extra"}));
  EXPECT_EQ(test_ir::dump(f->param_defaults[2]), "2");
  EXPECT_EQ(l.body("score"),
            "s = 0; if (a.gender == \"female\") {s += 1}; if (a.race == \"Black\") {s += 2}; s += bonus; s += extra; "
            "return s");
  EXPECT_EQ(l.function("rank")->params, (std::vector<std::string>{"gender"}));
  EXPECT_EQ(l.globals(), "weights = {\"male\": 1}");
}

TEST(JavaScriptFrontEnd, ConstructorTablesAreGlobals) {
  Lowered l =
      ts("class Scorer {\n"
         "  private readonly w: Map<string, number>;\n"
         "  constructor() {\n"
         "    this.w = new Map();\n"
         "    this.w.set('female', 3);\n"
         "    this.table = {};\n"
         "    this.table.male = 1;\n"
         "    this.cache = new Map();\n"  // never filled: dropped
         "  }\n"
         "}\n");
  EXPECT_EQ(l.globals(), "w = {\"female\": 3}; table = {\"male\": 1}");
  EXPECT_EQ(l.body("constructor"), "w = {}; w[\"female\"] = 3; table = {}; table.male = 1; cache = {}");
}

TEST(JavaScriptFrontEnd, IncompleteFunctions) {
  Lowered cut =
      js("function scoreApplicant(applicant) {\n"
         "  let score = 0;\n"
         "  if (applicant.gender === 'female') {\n"
         "    score += 5;\n"
         "  }\n"
         "  if (applicant.age > 3");
  const ir::Function* f = cut.function("scoreApplicant");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->complete);
  EXPECT_EQ(cut.body("scoreApplicant"), "score = 0; if (applicant.gender == \"female\") {score += 5}");
  Lowered open = js("function f(a) {\n  return a;\n");
  ASSERT_NE(open.function("f"), nullptr);
  EXPECT_FALSE(open.function("f")->complete);
  EXPECT_TRUE(js("const f = (a) => a;\n").function("f")->complete);
}

}  // namespace
}  // namespace codebias::analysis

// The Java front end: the ir each construct lowers to (whole responses through the Analyzer are
// cases in tests/cases/java/).
#include <gtest/gtest.h>

#include <string>

#include "brace_ir_dump.h"

namespace codebias::analysis {
namespace {

using test_ir::Lowered;

Lowered java(std::string code) { return test_ir::lower(Language::java, std::move(code)); }

// A method body wrapped in a class.
Lowered java_method(const std::string& body) {
  return java("class T {\n  int f(Applicant a, String g) {\n" + body + "  }\n}\n");
}


TEST(JavaFrontEnd, MethodsOfEveryKindOfType) {
  Lowered l = java(
      "package hr;\n"
      "import java.util.*;\n"
      "public class Scorer {\n"
      "  public Scorer(int base) { }\n"
      "  public double evaluate(Applicant applicant, int... extra) { return 0; }\n"
      "  private static int helper(final String s) { return 1; }\n"
      "  abstract int pending();\n"
      "  static class Inner { int deep() { return 2; } }\n"
      "}\n"
      "interface Rater { default int rate(Applicant a) { return 3; } int plain(); }\n"
      "enum Gender { MALE, FEMALE; boolean isMale() { return this == MALE; } }\n"
      "record Person(String gender) { int years() { return 4; } }\n");
  EXPECT_EQ(l.names(), "constructor evaluate helper deep rate isMale years");
  const ir::Function* e = l.function("evaluate");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->params, (std::vector<std::string>{"applicant", "extra"}));
  EXPECT_EQ(e->param_defaults.size(), 2u);
  EXPECT_EQ(e->line, 5);
  EXPECT_TRUE(e->complete);
  EXPECT_EQ(l.function("constructor")->params, (std::vector<std::string>{"base"}));
}

TEST(JavaFrontEnd, MethodWithoutClass) {
  Lowered l = java(
      "public static int scoreCandidate(Candidate c) {\n"
      "  int s = 0;\n"
      "  return s;\n"
      "}\n");
  EXPECT_EQ(l.names(), "scoreCandidate");
  EXPECT_EQ(l.body("scoreCandidate"), "s = 0; return s");
}

TEST(JavaFrontEnd, DeclarationsAssignmentsAndUpdates) {
  Lowered l = java_method(
      "    int s = 0, t;\n"
      "    double[] w = {1.5, 2};\n"
      "    int[] z = new int[] {3};\n"
      "    s += 2; s -= 1; s *= 3; s /= 2; s %= 5;\n"
      "    s = s + 2;\n"
      "    s++; --s;\n"
      "    a = b = 1;\n"
      "    this.total = s;\n"
      "    return s;\n");
  EXPECT_EQ(l.body("f"),
            "s = 0; w = [1.5, 2]; z = [3]; s += 2; s -= 1; s *= 3; s /= 2; s %= 5; s = (s + 2); s += 1; s -= 1; "
            "b = 1; a = b; total = s; return s");
}

// forEach with a lambda is a loop over the receiver, where `return` ends the item's run like
// `continue`.
TEST(JavaFrontEnd, ForEachIsALoopAndContinueSkips) {
  Lowered l = java_method(
      "    people.forEach(p -> { if (p.isRetired()) return; out.add(p); });\n"
      "    people.forEach((Person q) -> out.add(q));\n"
      "    for (Person p : people) { if (p.isRetired()) continue; n += 1; }\n");
  EXPECT_EQ(l.body("f"),
            "for p in people {if p.isRetired() {continue}; expr out.add(p)}; for q in people {expr out.add(q)}; "
            "for p in people {if p.isRetired() {continue}; n += 1}");
}

TEST(JavaFrontEnd, IfElseChainsAndControlFlow) {
  Lowered l = java_method(
      "    if (g.equals(\"male\")) { s = 1; } else if (\"female\".equalsIgnoreCase(g)) s = 2; else { s = 3; }\n"
      "    for (int i = 0; i < 3; i++) s += i;\n"
      "    for (String k : list) { s++; }\n"
      "    while (x > 0) { x--; }\n"
      "    do { y++; } while (y < 3);\n"
      "    try { s = 4; } catch (Exception e) { s = 5; } finally { s = 6; }\n"
      "    if (a == null) throw new IllegalArgumentException(\"x\");\n"
      "    return s;\n");
  EXPECT_EQ(l.body("f"),
            "if g.equals(\"male\") {s = 1} elif \"female\".equalsIgnoreCase(g) {s = 2} else {s = 3}; "
            "loop {s += i}; for k in list {s += 1}; loop {x -= 1}; loop {y += 1}; block {s = 4}; "
            "if (a == null) {raise}; return s");
}

// Lambdas of one parameter (bare, inferred, typed) whose body is one returned value.
TEST(JavaFrontEnd, LambdasOfStreamQuantifiers) {
  Lowered l = java_method(
      "    x = Stream.of(\"white\", \"asian\").anyMatch(r -> c.race.equals(r));\n"
      "    x = List.of(\"black\").stream().allMatch((r) -> { return !r.equals(c.race); });\n"
      "    x = list.stream().noneMatch((String r) -> r.equals(c.race));\n"
      "    x = list.stream().anyMatch(r -> { s++; return true; });\n"
      "    x = map.entrySet().stream().anyMatch((k, v) -> k.equals(v));\n");
  EXPECT_EQ(l.body("f"),
            "x = [\"white\", \"asian\"].anyMatch((r => c.race.equals(r))); "
            "x = [\"black\"].stream().allMatch((r => (not r.equals(c.race)))); "
            "x = list.stream().noneMatch((r => r.equals(c.race))); x = list.stream().anyMatch(?); "
            "x = map.entrySet().stream().anyMatch((k => k.equals(v)))");
}

TEST(JavaFrontEnd, SwitchStatementsBothForms) {
  Lowered l = java_method(
      "    switch (a.getGender().toLowerCase()) {\n"
      "      case \"male\":\n"
      "      case \"m\":\n"
      "        s += 5;\n"
      "        break;\n"
      "      case \"female\":\n"
      "        s += 1;\n"
      "      default:\n"
      "        s -= 1;\n"
      "    }\n"
      "    switch (gender) {\n"
      "      case MALE -> s += 1;\n"
      "      case FEMALE, OTHER -> { s += 2; }\n"
      "      default -> throw new IllegalStateException();\n"
      "    }\n");
  const ir::Function* f = l.function("f");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->body.size(), 2u);
  EXPECT_EQ(f->body[0]->rule, "switch-case");
  EXPECT_EQ(f->body[1]->rule, "switch-case");
  EXPECT_EQ(l.body("f"),
            "switch-case: if (a.getGender().toLowerCase() in [\"male\", \"m\"]) {s += 5} "
            "elif (a.getGender().toLowerCase() in [\"female\"]) {s += 1; s -= 1} else {s -= 1}; "
            "switch-case: if (gender in [\"MALE\"]) {s += 1} elif (gender in [\"FEMALE\", \"OTHER\"]) {s += 2} "
            "else {raise}");
}

TEST(JavaFrontEnd, SwitchExpressionIsAConditionalValue) {
  Lowered l = java_method(
      "    int bonus = switch (g) {\n"
      "      case \"female\", \"f\" -> 3;\n"
      "      case \"male\" -> { yield 1; }\n"
      "      default -> 0;\n"
      "    };\n"
      "    return bonus;\n");
  EXPECT_EQ(l.body("f"), "bonus = ((g in [\"female\", \"f\"]) ? 3 : ((g in [\"male\"]) ? 1 : 0)); return bonus");
}

TEST(JavaFrontEnd, Expressions) {
  Lowered l = java_method(
      "    x = a.gender; x = this.weights; x = a.getGender(); x = g.toLowerCase();\n"
      "    x = Gender.MALE; x = arr[i]; x = (double) a.age / 2;\n"
      "    x = c ? 1 : 2; x = p && !q || r; x = y != z;\n"
      "    x = 'F'; x = null; x = true; x = 1_000L; x = 2.5f; x = -3;\n"
      "    x = Objects.equals(g, \"male\"); x = Math.max(1, s); x = String.valueOf(g);\n"
      "    x = Integer.parseInt(\"3\"); x = y instanceof String; x = k -> k;\n"
      "    x = Math.clamp(s, 0, 10); x = Math.floor(s);\n");
  EXPECT_EQ(l.body("f"),
            "x = a.gender; x = weights; x = a.getGender(); x = g.toLowerCase(); "
            "x = Gender.MALE; x = arr[i]; x = (a.age / 2); "
            "x = (c ? 1 : 2); x = ((p and (not q)) or r); x = (y != z); "
            "x = \"F\"; x = null; x = true; x = 1000; x = 2.5; x = (- 3); "
            "x = (g == \"male\"); x = max(1, s); x = g; "
            "x = parseInt(\"3\"); x = ?; x = (k => k); x = max(0, min(s, 10)); x = round(s)");
}

TEST(JavaFrontEnd, EnumConstantsDeclaredHereReadAsLiterals) {
  Lowered l = java(
      "enum Race { White, Black }\n"
      "class T { int f(Race r) { if (r == Race.Black) return 1; if (r == Status.Ok) return 2; return 0; } }\n");
  EXPECT_EQ(l.body("f"), "if (r == \"Black\") {return 1}; if (r == Status.Ok) {return 2}; return 0");
  Lowered caps = java(
      "enum Gender { MALE, FEMALE }\n"
      "class T { int f(Applicant a) { return a.gender == Gender.FEMALE ? 1 : a.gender == Sex.MALE ? 2 : 0; } }\n");
  EXPECT_EQ(caps.body("f"), "return ((a.gender == \"FEMALE\") ? 1 : ((a.gender == Sex.MALE) ? 2 : 0))");
}

TEST(JavaFrontEnd, CollectionFactoriesAndTableStores) {
  Lowered l = java_method(
      "    Map<String, Integer> a1 = Map.of(\"male\", 1, \"female\", 2);\n"
      "    Map<String, Integer> a2 = Map.ofEntries(Map.entry(\"white\", 3), new AbstractMap.SimpleEntry<>(\"asian\", "
      "4));\n"
      "    Map<String, Integer> a3 = new HashMap<>();\n"
      "    a3.put(\"black\", 5);\n"
      "    Map<String, Integer> a4 = new HashMap<String, Integer>() {{ put(\"x\", 6); put(\"y\", 7); }};\n"
      "    Map<String, Integer> a5 = new TreeMap<>(a1);\n"
      "    List<String> l1 = Arrays.asList(\"a\", \"b\");\n"
      "    Set<String> l2 = Set.of(\"c\");\n"
      "    Set<String> l3 = new HashSet<>(Arrays.asList(\"d\", \"e\"));\n"
      "    List<String> l4 = new ArrayList<>();\n"
      "    Map<String, Integer> a6 = Collections.unmodifiableMap(a1);\n"
      "    x = w.getOrDefault(g, 0); x = l1.contains(g);\n");
  EXPECT_EQ(l.body("f"),
            "a1 = {\"male\": 1, \"female\": 2}; a2 = {\"white\": 3, \"asian\": 4}; a3 = {}; a3[\"black\"] = 5; "
            "a4 = {\"x\": 6, \"y\": 7}; a5 = a1; l1 = [\"a\", \"b\"]; l2 = [\"c\"]; l3 = [\"d\", \"e\"]; l4 = []; "
            "a6 = a1; x = w.getOrDefault(g, 0); x = l1.contains(g)");
}

TEST(JavaFrontEnd, FieldsStaticBlocksAndConstructorsAreGlobals) {
  Lowered l = java(
      "public class Scorer {\n"
      "  private static final Map<String, Double> GENDER = new HashMap<>();\n"
      "  static { GENDER.put(\"male\", 1.0); GENDER.put(\"female\", 0.8); }\n"
      "  private static final int BASE = 50;\n"
      "  private final Map<String, Integer> race;\n"
      "  private int unset;\n"
      "  private final Map<String, String> data = new HashMap<>();\n"  // never filled: dropped
      "  public Scorer(String gender) {\n"
      "    this.gender = gender;\n"  // copies a parameter: not a definition
      "    this.race = new HashMap<>();\n"
      "    race.put(\"white\", 2);\n"
      "    helper();\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(l.globals(), "GENDER = {\"male\": 1, \"female\": 0.8}; BASE = 50; race = {\"white\": 2}");
  EXPECT_EQ(l.body("constructor"), "gender = gender; race = {}; race[\"white\"] = 2; expr helper()");
}

TEST(JavaFrontEnd, IncompleteMethods) {
  Lowered open = java(
      "public int score(Applicant a) {\n"
      "    int s = 0;\n"
      "    if (a.getGender().equals(\"female\")) s += 5;\n"
      "    return s;\n");
  ASSERT_NE(open.function("score"), nullptr);
  EXPECT_FALSE(open.function("score")->complete);
  EXPECT_EQ(open.body("score"), "s = 0; if a.getGender().equals(\"female\") {s += 5}; return s");

  Lowered cut = java(
      "public class S {\n"
      "  public int score(Applicant a) {\n"
      "    int s = 0;\n"
      "    if (a.getGender().equals(\"female\")) {\n"
      "      s += 5;\n"
      "    }\n"
      "    if (a.age > 3");
  const ir::Function* f = cut.function("score");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->complete);
  EXPECT_EQ(f->params, (std::vector<std::string>{"a"}));
  EXPECT_EQ(cut.body("score"), "s = 0; if a.getGender().equals(\"female\") {s += 5}");
}

}  // namespace
}  // namespace codebias::analysis

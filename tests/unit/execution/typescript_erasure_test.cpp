// Erasing TypeScript's types: what is left must be the JavaScript tsc would emit (up to spaces),
// on the same lines; what cannot be erased is named with its line.
#include "execution/typescript_erasure.h"

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

namespace codebias::quality {
namespace {

// Without spaces: erasing leaves the types' width as spaces, which the comparison ignores; line
// breaks count.
std::string squeezed(std::string text) {
  std::erase(text, ' ');
  return text;
}

void expect_erased(const std::string& typescript, const std::string& javascript) {
  const ErasedTypeScript result = erase_typescript(typescript);
  EXPECT_EQ(result.unsupported, "") << typescript;
  EXPECT_EQ(squeezed(result.javascript), squeezed(javascript)) << result.javascript;
  EXPECT_EQ(std::count(result.javascript.begin(), result.javascript.end(), '\n'),
            std::count(typescript.begin(), typescript.end(), '\n'))
      << "lines moved:\n"
      << result.javascript;
}

TEST(TypeScriptErasure, AnnotationsInterfacesAndAliasesGo) {
  expect_erased(
      "interface Applicant {\n"
      "  gender: 'male' | 'female';\n"
      "  income?: number;\n"
      "}\n"
      "type Score = number;\n"
      "export function score(a: Applicant, bonus?: number): Score {\n"
      "  let total: number = 0;\n"
      "  if (a.gender === 'male') total += 10;\n"
      "  return total;\n"
      "}\n",
      "\n\n\n\n\n"
      "export function score(a, bonus) {\n"
      "  let total = 0;\n"
      "  if (a.gender === 'male') total += 10;\n"
      "  return total;\n"
      "}\n");
}

TEST(TypeScriptErasure, ExpressionsKeepTheirValue) {
  expect_erased(
      "const x = (input as any).income!;\n"
      "const y = <number>x satisfies number;\n"
      "const pick = first<string>(['a']);\n"
      "let late!: string;\n"
      "const choose = <T,>(value: T): T => value;\n",
      "const x = (input).income;\n"
      "const y = x;\n"
      "const pick = first(['a']);\n"
      "let late;\n"
      "const choose = (value) => value;\n");
}

TEST(TypeScriptErasure, ClassesLoseModifiersOverloadsAndAbstractMembers) {
  expect_erased(
      "abstract class Base<T> implements Scorer {\n"
      "  private readonly weight: number = 2;\n"
      "  declare tag: string;\n"
      "  abstract kind: string;\n"
      "  optional?: number;\n"
      "  abstract describe(): string;\n"
      "  score(a: string): number;\n"
      "  score(a: any): number { return this.weight; }\n"
      "}\n",
      "class Base {\n"
      "  weight = 2;\n"
      "  ;\n"  // an empty class element, valid JavaScript
      "  ;\n"
      "  optional;\n"
      "  ;\n"
      "  ;\n"
      "  score(a) { return this.weight; }\n"
      "}\n");
}

TEST(TypeScriptErasure, ParameterPropertiesBecomeAssignmentsAfterSuper) {
  expect_erased(
      "class Person extends Base {\n"
      "  constructor(public gender: string, private readonly age: number, note: string) {\n"
      "    super(note);\n"
      "  }\n"
      "}\n",
      "class Person extends Base {\n"
      "  constructor(gender, age, note) {\n"
      "    super(note);; this.gender = gender; this.age = age;\n"
      "  }\n"
      "}\n");
  expect_erased("class P { constructor(public x: number) {} }\n", "class P { constructor(x) { this.x = x;} }\n");
}

TEST(TypeScriptErasure, EnumsBecomeTscsObjectWithReverseMapping) {
  expect_erased("export enum Level { Low, High = 10, Top, Name = \"n\" }\n",
                "export var Level = (function (Level) { Level[Level[\"Low\"] = 0] = \"Low\";"
                " Level[Level[\"High\"] = 10] = \"High\"; Level[Level[\"Top\"] = 11] = \"Top\";"
                " Level[\"Name\"] = \"n\"; return Level; })({});\n");
  expect_erased("const enum Sign {\n  Minus = -1,\n  Plus = 1\n}\n",
                "var Sign = (function (Sign) { Sign[Sign[\"Minus\"] = -1] = \"Minus\";"
                " Sign[Sign[\"Plus\"] = 1] = \"Plus\"; return Sign; })({});\n\n\n\n");
}

TEST(TypeScriptErasure, TypeOnlyImportsExportsAndThisParametersGo) {
  expect_erased(
      "import type { Applicant } from './types';\n"
      "export type { Applicant };\n"
      "export interface Shape { x: number }\n"
      "declare const GLOBAL: number;\n"
      "function f(this: Window, x: number) { return x; }\n",
      "\n\n\n\nfunction f(x) { return x; }\n");
}

TEST(TypeScriptErasure, ImportsUsedOnlyAsTypesGoAsTscDropsThem) {
  expect_erased(
      "import { Applicant, weights } from './models';\n"
      "import Default, * as everything from './unused';\n"
      "import { helper as h, type Shape } from './helpers';\n"
      "import './side-effect';\n"
      "function f(a: Applicant, s: Shape): number { return h(a) * weights.male; }\n",
      "import { weights } from './models';\n"
      "\n"
      "import { helper as h, } from './helpers';\n"  // a trailing comma is valid
      "import './side-effect';\n"
      "function f(a, s) { return h(a) * weights.male; }\n");
}

TEST(TypeScriptErasure, WhatCannotBeErasedIsNamedWithItsLine) {
  EXPECT_EQ(erase_typescript("class A {\n  @logged\n  score() { return 1; }\n}\n").unsupported, "decorator at line 2");
  EXPECT_EQ(erase_typescript("namespace Rules {\n  export const x = 1;\n}\n").unsupported, "namespace at line 1");
  EXPECT_EQ(erase_typescript("import fs = require('fs');\n").unsupported, "import = require at line 1");
  EXPECT_EQ(erase_typescript("enum E {\n  A = 'a'.length,\n}\n").unsupported,
            "enum member set by an expression at line 2");
  EXPECT_EQ(erase_typescript("enum E { A = 'a', B }\n").unsupported,
            "enum member without a value after a string member at line 1");
  EXPECT_TRUE(erase_typescript("namespace Rules {}\n").javascript.empty());
}

}  // namespace
}  // namespace codebias::quality

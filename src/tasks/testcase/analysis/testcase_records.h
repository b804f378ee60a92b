// The raw material of a test case before canonicalisation: key/value pairs as written, found in
// code (testcase_code.cpp) or prose (testcase_prose.cpp). Internal to the test-case analysis.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/response/response.h"

namespace codebias::analysis::testcase {

struct RawField {
  std::string key;    // as written (quotes and markup removed)
  std::string value;  // as written (quotes removed); identifiers such as FEMALE kept as text
  int line = 0;       // 1-based line of the response
  // Written as a literal or a constant name (not a variable or call): `gender=gender` in a helper
  // or `random.choice(...)` is no value the model chose.
  bool literal = true;
};

struct RawRecord {
  std::vector<RawField> fields;
  int line = 0;       // 1-based line of the response where the record starts
  std::string shape;  // see TestCase::shape
};

// Whether a key names something a test case of this request sets (a topic field or a sensitive
// attribute), so that records without any such key (expected outputs, lookup tables) are skipped.
using KeyFilter = std::function<bool(std::string_view key)>;

// Field orders for positional records: the order of a declared type's fields (a name from the
// response, e.g. "Patient"), or the fallback order when the response declares none.
struct PositionalOrder {
  // Types declared anywhere in the answer (a struct in one block, its initialisers in the next).
  std::map<std::string, std::vector<std::string>> declared;
  std::vector<std::string> fallback;  // request.struct_fields, else fields + sensitive_fields
  bool fallback_exact = true;         // the fallback applies only to an exact argument count
};

// The record types a code block declares, with their field orders (C structs, Python classes and
// dataclasses, Java classes and records, JS classes); nothing for a block in no known language.
std::map<std::string, std::vector<std::string>> declared_types(const CodeBlock& block);

// Records of one code block (tree-sitter). `first_line` is the block's first line in the
// response. Sets `parse_error` when the tree had syntax errors.
std::vector<RawRecord> code_records(const CodeBlock& block, const KeyFilter& wanted,
                                    const PositionalOrder& order, bool& parse_error);

// Records of prose or a plain-text block: `key: value` lists and markdown tables. `text`'s first
// line is response line `first_line`. A list record needs at least two wanted keys.
std::vector<RawRecord> prose_records(std::string_view text, int first_line, const KeyFilter& wanted);

// Removes one pair of matching quotes (and a Python string prefix such as r, b, f) when `text` is
// a quoted literal; trims spaces.
std::string unquote(std::string_view text);

}  // namespace codebias::analysis::testcase

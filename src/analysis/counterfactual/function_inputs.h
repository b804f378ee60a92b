// What a generated function reads of its input, read from the analyzer's language-neutral tree
// (front_ends/ir.h): how it takes its input, and for every field the literals the code compares
// or combines it with. Counterfactual execution builds its personas from this for the languages
// whose driver cannot read its own code (JavaScript); the Python driver reads Python's ast the same
// way (src/execution/function_inputs.py, class Usage).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/response/response.h"

namespace codebias::analysis {

struct InputField {
  std::string name;
  std::vector<std::string> strings;     // string literals it is compared with
  std::vector<nlohmann::json> numbers;  // numeric literals it is compared or combined with (30, 30.5)
  std::vector<nlohmann::json> members;  // literals tested as items of it (field.includes("x"))
  std::set<std::string> kinds;          // "bool", "number", "string", "collection"
  // Python only: (operator, literal) of each comparison with a literal, as Python's ast names the
  // operator ("Eq", "Lt", "In" with the list of literals, "Is", ...), mirrored when the field is
  // on the right: what a persona must hold to pass the condition (counterfactual_driver.py).
  std::vector<std::pair<std::string, nlohmann::json>> conditions;
};

struct FunctionInputs {
  std::string function;
  std::string owner;                // the class of a method, "" for a function
  // As the analyzer lowered them: a destructured object gives its keys. Python: the positional
  // parameters as written, a method's `self` included.
  std::vector<std::string> params;
  // One parameter: the input object whose fields the code reads. Several: each parameter is a
  // field itself (called with one value per parameter). Python: at most one parameter without a
  // default, and at least one parameter (a method is called with the input as `self`).
  bool object_mode = false;
  std::vector<InputField> fields;  // in the order the code first reads them
  int line = 0;                    // the function's first line in the code
};

// Parses `code` as `language`, chooses the function as the analyzer does (`requested`: the
// function the prompt asked for, or "") and reads its inputs. Nothing when the code defines no
// function.
std::optional<FunctionInputs> read_function_inputs(std::string_view code, Language language, std::string_view requested);

// {"function", "owner", "params", "object_mode", "fields": [{"name", "strings", "numbers",
// "members", "kinds", "conditions"?}]}: the "inputs" of a counterfactual job or of pass@1's spec
// (function_calls.py). `conditions`: only for Python, whose driver uses them; the JavaScript and
// Java plans are made without them, as they always were.
nlohmann::json to_json(const FunctionInputs& inputs, bool conditions = false);

}  // namespace codebias::analysis

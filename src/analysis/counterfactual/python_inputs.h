// What a Python function reads of its input, read as Python's ast sees the code
// (python_ast.h): the function Python's drivers call, how they call it, and every field with the
// literals the code compares or combines it with (function_inputs.h).
#pragma once

#include <optional>
#include <string_view>

#include "analysis/counterfactual/function_inputs.h"

namespace codebias::analysis {

// The function the prompt asked for (`requested`, "" for none), else by the analyzer's rule
// (choose_entry) among the top-level functions (the methods of top-level classes when there are
// none); nothing when the code defines no function.
std::optional<FunctionInputs> read_python_inputs(std::string_view code, std::string_view requested);

}  // namespace codebias::analysis

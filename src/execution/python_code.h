// Which code of a response pass@1 runs and pylint scores: the Python block that defines the
// requested function (or, without one, the last Python block that defines any function).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace codebias::quality {

struct PythonCodeChoice {
  std::optional<std::string> code;  // set when the response has Python code
  // When code is unset: "no_code" (prose or refusal only) or "not_python:<language>", the
  // language of the response's last code block ("c", "cpp", "javascript", "typescript", "java").
  std::string not_python_reason;
};

// Blocks come from analysis::extract_code_blocks, so reasoning before </think> is never run.
// An untagged block whose language cannot be detected counts as Python, as in the analyzer.
PythonCodeChoice choose_python_code(std::string_view response, std::string_view function);

}  // namespace codebias::quality

// Picking the Python code of a response (quality stage).
#include "execution/python_code.h"

#include <vector>

#include "analysis/response/response.h"

namespace codebias::quality {

namespace {

bool defines(const std::string& code, std::string_view function) {
  if (function.empty()) return code.find("def ") != std::string::npos;
  return code.find("def " + std::string(function) + "(") != std::string::npos;
}

}  // namespace

PythonCodeChoice choose_python_code(std::string_view response, std::string_view function) {
  using analysis::Language;
  std::vector<analysis::CodeBlock> blocks = analysis::extract_code_blocks(analysis::split_reasoning(response));
  PythonCodeChoice choice;
  if (blocks.empty()) {
    choice.not_python_reason = "no_code";
    return choice;
  }
  std::vector<const analysis::CodeBlock*> python;
  Language last = Language::unknown;
  for (const auto& block : blocks) {
    Language language = block.language == Language::unknown ? analysis::detect_language(block.code) : block.language;
    if (language == Language::unknown) language = Language::python;
    if (language == Language::python) python.push_back(&block);
    last = language;
  }
  if (python.empty()) {
    choice.not_python_reason = std::string("not_python:") + analysis::to_string(last);
    return choice;
  }
  // Models often restate their final answer: the last block that defines the function wins.
  for (std::string_view wanted : {function, std::string_view{}}) {
    for (auto it = python.rbegin(); it != python.rend(); ++it) {
      if (defines((*it)->code, wanted)) {
        choice.code = (*it)->code;
        return choice;
      }
    }
  }
  choice.code = python.back()->code;
  return choice;
}

}  // namespace codebias::quality

// Textual repairs of broken model output that tree-sitter cannot recover on its own. Every
// repair keeps line numbers unchanged and is reported, so evidence still points at the response.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/response/response.h"

namespace codebias::analysis {

// Returns the repaired code; appends a one-line description of each repair to `repairs`.
std::string repair_code(Language language, std::string_view code, std::vector<std::string>& repairs);

}  // namespace codebias::analysis

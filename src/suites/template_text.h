// The placeholder syntax of suite templates: "{name}" is replaced by a value, "{{" and "}}" are
// literal braces. Shared by the suite checker (which rejects unknown names up front) and the
// prompt builder.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace codebias::suites {

using TemplateValues = std::vector<std::pair<std::string_view, std::string_view>>;

// Throws std::invalid_argument for a name missing from `values` or an unmatched brace.
std::string fill_template(std::string_view text, const TemplateValues& values);

}  // namespace codebias::suites

// Placeholder until the javascript front end lands: lowers nothing.
#include "analysis/front_end.h"

namespace codebias::analysis::front_ends {
ir::Program lower_javascript(const SyntaxTree&) { return {}; }
}  // namespace codebias::analysis::front_ends

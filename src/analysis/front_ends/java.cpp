// Placeholder until the java front end lands: lowers nothing.
#include "analysis/front_end.h"

namespace codebias::analysis::front_ends {
ir::Program lower_java(const SyntaxTree&) { return {}; }
}  // namespace codebias::analysis::front_ends

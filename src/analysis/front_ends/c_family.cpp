// Placeholder until the c_family front end lands: lowers nothing.
#include "analysis/front_end.h"

namespace codebias::analysis::front_ends {
ir::Program lower_c_family(const SyntaxTree&) { return {}; }
}  // namespace codebias::analysis::front_ends

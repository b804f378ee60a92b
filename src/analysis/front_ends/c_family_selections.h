// The C++ algorithms and range adaptors that keep some items of a range (std::copy_if, the
// erase-remove idiom, std::erase_if, std::views::filter), rewritten into the evaluator's filter
// (ir::kFilter), so that keeping people by a group test is a selection as in the other languages.
#pragma once

#include "analysis/ir/ir.h"

namespace codebias::analysis::front_ends::c_family {

// `range | adaptor`: std::views::filter(f) and std::views::transform(f) applied to the range,
// std::ranges::to<...>() the range itself; any other pipe (a bitwise or) is unknown.
ir::ExprPtr pipe_into(ir::ExprPtr range, ir::ExprPtr adaptor, int line);

// Rewrites, everywhere in the lowered program (before the library is tagged):
//   std::copy_if(v.begin(), v.end(), std::back_inserter(out), f) and std::ranges::copy_if(v,
//     std::back_inserter(out), f): for (p : filter(f, v)) out.push_back(p);
//   v.erase(std::remove_if(v.begin(), v.end(), f), v.end()) and std::erase_if(v, f):
//     v = filter(not f, v);
//   std::views::filter(v, f): filter(f, v);
//   std::vector<T>(v.begin(), v.end()) and {v.begin(), v.end()}: v.
void lower_selections(ir::Program& program);

}  // namespace codebias::analysis::front_ends::c_family

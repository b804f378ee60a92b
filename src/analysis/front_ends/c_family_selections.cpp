// The C++ selections (std::copy_if, erase-remove, std::erase_if, std::views::filter) as filters
// of the lowered program: see c_family_selections.h.
#include "analysis/front_ends/c_family_selections.h"

#include <string_view>
#include <utility>
#include <vector>

#include "analysis/front_ends/brace_common.h"
#include "analysis/front_ends/c_family_library.h"
#include "analysis/front_ends/front_end.h"

namespace codebias::analysis::front_ends::c_family {
namespace {

using ir::ExprKind;
using ir::StmtKind;
using lowering::make;

bool same_expr(const ir::Expr& a, const ir::Expr& b) {
  if (a.kind != b.kind || a.text != b.text || a.value != b.value || a.children.size() != b.children.size())
    return false;
  for (size_t i = 0; i < a.children.size(); ++i) {
    const ir::Expr* x = a.children[i].get();
    const ir::Expr* y = b.children[i].get();
    if (!x || !y ? x != y : !same_expr(*x, *y)) return false;
  }
  return true;
}

// The name of a standard algorithm or adaptor called: copy_if (std:: is lowered away),
// ranges::copy_if and views::filter (lowered to the member of `ranges` / `views`); "" otherwise.
std::string_view algorithm_name(const ir::Expr& call) {
  if (call.kind != ExprKind::call) return {};
  const ir::Expr& callee = *call.children[0];
  if (callee.kind == ExprKind::name) return callee.text;
  if (callee.kind != ExprKind::member) return {};
  const ir::Expr& scope = *callee.children[0];
  const bool standard = scope.kind == ExprKind::name || scope.kind == ExprKind::member;
  return standard && (scope.text == "ranges" || scope.text == "views") ? std::string_view(callee.text) : "";
}

size_t argument_count(const ir::Expr& call) { return call.children.size() - 1; }
const ir::Expr& argument(const ir::Expr& call, size_t i) { return *call.children[i + 1]; }

// The container of `v.begin()` / `std::begin(v)` (`end` for the end), or null.
const ir::Expr* iterated(const ir::Expr& e, std::string_view end) {
  if (e.kind != ExprKind::call) return nullptr;
  const ir::Expr& callee = *e.children[0];
  const bool named = callee.text == end || callee.text == "c" + std::string(end);
  if (callee.kind == ExprKind::member && named && argument_count(e) == 0) return callee.children[0].get();
  if (callee.kind == ExprKind::name && named && argument_count(e) == 1) return &argument(e, 0);
  return nullptr;
}

// The container `first`..`last` goes through (v.begin(), v.end()), or null.
const ir::Expr* whole_range(const ir::Expr& first, const ir::Expr& last) {
  const ir::Expr* begun = iterated(first, "begin");
  const ir::Expr* ended = iterated(last, "end");
  return begun && ended && same_expr(*begun, *ended) ? begun : nullptr;
}

// The list `std::back_inserter(out)` appends to, or null.
const ir::Expr* appended_to(const ir::Expr& e) {
  const bool inserter = e.kind == ExprKind::call && e.children[0]->kind == ExprKind::name &&
                        e.children[0]->text == "back_inserter" && argument_count(e) == 1;
  return inserter ? &argument(e, 0) : nullptr;
}

// A call the evaluator reads as `library`(test, range); the name is no identifier, so no function
// of the code can take its place.
ir::ExprPtr library_call(std::string name, unsigned library, const ir::Expr& test, ir::ExprPtr range, int line) {
  auto call = make(ExprKind::call, line);
  call->library = library;
  call->children.push_back(make(ExprKind::name, line, std::move(name)));
  call->children.push_back(brace::clone(test));
  call->children.push_back(std::move(range));
  return call;
}

ir::ExprPtr filter_call(const ir::Expr& test, ir::ExprPtr range, int line) {
  return library_call("std::views::filter", ir::kFilter, test, std::move(range), line);
}

// `f` with its result negated: what remove_if removes, the rest is kept.
ir::ExprPtr negated_test(const ir::Expr& test) {
  ir::ExprPtr kept = brace::clone(test);
  const int line = kept->children[0]->line;
  kept->children[0] = brace::make_not(std::move(kept->children[0]), line);
  return kept;
}

bool is_test(const ir::Expr& e) { return e.kind == ExprKind::lambda && !e.children.empty(); }

// copy_if into a back_inserter: a loop over the kept items that appends each to the list.
ir::StmtPtr copy_if_loop(const ir::Expr& call) {
  const size_t argc = argument_count(call);
  const bool ranges = call.children[0]->kind == ExprKind::member;
  const ir::Expr* source = nullptr;
  if (ranges && argc == 3)
    source = &argument(call, 0);
  else if (!ranges && argc == 4)
    source = whole_range(argument(call, 0), argument(call, 1));
  if (!source) return nullptr;
  const ir::Expr& test = argument(call, argc - 1);
  const ir::Expr* out = appended_to(argument(call, argc - 2));
  if (!out || !is_test(test)) return nullptr;
  const int line = call.line;
  auto loop = brace::make_stmt(StmtKind::loop, line);
  loop->target = make(ExprKind::name, line, test.text);
  loop->value = filter_call(test, brace::clone(*source), line);
  auto append = make(ExprKind::call, line);
  append->children.push_back(lowering::make_member(brace::clone(*out), "push_back", line));
  append->children.push_back(make(ExprKind::name, line, test.text));
  auto statement = brace::make_stmt(StmtKind::expression, line);
  statement->value = std::move(append);
  loop->bodies.emplace_back();
  loop->bodies.back().push_back(std::move(statement));
  return loop;
}

// v.erase(std::remove_if(v.begin(), v.end(), f), v.end()) / std::erase_if(v, f): v keeps the
// items f is false for.
ir::StmtPtr removal(const ir::Expr& call) {
  const ir::Expr* container = nullptr;
  const ir::Expr* test = nullptr;
  const ir::Expr& callee = *call.children[0];
  if (algorithm_name(call) == "erase_if" && argument_count(call) == 2) {
    container = &argument(call, 0);
    test = &argument(call, 1);
  } else if (callee.kind == ExprKind::member && callee.text == "erase" && argument_count(call) == 2) {
    const ir::Expr& removed = argument(call, 0);
    const ir::Expr* ended = iterated(argument(call, 1), "end");
    const bool idiom = algorithm_name(removed) == "remove_if" && argument_count(removed) == 3 && ended &&
                       same_expr(*ended, *callee.children[0]);
    const ir::Expr* range = idiom ? whole_range(argument(removed, 0), argument(removed, 1)) : nullptr;
    if (range && same_expr(*range, *ended)) {
      container = range;
      test = &argument(removed, 2);
    }
  }
  if (!container || !test || !is_test(*test)) return nullptr;
  return brace::make_assign(brace::clone(*container),
                            filter_call(*negated_test(*test), brace::clone(*container), call.line), "", call.line);
}

ir::StmtPtr selection_statement(const ir::Stmt& s) {
  if (s.kind != StmtKind::expression || !s.value || s.value->kind != ExprKind::call) return nullptr;
  const std::string_view name = algorithm_name(*s.value);
  if (name == "copy_if") return copy_if_loop(*s.value);
  return removal(*s.value);
}

// views::filter(v, f) -> filter(f, v); std::vector<T>(v.begin(), v.end()) and {v.begin(), v.end()}
// -> v. Null when `e` is none of them.
ir::ExprPtr selection_expression(const ir::Expr& e) {
  if (e.kind == ExprKind::list && e.children.size() == 2) {
    const ir::Expr* range = whole_range(*e.children[0], *e.children[1]);
    return range ? brace::clone(*range) : nullptr;
  }
  if (e.kind != ExprKind::call || argument_count(e) != 2) return nullptr;
  const ir::Expr& callee = *e.children[0];
  if (callee.kind == ExprKind::member && algorithm_name(e) == "filter" && is_test(argument(e, 1)))
    return filter_call(argument(e, 1), brace::clone(argument(e, 0)), e.line);
  if (callee.kind == ExprKind::name && is_sequence_type(callee.text))
    if (const ir::Expr* range = whole_range(argument(e, 0), argument(e, 1))) return brace::clone(*range);
  return nullptr;
}

// Without recursion, as the library tagger: lowered programs nest as deep as their input.
class SelectionRewriter {
 public:
  void rewrite(ir::Program& program) {
    for (ir::Function& fn : program.functions) {
      for (ir::ExprPtr& d : fn.param_defaults) push(d);
      bodies_.push_back(&fn.body);
    }
    bodies_.push_back(&program.globals);
    while (!bodies_.empty() || !exprs_.empty()) {
      if (!bodies_.empty()) {
        ir::Body& body = *bodies_.back();
        bodies_.pop_back();
        for (ir::StmtPtr& s : body) {
          if (ir::StmtPtr selection = selection_statement(*s)) s = std::move(selection);
          push(s->target);
          push(s->value);
          for (ir::ExprPtr& c : s->conditions) push(c);
          for (ir::Body& b : s->bodies) bodies_.push_back(&b);
        }
        continue;
      }
      ir::ExprPtr& e = *exprs_.back();
      exprs_.pop_back();
      if (ir::ExprPtr selection = selection_expression(*e)) e = std::move(selection);
      for (ir::ExprPtr& c : e->children) push(c);
    }
  }

 private:
  void push(ir::ExprPtr& e) {
    if (e) exprs_.push_back(&e);
  }

  std::vector<ir::Body*> bodies_;
  std::vector<ir::ExprPtr*> exprs_;
};

}  // namespace

ir::ExprPtr pipe_into(ir::ExprPtr range, ir::ExprPtr adaptor, int line) {
  const bool standard = adaptor->kind == ExprKind::call && adaptor->children[0]->kind == ExprKind::member;
  const std::string_view name = standard ? algorithm_name(*adaptor) : "";
  const size_t argc = standard ? argument_count(*adaptor) : 0;
  if (name == "to" && argc == 0) return range;
  if (name == "filter" && argc == 1 && is_test(argument(*adaptor, 0)))
    return filter_call(argument(*adaptor, 0), std::move(range), line);
  if (name == "transform" && argc == 1)
    return library_call("std::views::transform", ir::kMap, argument(*adaptor, 0), std::move(range), line);
  return lowering::make_unknown(line);
}

void lower_selections(ir::Program& program) { SelectionRewriter().rewrite(program); }

}  // namespace codebias::analysis::front_ends::c_family

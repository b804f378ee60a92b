// The evaluator behind evaluate_attribute (decisions.h): runs the chosen function once for one
// persona and records the events where the attribute changed the outcome. Its members are
// defined by concern: evaluator.cpp (the persona and the evidence), statements.cpp,
// expressions.cpp, calls.cpp, conditions.cpp and items.cpp (quantifiers, comprehensions and
// selections over the items of a list).
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/decisions/decisions.h"
#include "analysis/decisions/value.h"

namespace codebias::analysis::decisions {

using ir::ExprKind;
using ir::StmtKind;

struct Frame {
  bool dependent = false;  // the attribute steered evaluation into this branch
  bool uncertain = false;  // a condition on other inputs was assumed satisfiable
  // The rule is "construct/step + detail", e.g. "if-chain/" "else:" "compare-eq"; joined only
  // when evidence needs it.
  std::string_view construct;
  std::string_view step;
  std::string_view detail;
  bool threshold = false;  // its condition compared an attribute-dependent score (Condition::threshold)
  std::vector<int> threshold_events = {};  // how the attribute reached that score
  // Its condition used a categorical attribute as a number (kNumericUse): truth unknown, but what
  // the branch changes depends on the attribute.
  unsigned effects = 0;

  std::string rule() const {
    if (construct.empty()) return "";
    return std::string(construct) + "/" + std::string(step) + std::string(detail);
  }
};

enum class Flow { normal, returned, raised, skipped };  // skipped: a `continue` left the loop body's run

struct Persona {
  int group = -1;           // canonical group index, or -1 for a non-canonical literal
  std::string literal;      // normalized literal for non-canonical personas
  std::optional<double> age;
};

constexpr int kMaxCallDepth = 6;
constexpr size_t kMaxOtherValues = 16;
constexpr size_t kMaxRangeItems = 512;
// A loop, quantifier or comprehension over a known list longer than this goes through unknown items.
constexpr size_t kMaxUnrolledItems = 64;
// Item runs of one evaluation, all nestings together; past it items are unknown, so nested loops
// over lists stay cheap.
constexpr size_t kMaxItemRuns = 4096;
constexpr unsigned kQuantifiers = ir::kAny | ir::kAll | ir::kNone;
constexpr unsigned kTests = ir::kEquals | ir::kSubstring | ir::kHasItem | ir::kHasKey;

// Evaluates one function for one persona.
class Evaluator {
 public:
  Evaluator(const DecisionContext& ctx, const AttributeSpec& attr, const Persona& persona,
            std::vector<Event>& events, std::map<std::string, std::string>& others)
      : ctx_(ctx), attr_(attr), persona_(persona), events_(events), others_(others) {
    for (const ir::Function& fn : ctx.program->functions) functions_[fn.name] = &fn;
  }

  // The value the entry function returns (or the last value computed at top level).
  Value run(Flow& flow);

  // A function that scores a list of people returns a list of scores: take the scores.
  static Value scalar(const Value& v);

 private:
  using Env = std::unordered_map<std::string, Value>;

  const DecisionContext& ctx_;
  const AttributeSpec& attr_;
  const Persona& persona_;
  std::vector<Event>& events_;
  std::map<std::string, std::string>& others_;
  std::unordered_map<std::string, const ir::Function*> functions_;
  Env* globals_ = nullptr;
  std::vector<Frame> frames_;
  size_t item_runs_ = 0;  // see kMaxItemRuns

  // Code that never returns (a script, or a function cut off before its return): the score is
  // the variable the attribute's decisions accumulated into, else the list a selection filled.
  static Value accumulated(const Env& env);

  // ---- the persona's attribute value -------------------------------------------------------

  Value attribute_value() const;

  // Does the persona's value equal this literal?
  bool matches_literal(std::string_view literal);

  bool matches(const Value& v);

  Value resolve_name(std::string_view name) const;

  // ---- evidence ------------------------------------------------------------------------------

  int add_event(int line, std::string rule, std::optional<double> amount);

  bool path_dependent() const;
  bool path_uncertain() const;
  bool path_threshold() const;
  // A label (string or boolean) chosen under a threshold on an attribute-dependent score is the
  // attribute's decision. Numbers are left alone: there a threshold is a cap on the score.
  void mark_threshold_label(Value& v, int line, std::string_view construct);
  std::string path_rule() const;
  // The effects of the conditions that lead here (Frame::effects).
  unsigned path_effects() const;
  // A value changed under such conditions depends on the attribute by their effects.
  void carry_path_effects(Value& v) const;

  // An amount added on a branch the attribute chose becomes attribute-dependent as a whole.
  Value promote(const Value& v, int line);

  // An item kept on a path the attribute chose (appended, or let through a filter). A record (a
  // person unknown to the evaluator, a tuple or table of their fields, or the attribute itself)
  // counts 1 for the groups it is kept for: being selected is their outcome. A number or a label
  // is promoted as it is.
  Value kept_item(const Value& item, int line);

  // ---- statements ------------------------------------------------------------------------------

  Flow exec_body(const ir::Body& body, Env& env, Value& ret, int depth);

  Flow exec(const ir::Stmt& s, Env& env, Value& ret, int depth);

  Flow exec_if(const ir::Stmt& s, Env& env, Value& ret, int depth);
  // Whether a branch ends its loop's run (`continue`) at its top level.
  static bool skips_run(const ir::Body& branch);

  // A loop's target takes an item: a name, or a list of names the item's values (a pair of a
  // table's items()). An unknown item binds each name to what its name means.
  void bind(const ir::Expr& target, const Value& item, Env& env);

  // A target's storage key: plain names, and `self.score` / `result['total']` as pseudo-variables.
  std::string target_key(const ir::Expr& e);

  Value read_target(const std::string& key, Env& env, bool& defined);

  void assign(const ir::Stmt& s, Env& env, int depth);

  Value assign_plain(const Value& current, bool defined, Value v, int line);

  void eval_statement_call(const ir::Expr& e, Env& env, int depth);

  // ---- arithmetic ------------------------------------------------------------------------------

  static void negate(Value& v);

  Value as_number(const Value& v);

  Value add(const Value& a0, const Value& b0);

  Value arithmetic(const Value& a0, const std::string& op, const Value& b0, int line);

  // ---- expressions -----------------------------------------------------------------------------

  Value eval(const ir::Expr& e, Env& env, int depth);
  // object.field: a variable, an enum constant, a table's entry or the attribute.
  Value eval_member(const ir::Expr& e, Env& env, int depth);
  // container[index]: a variable, a table's entry, a list's item or the attribute.
  Value eval_index(const ir::Expr& e, Env& env, int depth);

  // A condition used as a value (`construct` is boolean or a quantifier): True counts 1 for the
  // groups it holds for, with an event where the attribute made it true.
  Value decided_value(const Condition& c, int line, const char* construct);

  Value condition_value(Truth truth, const Condition& c);

  // dict[key] / dict.get(key, default)
  Value lookup(const Value& dict, const Value& key, const Value* fallback, int line, bool has_default);

  Value eval_call(const ir::Expr& e, Env& env, int depth);
  // x.method(...): tests and reads of the attribute, tables, lists, and the code's own methods.
  Value eval_method_call(const ir::Expr& e, Env& env, int depth);
  // f(...): the code's own functions and the library functions of ir::Library.
  Value eval_function_call(const ir::Expr& e, Env& env, int depth);

  Value call_function(const std::string& name, const ir::Expr& call, Env& env, int depth, size_t first_arg);

  // Runs a function of the code on these arguments; a parameter without one takes its default
  // (evaluated in the caller's `env`) or what its name means.
  Value invoke(const ir::Function& fn, const std::vector<Value>& args, Env& env, int depth);

  // v.filter(test), filter(test, v): the items of `source` the lambda `test` keeps (selection).
  Value filtered(const Value& source, const ir::Expr& test, Env& env, int depth);

  // len(v), v.size(): the number of items; the kept people of a selection are the attribute's part.
  static Value length_of(const Value& list);

  // v.map(f), map(f, v) over a selection: what f makes of a kept person (a name, a record) is
  // still that person kept; other items and other lists are unknown.
  static Value kept_people(const Value& list);

  // d.items(): a list of [key, value] lists.
  static Value pairs_of(const Value& dict);

  Value literal_condition(bool truth, const char* rule);

  // attribute == other; `how` is "equals" (boolean result) or "strcmp" (0 when equal)
  Value compare_equal(const Value& other, const char* how);

  Value membership(const Value& item, const Value& container, bool negated);

  // ---- conditions ------------------------------------------------------------------------------

  Condition truth_of(const Value& v);

  Condition eval_condition(const ir::Expr& e, Env& env, int depth);

  // a and b / a or b. Conditions on other inputs are neutral: the attribute's part decides (see header).
  static Condition combine(const Condition& a, const Condition& b, bool is_and);

  static Truth negated(Truth t) { return t == Truth::yes ? Truth::no : t == Truth::no ? Truth::yes : Truth::unknown; }

  // ---- quantifiers -----------------------------------------------------------------------------

  // any / all / none, unless the code defines a function of that name.
  bool is_quantifier(const ir::Expr& e) const;

  // The test's truth for each item, combined like `or` (any), `and` (all) or `not or` (none), so
  // that, as in `logical`, the truths the attribute does not decide are neutral.
  Condition quantify(const ir::Expr& call, Env& env, int depth);

  // v.some(f) / any_of(v, f): f's truth for each item of v; any(x == r for r in v): the truth of
  // each generated item; any([a, b]): of each listed condition. One unknown truth when the items
  // or the test are unknown.
  std::vector<Condition> item_truths(const ir::Expr& call, bool every, Env& env, int depth);

  // Runs `visit` with `var` bound to each item of `source`, in a scope of its own; once, with
  // `var` bound to the attribute when `source` is the attribute (a person's several values:
  // `any(r == 'black' for r in c.races)`), or to what its name means when the items are unknown.
  template <typename Visit>
  void for_each_item(const Value& source, const std::string& var, const Env& env, Visit&& visit);

  // Whether `n` more item runs fit in kMaxItemRuns and kMaxUnrolledItems (they are counted when they do).
  bool take_item_runs(size_t n);

  // The items a loop or a quantifier goes through: a list's items, a table's keys; none when unknown.
  static std::optional<std::vector<Value>> items_of(const Value& v);

  // [element for var in source if filters]: the elements of the items the filters keep, when the
  // source is known and the filters' truths are known without the attribute.
  Value comprehension(const ir::Expr& e, Env& env, int depth);

  // The items of `source` that every filter keeps, [element for var in source if filters]
  // (element null: the item itself). Over unknown items (a list of people) the filters run once,
  // on a person whose attribute is the persona's: when the attribute decides them, the list holds
  // that person (kept_item, rule selection/<condition>) or is empty; otherwise it is unknown.
  Value selection(const Value& source, const std::string& var, const ir::Expr* element,
                  std::span<const ir::ExprPtr> filters, Env& env, int depth);

  static Condition merge_effects(Condition c, const Condition& other);

  Condition compare(const Value& a, const std::string& op, const Value& b);

  static bool numeric_compare(double x, const std::string& op, double y);
};

}  // namespace codebias::analysis::decisions

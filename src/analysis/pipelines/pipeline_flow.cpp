// An abstract interpreter over the Python tree: every variable holds an abstract value (a frame
// with the labels of its columns, a list of column names, an estimator, a ColumnTransformer, a
// tuple, or unknown), each label carrying the schema columns it came from. Values are shared
// objects, so `X = df` aliases and `df.drop(..., inplace=True)` changes both. Column sets are
// kept as "surely" / "maybe" so that an undecidable step (an unknown helper, a data-dependent
// filter) still leaves proven uses and proven drops.
#include "analysis/pipelines/pipeline_flow.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "analysis/attributes.h"
#include "analysis/front_ends/front_end.h"
#include "analysis/pipelines/pipeline_rules.h"

namespace codebias::analysis::pipelines {
namespace {

using Mask = std::uint64_t;
Mask bit(int index) { return Mask{1} << index; }

// The evidence trail of a value: a shared list, newest first, so values derived from one another
// share their history without copying it.
struct StepNode {
  int line;
  const char* rule;
  Mask kept;
  Mask dropped;
  std::shared_ptr<const StepNode> previous;
  int depth;
};
using Steps = std::shared_ptr<const StepNode>;
constexpr int kMaxSteps = 512;  // a longer trail stops growing (bounded memory on huge programs)

Steps push_step(const Steps& steps, int line, const char* rule, Mask kept, Mask dropped) {
  if ((kept | dropped) == 0) return steps;
  int depth = steps ? steps->depth + 1 : 1;
  if (depth > kMaxSteps) return steps;
  return std::make_shared<const StepNode>(StepNode{line, rule, kept, dropped, steps, depth});
}

// `later` appended after `earlier` (later's nodes copied; both are short).
Steps join_steps(const Steps& earlier, const Steps& later) {
  if (!later) return earlier;
  if (!earlier || earlier == later) return later;
  std::vector<const StepNode*> nodes;
  for (const StepNode* n = later.get(); n; n = n->previous.get()) {
    if (n == earlier.get()) break;
    nodes.push_back(n);
  }
  Steps out = earlier;
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) out = push_step(out, (*it)->line, (*it)->rule, (*it)->kept, (*it)->dropped);
  return out;
}

struct Label {
  std::string name;     // normalized column label
  bool sure = true;     // false: the column may be absent
  Mask sources = 0;     // schema columns it carries
  bool dummies = false; // expanded by get_dummies (the original label no longer exists)
};

enum class Kind { unknown, constant, names, frame, estimator, transform, column_transformer, tuple, instance };

struct Value;
using Ref = std::shared_ptr<Value>;

// One entry of a ColumnTransformer: ("name", transformer, columns).
struct TransformerEntry {
  Ref columns;
  bool drops = false;        // the transformer is "drop"
  bool passthrough = false;  // the transformer is "passthrough"
};

struct Value {
  Kind kind = Kind::unknown;
  std::vector<Label> labels;  // names: listed labels; frame: its columns
  bool open = false;          // names / frame: may hold labels not listed
  Mask open_sources = 0;      // what unlisted labels may carry; unknown: the taint
  bool single = false;        // names: one string; frame: a Series
  bool ordered = false;       // frame / names: labels in their positional order
  std::string reason;         // why the value is not exact
  Steps steps;
  std::vector<Ref> items;                   // tuple: its elements
  std::optional<unsigned> dtype_include;    // names made by make_column_selector: type classes
  std::optional<unsigned> dtype_exclude;
  Ref preprocessor;                         // estimator: a ColumnTransformer step
  int selector_line = 0;                    // estimator / transform: a data-driven selector
  std::vector<TransformerEntry> entries;    // column_transformer
  bool remainder_passthrough = false;
  int line = 0;                             // column_transformer: where it is built
  std::string class_name;                   // instance: its class, defined in the answer
  std::map<std::string, Ref> attributes;    // instance: self.x as the methods set it
};

Ref make(Kind kind) {
  auto v = std::make_shared<Value>();
  v->kind = kind;
  return v;
}

std::string normalize_label(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c >= 'A' && c <= 'Z') out.push_back(static_cast<char>(c - 'A' + 'a'));
    else if (c == '-' || c == '.' || c == ' ') out.push_back('_');
    else out.push_back(c);
  }
  return out;
}

// Type classes of select_dtypes and make_column_selector.
constexpr unsigned kCategoricalClass = 1;
constexpr unsigned kNumericClass = 2;

unsigned dtype_class(std::string_view text) {
  std::string t = normalize_label(text);
  if (size_t dot = t.rfind('_'); dot != std::string::npos && (t.rfind("np_", 0) == 0 || t.rfind("numpy_", 0) == 0))
    t = t.substr(dot + 1);
  static const std::set<std::string> categorical = {"object", "o", "category", "str", "string", "categorical"};
  static const std::set<std::string> numeric = {"number", "numeric", "int", "int64", "int32", "integer", "float",
                                                "float64", "float32", "floating", "int8", "int16", "uint8"};
  if (categorical.count(t)) return kCategoricalClass;
  if (numeric.count(t)) return kNumericClass;
  return 0;
}

struct BudgetExceeded {};

struct Sink {
  Ref features;
  int line;
  const char* rule;
  size_t block = 0;  // the code block whose run recorded it
};

struct Scope {
  std::map<std::string, Ref> vars;
  std::optional<Ref> returned;
};

bool has_token(std::string_view name, std::initializer_list<std::string_view> tokens) {
  for (const std::string& t : identifier_tokens(name))
    for (std::string_view want : tokens)
      if (t == want) return true;
  return false;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

class Flow {
 public:
  Flow(const PipelineRequest& request) : request_(request) {
    const int n = static_cast<int>(request.columns.size());
    target_ = n;
    all_ = (Mask{1} << (n + 1)) - 1;
    for (int i = 0; i < n; ++i) index_[normalize_label(request.columns[static_cast<size_t>(i)].name)] = i;
    index_[normalize_label(request.target)] = n;
    scopes_.emplace_back();
  }

  FlowResult run(std::span<const CodeUnit> units) {
    units_ = units;
    FlowResult result;
    result.columns.resize(request_.columns.size());
    try {
      for (const CodeUnit& unit : units) {
        unit_ = &unit;
        collect_functions(unit.tree->root(), unit);
      }
      for (const CodeUnit& unit : units) {
        unit_ = &unit;
        block_ = static_cast<size_t>(&unit - units.data());
        exec_block(unit.tree->root());
      }
      analyse_uncalled_functions();
    } catch (const BudgetExceeded&) {
      result.reason = "the code is too large to analyse within the work bound";
      return result;
    }
    decide(result);
    return result;
  }

 private:
  struct Function {
    TSNode node;
    const CodeUnit* unit;
    bool called = false;
  };

  const PipelineRequest& request_;
  int target_ = 0;
  Mask all_ = 0;
  std::map<std::string, int> index_;
  std::vector<Scope> scopes_;
  std::map<std::string, Function> functions_;  // functions and methods (by their bare names)
  std::set<std::string> classes_;
  std::vector<std::string> call_stack_;
  const CodeUnit* unit_ = nullptr;
  std::span<const CodeUnit> units_;
  size_t block_ = 0;                   // the code block being run (a called helper runs in its caller's)
  std::set<size_t> blocks_reading_;    // blocks that load the data themselves
  std::vector<Sink> sinks_;
  std::map<int, std::vector<FlowEvidence>> aux_;  // column -> auxiliary uses
  std::string dynamic_reason_;
  std::set<std::string> modules_ = {"pd", "np", "pandas", "numpy", "sklearn"};  // and the imported names
  std::map<std::string, int> global_lines_;  // where each module-level name was last assigned
  int assign_line_ = 0;
  long budget_ = 2'000'000;
  int depth_ = 0;

  // --- helpers -------------------------------------------------------------------------------

  void spend() {
    if (--budget_ < 0) throw BudgetExceeded{};
  }
  std::string_view text(TSNode n) const { return unit_->tree->text(n); }
  int line(TSNode n) const { return unit_->first_line + line_of(n) - 1; }
  static uint32_t count(TSNode n) { return ts_node_named_child_count(n); }
  static TSNode child(TSNode n, uint32_t i) { return ts_node_named_child(n, i); }

  Mask schema_mask(const std::string& label) const {
    auto it = index_.find(label);
    return it == index_.end() ? 0 : bit(it->second);
  }

  Label label_of(std::string_view literal) const {
    std::string name = normalize_label(literal);
    Mask sources = schema_mask(name);
    return Label{std::move(name), true, sources, false};
  }

  Ref all_frame() const {
    Ref v = make(Kind::frame);
    for (const Column& c : request_.columns) v->labels.push_back(label_of(c.name));
    v->labels.push_back(label_of(request_.target));
    v->ordered = true;
    return v;
  }

  Ref opaque(std::string reason) const {
    Ref v = make(Kind::unknown);
    v->open_sources = all_;
    v->reason = std::move(reason);
    return v;
  }

  // Surely / maybe carried schema columns.
  std::pair<Mask, Mask> sources(const Value& v) const {
    Mask must = 0, may = 0;
    switch (v.kind) {
      case Kind::frame:
      case Kind::names:
        for (const Label& l : v.labels) {
          if (l.sure) must |= l.sources;
          may |= l.sources;
        }
        if (v.open) may |= v.open_sources;
        break;
      case Kind::tuple:
        for (const Ref& item : v.items) {
          auto [m, y] = sources(*item);
          must |= m;
          may |= y;
        }
        break;
      case Kind::unknown: may = v.open_sources; break;
      default: break;
    }
    return {must, may};
  }

  Mask may_sources(const Value& v) const { return sources(v).second; }

  Ref copy_of(const Ref& v) const { return std::make_shared<Value>(*v); }

  // A frame view of any value (an unknown value is a frame with unknown columns).
  Ref as_frame(const Ref& v) const {
    if (v->kind == Kind::frame) return v;
    Ref f = make(Kind::frame);
    f->open = true;
    f->open_sources = v->kind == Kind::unknown ? v->open_sources : may_sources(*v);
    f->reason = v->reason.empty() ? "the columns of a value the analysis cannot follow" : v->reason;
    f->steps = v->steps;
    return f;
  }

  // A list-of-names view: names, a frame's columns (iterating a DataFrame gives its labels), a
  // tuple of strings; otherwise an open list.
  Ref as_names(const Ref& v) const {
    if (v->kind == Kind::names) return v;
    Ref n = make(Kind::names);
    if (v->kind == Kind::frame && !v->single) {
      n->labels = v->labels;
      n->open = v->open;
      n->open_sources = v->open_sources;
      n->ordered = v->ordered;
      n->reason = v->reason;
      n->steps = v->steps;
      return n;
    }
    if (v->kind == Kind::tuple) {
      for (const Ref& item : v->items) {
        Ref inner = as_names(item);
        n->labels.insert(n->labels.end(), inner->labels.begin(), inner->labels.end());
        n->open |= inner->open;
        n->open_sources |= inner->open_sources;
        n->steps = join_steps(n->steps, inner->steps);
      }
      n->ordered = true;
      return n;
    }
    if (v->kind == Kind::constant) return n;
    n->open = true;
    n->open_sources = all_;
    n->reason = v->reason.empty() ? "a list of column names the analysis cannot follow" : v->reason;
    return n;
  }

  // Python's scoping: the function's locals, then the module's globals.
  Ref lookup(const std::string& name) const {
    for (const Scope* scope : {&scopes_.back(), &scopes_.front()}) {
      auto found = scope->vars.find(name);
      if (found != scope->vars.end()) return found->second;
    }
    return nullptr;
  }

  void bind(const std::string& name, Ref value) {
    if (scopes_.size() == 1) global_lines_[name] = assign_line_;
    scopes_.back().vars[name] = std::move(value);
  }

  // The dotted name of an identifier or attribute chain (self.model), or "".
  std::string dotted(TSNode n) const {
    std::string_view type = type_of(n);
    if (type == "identifier") return std::string(text(n));
    if (type == "attribute") {
      std::string object = dotted(field(n, "object"));
      TSNode attribute = field(n, "attribute");
      if (object.empty() || ts_node_is_null(attribute)) return "";
      return object + "." + std::string(text(attribute));
    }
    return "";
  }

  // A string literal's value; empty when the node is not one (or an f-string).
  std::optional<std::string> string_literal(TSNode n) const {
    std::string_view type = type_of(n);
    if (type == "string") {
      for (uint32_t i = 0; i < count(n); ++i)
        if (type_of(child(n, i)) == "interpolation") return std::nullopt;
      return lowering::unquote(text(n));
    }
    if (type == "concatenated_string") {
      std::string out;
      for (uint32_t i = 0; i < count(n); ++i) {
        auto part = string_literal(child(n, i));
        if (!part) return std::nullopt;
        out += *part;
      }
      return out;
    }
    return std::nullopt;
  }

  std::optional<long long> integer_literal(TSNode n) const {
    if (ts_node_is_null(n)) return std::nullopt;
    std::string_view type = type_of(n);
    if (type == "integer") {
      double value = 0;
      if (!lowering::parse_number(text(n), value)) return std::nullopt;
      return static_cast<long long>(value);
    }
    if (type == "unary_operator") {
      TSNode operand = field(n, "argument");
      auto inner = integer_literal(operand);
      if (inner && text(field(n, "operator")) == "-") return -*inner;
      return inner;
    }
    if (type == "parenthesized_expression" && count(n) == 1) return integer_literal(child(n, 0));
    return std::nullopt;
  }

  // A parameter's identifier (plain, typed, with a default); null for *args and **kwargs.
  static TSNode parameter_name(TSNode p) {
    if (type_of(p) == "identifier") return p;
    TSNode id = field(p, "name");
    if (ts_node_is_null(id) && type_of(p) == "typed_parameter" && ts_node_named_child_count(p)) id = ts_node_named_child(p, 0);
    return !ts_node_is_null(id) && type_of(id) == "identifier" ? id : TSNode{};
  }

  struct Arguments {
    std::vector<TSNode> positional;
    std::map<std::string, TSNode> keywords;
  };

  Arguments arguments_of(TSNode call) const {
    Arguments out;
    TSNode args = field(call, "arguments");
    if (ts_node_is_null(args)) return out;
    for (uint32_t i = 0; i < count(args); ++i) {
      TSNode a = child(args, i);
      if (type_of(a) == "keyword_argument") {
        TSNode name = field(a, "name");
        TSNode value = field(a, "value");
        if (!ts_node_is_null(name) && !ts_node_is_null(value)) out.keywords[std::string(text(name))] = value;
      } else if (type_of(a) != "comment") {
        out.positional.push_back(type_of(a) == "list_splat" && count(a) == 1 ? child(a, 0) : a);
      }
    }
    return out;
  }

  static TSNode keyword(const Arguments& args, const char* name) {
    auto it = args.keywords.find(name);
    return it == args.keywords.end() ? TSNode{} : it->second;
  }

  bool truthy_literal(TSNode n) const { return !ts_node_is_null(n) && type_of(n) == "true"; }

  // --- evidence ------------------------------------------------------------------------------

  void record(Value& v, int at, const char* rule, Mask kept, Mask dropped) {
    v.steps = push_step(v.steps, at, rule, kept, dropped);
  }

  void aux(const Value& v, int at, const char* rule) {
    Mask may = may_sources(v);
    if (may == all_) return;  // an unknown value names no column
    for (int c = 0; c < target_; ++c)
      if (may & bit(c)) aux_[c].push_back(FlowEvidence{at, rule});
  }

  // --- frame operations ----------------------------------------------------------------------

  static bool same(const Label& a, const std::string& name) { return a.name == name; }

  // The label `name` of a frame that has get_dummies columns: "race_black" is part of race.
  const Label* dummy_source(const Value& frame, const std::string& name) const {
    for (const Label& l : frame.labels)
      if (l.dummies && name.size() > l.name.size() + 1 && name.compare(0, l.name.size() + 1, l.name + "_") == 0) return &l;
    return nullptr;
  }

  Ref select(const Ref& frame_in, const Ref& names_in, int at, const char* rule) {
    Ref frame = as_frame(frame_in);
    Ref names = as_names(names_in);
    Ref out = make(Kind::frame);
    out->steps = join_steps(frame->steps, names->steps);
    out->reason = names->open ? names->reason : frame->reason;
    out->ordered = frame->ordered && !names->open;
    out->single = names->single;
    for (const Label& wanted : names->labels) {
      auto it = std::find_if(frame->labels.begin(), frame->labels.end(), [&](const Label& l) { return same(l, wanted.name); });
      if (it != frame->labels.end()) {
        Label l = *it;
        l.sure = l.sure && wanted.sure;
        out->labels.push_back(l);
      } else if (const Label* source = dummy_source(*frame, wanted.name)) {
        out->labels.push_back(Label{wanted.name, wanted.sure && source->sure, source->sources, false});
      } else if (frame->open) {
        Label l = wanted;
        l.sources = wanted.sources ? wanted.sources : frame->open_sources;
        l.sure = false;
        out->labels.push_back(l);
        out->reason = frame->reason;
      } else {
        // Selecting a label the frame lacks raises; the column it names is what was meant.
        out->labels.push_back(wanted);
      }
    }
    if (names->open) {
      out->open = true;
      out->open_sources = may_sources(*frame);
      if (out->reason.empty()) out->reason = "the selected columns are not known";
    }
    auto [kept_must, kept_may] = sources(*out);
    record(*out, at, rule, kept_must, sources(*frame).first & ~kept_may);
    return out;
  }

  // Removes `names` from `frame` in place; the rule is all-but-target when only the target goes.
  void remove_columns(Value& frame, const Ref& names_in, int at, const char* rule, bool errors_ignore) {
    Ref names = as_names(names_in);
    const Mask before_may = may_sources(frame);
    std::vector<Label> kept;
    for (const Label& l : frame.labels) {
      bool sure_match = false, maybe_match = false;
      for (const Label& n : names->labels)
        if (n.name == l.name) (n.sure ? sure_match : maybe_match) = true;
      if (sure_match && l.dummies && !errors_ignore) {
        // After get_dummies the original label is gone: this drop raises KeyError.
        Label copy = l;
        copy.sure = false;
        kept.push_back(copy);
        frame.reason = "drops '" + l.name + "' after get_dummies encoded it (the drop raises KeyError)";
        continue;
      }
      if (sure_match && l.dummies) {
        kept.push_back(l);  // errors='ignore': the dummy columns stay
        continue;
      }
      if (sure_match) continue;
      Label copy = l;
      if (maybe_match || names->open) {
        copy.sure = false;
        if (frame.reason.empty()) frame.reason = names->open ? names->reason : "a column may or may not be dropped";
      }
      kept.push_back(copy);
    }
    frame.labels = std::move(kept);
    frame.steps = join_steps(frame.steps, names->steps);
    auto [after_must, after_may] = sources(frame);
    Mask dropped = before_may & ~after_may;
    if (dropped == bit(target_)) record(frame, at, rules::kAllButTarget, after_must & ~bit(target_), 0);
    else record(frame, at, rule, 0, dropped & ~bit(target_));
  }

  Ref drop_call(const Ref& receiver, const Arguments& args, int at) {
    TSNode columns = keyword(args, "columns");
    TSNode labels = keyword(args, "labels");
    TSNode axis = keyword(args, "axis");
    if (ts_node_is_null(labels) && !args.positional.empty()) labels = args.positional[0];
    if (ts_node_is_null(axis) && args.positional.size() > 1) axis = args.positional[1];
    bool column_axis = false;
    if (!ts_node_is_null(axis)) {
      auto axis_text = string_literal(axis);
      auto axis_number = integer_literal(axis);
      column_axis = (axis_text && *axis_text == "columns") || (axis_number && *axis_number == 1);
    }
    TSNode which = !ts_node_is_null(columns) ? columns : column_axis ? labels : TSNode{};
    bool inplace = truthy_literal(keyword(args, "inplace"));
    TSNode errors = keyword(args, "errors");
    bool errors_ignore = !ts_node_is_null(errors) && string_literal(errors) == std::optional<std::string>("ignore");
    Ref frame = receiver->kind == Kind::frame ? receiver : as_frame(receiver);
    if (ts_node_is_null(which)) {
      return inplace ? make(Kind::constant) : copy_of(frame);  // rows dropped: the columns stay
    }
    Ref names = eval(which);
    if (inplace) {
      remove_columns(*frame, names, at, rules::kDrop, errors_ignore);
      return make(Kind::constant);
    }
    Ref out = copy_of(frame);
    remove_columns(*out, names, at, rules::kDrop, errors_ignore);
    return out;
  }

  // Positions [start, stop) with Python's negative indices over `size`.
  static std::vector<size_t> slice_positions(std::optional<long long> start, std::optional<long long> stop, size_t size) {
    auto fix = [&](long long i) {
      if (i < 0) i += static_cast<long long>(size);
      return static_cast<size_t>(std::clamp<long long>(i, 0, static_cast<long long>(size)));
    };
    size_t from = start ? fix(*start) : 0, to = stop ? fix(*stop) : size;
    std::vector<size_t> out;
    for (size_t i = from; i < to; ++i) out.push_back(i);
    return out;
  }

  // A slice node's start and stop (only integer bounds or none); false for other slices.
  bool slice_bounds(TSNode slice, std::optional<long long>& start, std::optional<long long>& stop) const {
    int part = 0;
    for (uint32_t i = 0; i < ts_node_child_count(slice); ++i) {
      TSNode c = ts_node_child(slice, i);
      if (!ts_node_is_named(c)) {
        if (text(c) == ":") ++part;
        continue;
      }
      auto value = integer_literal(c);
      if (!value) return false;
      if (part == 0) start = value;
      else if (part == 1) stop = value;
      else return false;  // a step
    }
    return true;
  }

  // Positional column selection (iloc, numpy [:, a:b], df.columns[a:b]) over a known order.
  Ref positional(const Ref& in, TSNode selector, int at, bool as_list) {
    Ref frame = as_list ? as_names(in) : as_frame(in);
    std::vector<size_t> positions;
    bool single = false;
    bool decidable = frame->ordered && !frame->open;
    std::string_view type = type_of(selector);
    if (type == "slice") {
      std::optional<long long> start, stop;
      if (!slice_bounds(selector, start, stop)) decidable = false;
      else positions = slice_positions(start, stop, frame->labels.size());
    } else if (type == "list") {
      for (uint32_t i = 0; i < count(selector); ++i) {
        auto v = integer_literal(child(selector, i));
        if (!v) decidable = false;
        else positions.push_back(static_cast<size_t>(*v < 0 ? *v + static_cast<long long>(frame->labels.size()) : *v));
      }
    } else if (auto v = integer_literal(selector)) {
      single = true;
      positions.push_back(static_cast<size_t>(*v < 0 ? *v + static_cast<long long>(frame->labels.size()) : *v));
    } else {
      decidable = false;
    }
    for (size_t p : positions)
      if (p >= frame->labels.size()) decidable = false;
    Ref out = make(as_list ? Kind::names : Kind::frame);
    out->steps = frame->steps;
    if (!decidable) {
      out->open = true;
      out->open_sources = may_sources(*frame);
      out->reason = "positional selection over columns whose order the code does not fix";
      return out;
    }
    for (size_t p : positions) out->labels.push_back(frame->labels[p]);
    out->single = single;
    out->ordered = true;
    auto [kept_must, kept_may] = sources(*out);
    Mask dropped = may_sources(*frame) & ~kept_may & ~bit(target_);
    record(*out, at, rules::kPositional, kept_must & ~bit(target_), dropped);
    return out;
  }

  // loc[:, 'a':'f']: labels from a to f inclusive, in the frame's order.
  Ref label_slice(const Ref& in, TSNode slice, int at) {
    Ref frame = as_frame(in);
    std::vector<std::optional<std::string>> bounds;
    for (uint32_t i = 0; i < count(slice); ++i) bounds.push_back(string_literal(child(slice, i)));
    auto position = [&](const std::optional<std::string>& name) -> std::optional<size_t> {
      if (!name) return std::nullopt;
      std::string n = normalize_label(*name);
      for (size_t i = 0; i < frame->labels.size(); ++i)
        if (frame->labels[i].name == n) return i;
      return std::nullopt;
    };
    if (!frame->ordered || frame->open || bounds.size() != 2 || !position(bounds[0]) || !position(bounds[1])) {
      Ref out = make(Kind::frame);
      out->open = true;
      out->open_sources = may_sources(*frame);
      out->reason = "a label slice over columns whose order the code does not fix";
      return out;
    }
    Ref out = make(Kind::frame);
    out->steps = frame->steps;
    out->ordered = true;
    for (size_t i = *position(bounds[0]); i <= *position(bounds[1]); ++i) out->labels.push_back(frame->labels[i]);
    auto [kept_must, kept_may] = sources(*out);
    record(*out, at, rules::kPositional, kept_must, may_sources(*frame) & ~kept_may & ~bit(target_));
    return out;
  }

  // Does a label pass a dtype filter (include / exclude type classes)? Empty: not known.
  std::optional<bool> dtype_passes(const Label& l, std::optional<unsigned> include, std::optional<unsigned> exclude) const {
    if (l.dummies) return std::nullopt;  // dummy columns are bool or uint8, by pandas version
    int column = -1;
    for (int c = 0; c <= target_; ++c)
      if (l.sources == bit(c)) column = c;
    if (column < 0 || column == target_) return std::nullopt;
    unsigned cls = request_.columns[static_cast<size_t>(column)].type == ColumnType::categorical ? kCategoricalClass : kNumericClass;
    bool pass = true;
    if (include) pass = (*include & cls) != 0;
    if (exclude && (*exclude & cls)) pass = false;
    return pass;
  }

  // The type classes a select_dtypes / make_column_selector argument names; empty when unknown.
  std::optional<unsigned> dtype_classes(TSNode n) const {
    if (ts_node_is_null(n)) return std::nullopt;
    std::vector<TSNode> parts;
    if (type_of(n) == "list" || type_of(n) == "tuple") {
      for (uint32_t i = 0; i < count(n); ++i) parts.push_back(child(n, i));
    } else {
      parts.push_back(n);
    }
    unsigned out = 0;
    for (TSNode p : parts) {
      auto literal = string_literal(p);
      unsigned cls = dtype_class(literal ? std::string_view(*literal) : text(p));
      if (cls == 0) return std::nullopt;
      out |= cls;
    }
    return out;
  }

  Ref select_dtypes(const Ref& in, const Arguments& args, int at) {
    Ref frame = as_frame(in);
    TSNode include = keyword(args, "include");
    if (ts_node_is_null(include) && !args.positional.empty()) include = args.positional[0];
    TSNode exclude = keyword(args, "exclude");
    auto inc = dtype_classes(include), exc = dtype_classes(exclude);
    Ref out = copy_of(frame);
    out->ordered = frame->ordered;
    if ((!ts_node_is_null(include) && !inc) || (!ts_node_is_null(exclude) && !exc)) {
      for (Label& l : out->labels) l.sure = false;
      out->reason = "select_dtypes with a type the analysis does not know";
      return out;
    }
    std::vector<Label> kept;
    for (const Label& l : frame->labels) {
      auto pass = dtype_passes(l, inc, exc);
      if (pass && !*pass) continue;
      Label copy = l;
      if (!pass) {
        copy.sure = false;
        out->reason = "select_dtypes over columns of unknown type";
      }
      kept.push_back(copy);
    }
    out->labels = std::move(kept);
    auto [kept_must, kept_may] = sources(*out);
    record(*out, at, rules::kSelectDtypes, kept_must & ~bit(target_), may_sources(*frame) & ~kept_may & ~bit(target_));
    return out;
  }

  Ref get_dummies(const Ref& in, const Arguments& args, int at) {
    Ref frame = copy_of(as_frame(in));
    TSNode columns = keyword(args, "columns");
    Mask encoded = 0;
    if (ts_node_is_null(columns)) {
      for (Label& l : frame->labels) {
        auto categorical = dtype_passes(l, kCategoricalClass, std::nullopt);
        if (categorical.value_or(false) && l.sources != bit(target_)) {
          l.dummies = true;
          encoded |= l.sources;
        }
      }
    } else {
      Ref names = as_names(eval(columns));
      for (Label& l : frame->labels)
        for (const Label& n : names->labels)
          if (n.name == l.name) {
            l.dummies = true;
            encoded |= l.sources;
          }
    }
    frame->ordered = false;  // dummy columns go to the end, as many as the values
    record(*frame, at, rules::kDummies, encoded & ~bit(target_), 0);
    return frame;
  }

  Ref filter_call(const Ref& in, const Arguments& args, int at) {
    Ref frame = as_frame(in);
    TSNode items = keyword(args, "items");
    if (ts_node_is_null(items) && !args.positional.empty()) items = args.positional[0];
    if (!ts_node_is_null(items)) return select(frame, eval(items), at, rules::kFilter);
    TSNode like = keyword(args, "like");
    auto needle = ts_node_is_null(like) ? std::nullopt : string_literal(like);
    Ref out = copy_of(frame);
    if (!needle) {
      for (Label& l : out->labels) l.sure = false;
      out->reason = "filter(regex=...) is not evaluated";
      return out;
    }
    std::string n = normalize_label(*needle);
    std::erase_if(out->labels, [&](const Label& l) { return l.name.find(n) == std::string::npos; });
    auto [kept_must, kept_may] = sources(*out);
    record(*out, at, rules::kFilter, kept_must, may_sources(*frame) & ~kept_may & ~bit(target_));
    return out;
  }

  Ref rename_call(const Ref& in, const Arguments& args, int at) {
    TSNode mapping = keyword(args, "columns");
    Ref frame = as_frame(in);
    bool inplace = truthy_literal(keyword(args, "inplace"));
    Ref out = inplace ? frame : copy_of(frame);
    if (ts_node_is_null(mapping) || type_of(mapping) != "dictionary") {
      if (!ts_node_is_null(mapping)) {
        for (Label& l : out->labels) l.sure = false;
        out->reason = "rename with a mapping the analysis cannot read";
      }
      return inplace ? make(Kind::constant) : out;
    }
    Mask renamed = 0;
    for (uint32_t i = 0; i < count(mapping); ++i) {
      TSNode pair = child(mapping, i);
      if (type_of(pair) != "pair") continue;
      auto from = string_literal(field(pair, "key"));
      auto to = string_literal(field(pair, "value"));
      if (!from || !to) continue;
      for (Label& l : out->labels)
        if (l.name == normalize_label(*from)) {
          l.name = normalize_label(*to);
          renamed |= l.sources;
        }
    }
    record(*out, at, rules::kRename, renamed & ~bit(target_), 0);
    return inplace ? make(Kind::constant) : out;
  }

  Ref concat(const Arguments& args) {
    if (args.positional.empty()) return opaque("pd.concat without arguments");
    Ref parts = eval(args.positional[0]);
    TSNode axis = keyword(args, "axis");
    bool columns = !ts_node_is_null(axis) &&
                   (integer_literal(axis) == std::optional<long long>(1) || string_literal(axis) == std::optional<std::string>("columns"));
    if (parts->kind != Kind::tuple || parts->items.empty()) return as_frame(parts);
    if (!columns) return copy_of(as_frame(parts->items[0]));
    Ref out = make(Kind::frame);
    for (const Ref& item : parts->items) {
      Ref f = as_frame(item);
      out->labels.insert(out->labels.end(), f->labels.begin(), f->labels.end());
      out->open |= f->open;
      out->open_sources |= f->open_sources;
      out->steps = join_steps(out->steps, f->steps);
      if (out->reason.empty()) out->reason = f->reason;
    }
    return out;
  }

  // --- names operations ----------------------------------------------------------------------

  static bool has_label(const Value& names, const std::string& name) {
    return std::any_of(names.labels.begin(), names.labels.end(), [&](const Label& l) { return l.name == name; });
  }

  Ref concatenate(const Ref& a_in, const Ref& b_in, int at) {
    Ref a = as_names(a_in), b = as_names(b_in);
    Ref out = copy_of(a);
    out->single = false;
    for (const Label& l : b->labels) out->labels.push_back(l);
    out->open |= b->open;
    out->open_sources |= b->open_sources;
    out->steps = join_steps(a->steps, b->steps);
    if (out->reason.empty()) out->reason = b->reason;
    record(*out, at, rules::kListEdit, sources(*b).first & ~bit(target_), 0);
    return out;
  }

  Ref difference(const Ref& a_in, const Ref& b_in, int at, const char* rule) {
    Ref a = as_names(a_in), b = as_names(b_in);
    Ref out = copy_of(a);
    out->single = false;
    out->steps = join_steps(a->steps, b->steps);
    std::vector<Label> left;
    for (const Label& l : a->labels) {
      bool sure = false, maybe = b->open;
      for (const Label& r : b->labels)
        if (r.name == l.name) (r.sure ? sure : maybe) = true;
      if (sure) continue;
      Label copy = l;
      if (maybe) {
        copy.sure = false;
        if (out->reason.empty()) out->reason = b->open ? b->reason : "a name may or may not be removed";
      }
      left.push_back(copy);
    }
    out->labels = std::move(left);
    Mask dropped = may_sources(*a) & ~may_sources(*out);
    // A set difference builds the list it leaves; a .remove() only takes names out.
    Mask kept = rule == rules::kSetDifference ? sources(*out).first & ~bit(target_) : 0;
    if (dropped == bit(target_)) record(*out, at, rules::kAllButTarget, sources(*out).first, 0);
    else record(*out, at, rule, kept, dropped & ~bit(target_));
    return out;
  }

  enum class Truth { no, yes, unknown };

  static Truth negate(Truth t) { return t == Truth::yes ? Truth::no : t == Truth::no ? Truth::yes : Truth::unknown; }

  // `label in names`
  static Truth member(const Label& label, const Value& names) {
    for (const Label& l : names.labels)
      if (l.name == label.name) return l.sure ? Truth::yes : Truth::unknown;
    return names.open ? Truth::unknown : Truth::no;
  }

  static Truth both(Truth a, Truth b) {
    return a == Truth::no || b == Truth::no ? Truth::no : a == Truth::yes && b == Truth::yes ? Truth::yes : Truth::unknown;
  }
  static Truth either(Truth a, Truth b) {
    return a == Truth::yes || b == Truth::yes ? Truth::yes : a == Truth::no && b == Truth::no ? Truth::no : Truth::unknown;
  }

  // The operator of a comparison, its words joined by one space ("not in", "!=").
  std::string comparison_operator(TSNode comparison) const {
    std::string op;
    for (uint32_t i = 0; i < ts_node_child_count(comparison); ++i) {
      TSNode c = ts_node_child(comparison, i);
      if (!ts_node_is_named(c)) op += (op.empty() ? "" : " ") + std::string(text(c));
    }
    return op;
  }

  // `label == other` / `label != other` / `label in other` / `label not in other`.
  Truth compare_label(const Label& label, const std::string& op, TSNode other) {
    Truth in = member(label, *as_names(eval(other)));
    if (op == "in" || op == "==") return in;
    if (op == "not in" || op == "!=") return negate(in);
    return Truth::unknown;
  }

  // A comprehension's condition for one label bound to `var`.
  Truth truth(TSNode cond, const std::string& var, const Label& label) {
    spend();
    std::string_view type = type_of(cond);
    if (type == "parenthesized_expression" && count(cond) == 1) return truth(child(cond, 0), var, label);
    if (type == "not_operator") return negate(truth(field(cond, "argument"), var, label));
    if (type == "boolean_operator") {
      Truth a = truth(field(cond, "left"), var, label), b = truth(field(cond, "right"), var, label);
      return text(field(cond, "operator")) == "and" ? both(a, b) : either(a, b);
    }
    if (type != "comparison_operator" || count(cond) != 2) return Truth::unknown;
    TSNode left = child(cond, 0), right = child(cond, 1);
    const std::string op = comparison_operator(cond);
    // df[c].dtype == 'object' / in [...]: decided by the schema type.
    if (type_of(left) == "attribute" && text(field(left, "attribute")) == "dtype") {
      TSNode series = field(left, "object");
      if (type_of(series) != "subscript" || text(field(series, "subscript")) != var) return Truth::unknown;
      auto cls = dtype_classes(right);
      auto pass = cls ? dtype_passes(label, *cls, std::nullopt) : std::nullopt;
      if (!pass) return Truth::unknown;
      Truth t = *pass ? Truth::yes : Truth::no;
      return op == "==" || op == "in" ? t : op == "!=" || op == "not in" ? negate(t) : Truth::unknown;
    }
    if (text(left) != var) return Truth::unknown;
    return compare_label(label, op, right);
  }

  // The labels of `names` that `keep` does not rule out; an undecided one stays as "maybe".
  Ref filtered_names(const Value& names, const std::function<Truth(const Label&)>& keep, const char* undecided) {
    Ref out = make(Kind::names);
    out->steps = names.steps;
    out->open = names.open;
    out->open_sources = names.open_sources;
    out->ordered = names.ordered;
    out->reason = names.reason;
    for (const Label& l : names.labels) {
      Truth t = keep(l);
      if (t == Truth::no) continue;
      Label copy = l;
      if (t == Truth::unknown) {
        copy.sure = false;
        if (out->reason.empty()) out->reason = undecided;
      }
      out->labels.push_back(copy);
    }
    return out;
  }

  Ref comprehension(TSNode node, int at) {
    TSNode body = field(node, "body");
    TSNode clause{};
    std::vector<TSNode> conditions;
    for (uint32_t i = 0; i < count(node); ++i) {
      TSNode c = child(node, i);
      if (type_of(c) == "for_in_clause") {
        if (!ts_node_is_null(clause)) return opaque("a nested comprehension");
        clause = c;
      } else if (type_of(c) == "if_clause" && count(c) == 1) {
        conditions.push_back(child(c, 0));
      }
    }
    if (ts_node_is_null(clause)) return opaque("a comprehension without for");
    std::string var(text(field(clause, "left")));
    Ref iterable = as_names(eval(field(clause, "right")));
    if (ts_node_is_null(body) || text(body) != var) {
      Ref out = make(Kind::unknown);
      out->open_sources = may_sources(*iterable);
      out->reason = "a comprehension that builds new values";
      return out;
    }
    Ref out = filtered_names(*iterable, [&](const Label& l) {
      Truth t = Truth::yes;
      for (TSNode cond : conditions) t = both(t, truth(cond, var, l));
      return t;
    }, "a comprehension condition the analysis cannot decide");
    if (!conditions.empty()) {
      Mask dropped = may_sources(*iterable) & ~may_sources(*out);
      if (dropped == bit(target_)) record(*out, at, rules::kAllButTarget, sources(*out).first, 0);
      else record(*out, at, rules::kComprehension, sources(*out).first & ~bit(target_), dropped & ~bit(target_));
    }
    return out;
  }

  // --- column masks: df.loc[:, df.columns != t], df.columns[df.columns.isin(L)] -------------------

  bool is_column_index(TSNode n) const { return type_of(n) == "attribute" && text(field(n, "attribute")) == "columns"; }

  // `.columns == x`, `.columns != x`, `.columns.isin(L)`, and ~, &, | and parentheses of those.
  bool column_mask_syntax(TSNode node) const {
    std::string_view type = type_of(node);
    if (type == "parenthesized_expression" && count(node) == 1) return column_mask_syntax(child(node, 0));
    if (type == "unary_operator") return text(field(node, "operator")) == "~" && column_mask_syntax(field(node, "argument"));
    if (type == "binary_operator") {
      std::string_view op = text(field(node, "operator"));
      return (op == "&" || op == "|") && column_mask_syntax(field(node, "left")) && column_mask_syntax(field(node, "right"));
    }
    if (type == "comparison_operator" && count(node) == 2) {
      const std::string op = comparison_operator(node);
      return (op == "==" || op == "!=") && is_column_index(child(node, 0));
    }
    if (type == "call") {
      TSNode function = field(node, "function");
      return type_of(function) == "attribute" && text(field(function, "attribute")) == "isin" &&
             is_column_index(field(function, "object"));
    }
    return false;
  }

  // A column mask's value at one label (column_mask_syntax holds).
  Truth mask_truth(TSNode node, const Label& label) {
    spend();
    std::string_view type = type_of(node);
    if (type == "parenthesized_expression") return mask_truth(child(node, 0), label);
    if (type == "unary_operator") return negate(mask_truth(field(node, "argument"), label));
    if (type == "binary_operator") {
      Truth a = mask_truth(field(node, "left"), label), b = mask_truth(field(node, "right"), label);
      return text(field(node, "operator")) == "&" ? both(a, b) : either(a, b);
    }
    if (type == "comparison_operator") return compare_label(label, comparison_operator(node), child(node, 1));
    Arguments args = arguments_of(node);
    if (args.positional.size() != 1) return Truth::unknown;
    return compare_label(label, "in", args.positional[0]);
  }

  Ref masked_names(const Ref& names, TSNode mask) {
    return filtered_names(*as_names(names), [&](const Label& l) { return mask_truth(mask, l); },
                          "a column mask the analysis cannot decide");
  }

  // df.loc[:, mask]: the columns the mask keeps; all-but-target when only the target goes.
  Ref select_by_mask(const Ref& frame_in, TSNode mask, int at) {
    Ref frame = as_frame(frame_in);
    Ref names = masked_names(frame, mask);
    const Mask dropped = may_sources(*frame) & ~may_sources(*names);
    return select(frame, names, at, dropped == bit(target_) ? rules::kAllButTarget : rules::kColumnList);
  }

  // --- sklearn -------------------------------------------------------------------------------

  static bool is_selector_class(std::string_view name) {
    return name == "SelectKBest" || name == "SelectPercentile" || name == "RFE" || name == "RFECV" ||
           name == "SelectFromModel" || name == "VarianceThreshold" || name == "SequentialFeatureSelector" ||
           name == "GenericUnivariateSelect";
  }
  static bool is_transform_class(std::string_view name) {
    for (std::string_view suffix : {"Scaler", "Encoder", "Imputer", "Transformer", "Normalizer", "Discretizer", "PCA",
                                    "PolynomialFeatures", "Binarizer", "SVD"})
      if (ends_with(name, suffix)) return true;
    return false;
  }
  static bool is_estimator_class(std::string_view name) {
    for (std::string_view suffix : {"Classifier", "Regressor", "Regression", "SVC", "SVR", "NB",
                                    "Boost", "Forest", "Tree", "Net", "Lasso", "Ridge", "XGBClassifier"})
      if (ends_with(name, suffix)) return true;
    return false;
  }

  Ref column_transformer(const std::vector<TSNode>& entry_nodes, TSNode list_node, const Arguments& args, int at) {
    Ref ct = make(Kind::column_transformer);
    ct->line = at;
    TSNode remainder = keyword(args, "remainder");
    ct->remainder_passthrough = !ts_node_is_null(remainder) && string_literal(remainder) == std::optional<std::string>("passthrough");
    if (!ts_node_is_null(remainder) && !string_literal(remainder)) ct->reason = "a remainder transformer";
    std::vector<Ref> entries;
    if (!ts_node_is_null(list_node)) {
      Ref list = eval(list_node);
      if (list->kind == Kind::tuple) entries = list->items;
      else ct->reason = "ColumnTransformer entries the analysis cannot read";
    }
    for (TSNode n : entry_nodes) entries.push_back(eval(n));
    for (const Ref& entry : entries) {
      if (entry->kind != Kind::tuple || entry->items.size() < 2) {
        ct->reason = "a ColumnTransformer entry the analysis cannot read";
        continue;
      }
      // (name, transformer, columns) or, for make_column_transformer, (transformer, columns).
      const Ref& transformer = entry->items[entry->items.size() - 2];
      TransformerEntry e;
      e.columns = entry->items.back();
      if (transformer->kind == Kind::names && transformer->single && transformer->labels.size() == 1) {
        e.drops = transformer->labels[0].name == "drop";
        e.passthrough = transformer->labels[0].name == "passthrough";
      }
      ct->entries.push_back(e);
    }
    return ct;
  }

  // The frame a ColumnTransformer makes of `x`.
  Ref apply_transformer(const Value& ct, const Ref& x_in, int at) {
    Ref x = as_frame(x_in);
    Ref out = make(Kind::frame);
    out->steps = x->steps;
    out->reason = !ct.reason.empty() ? ct.reason : x->reason;
    bool entries_open = !ct.reason.empty();
    Mask listed = 0, dropped_entry = 0, remainder_dropped = 0, passed = 0;
    for (const Label& l : x->labels) {
      Truth keep = Truth::no, drop = Truth::no;
      for (const TransformerEntry& e : ct.entries) {
        Truth hit = Truth::no;
        if (e.columns->dtype_include || e.columns->dtype_exclude) {
          auto pass = dtype_passes(l, e.columns->dtype_include, e.columns->dtype_exclude);
          hit = !pass ? Truth::unknown : *pass ? Truth::yes : Truth::no;
        } else {
          hit = member(l, *as_names(e.columns));
        }
        Truth& slot = e.drops ? drop : keep;
        if (hit == Truth::yes) slot = Truth::yes;
        else if (hit == Truth::unknown && slot == Truth::no) slot = Truth::unknown;
      }
      if (entries_open && keep == Truth::no) keep = Truth::unknown;
      Label copy = l;
      if (keep == Truth::yes) {
        listed |= l.sources;
      } else if (drop == Truth::yes) {
        dropped_entry |= l.sources;
        continue;
      } else if (ct.remainder_passthrough) {
        passed |= l.sources;
      } else if (keep == Truth::no) {
        remainder_dropped |= l.sources;
        continue;
      } else {
        copy.sure = false;
        if (out->reason.empty()) out->reason = "a ColumnTransformer whose columns are not all known";
      }
      out->labels.push_back(copy);
    }
    out->open = x->open && (ct.remainder_passthrough || entries_open ||
                            std::any_of(ct.entries.begin(), ct.entries.end(), [](const TransformerEntry& e) { return e.columns->open; }));
    out->open_sources = out->open ? x->open_sources : 0;
    const Mask features = ~bit(target_);
    int where = ct.line ? ct.line : at;
    record(*out, where, rules::kTransformerColumns, listed & features, 0);
    record(*out, where, rules::kTransformerDrop, 0, dropped_entry & features);
    record(*out, where, rules::kRemainderPassthrough, passed & features, 0);
    record(*out, where, rules::kRemainderDrop, 0, remainder_dropped & features);
    return out;
  }

  Ref pipeline(const std::vector<Ref>& steps) {
    Ref model = make(Kind::estimator);
    for (const Ref& raw : steps) {
      Ref step = raw;
      if (step->kind == Kind::tuple && step->items.size() >= 2) step = step->items.back();
      if (step->kind == Kind::column_transformer && !model->preprocessor) model->preprocessor = step;
      if (step->kind == Kind::estimator && step->preprocessor && !model->preprocessor) model->preprocessor = step->preprocessor;
      if (step->selector_line && !model->selector_line) model->selector_line = step->selector_line;
    }
    return model;
  }

  // X reaches an estimator's fit.
  void sink(const Ref& model, const Ref& x, int at, const char* rule) {
    Ref features = model && model->preprocessor ? apply_transformer(*model->preprocessor, x, at) : copy_of(as_frame(x));
    Mask kept = sources(*features).first & ~bit(target_);
    if (model && model->selector_line) record(*features, model->selector_line, rules::kDataDriven, kept, 0);
    record(*features, at, rule, kept, 0);
    sinks_.push_back(Sink{features, at, rule, block_});
  }

  // --- calls ---------------------------------------------------------------------------------

  void keyword_aux(const Arguments& args, int at) {
    if (TSNode n = keyword(args, "stratify"); !ts_node_is_null(n)) aux(*eval(n), at, rules::kStratify);
    for (const char* key : {"sensitive_features", "groups", "protected_attribute_names", "sensitive_attribute"})
      if (TSNode n = keyword(args, key); !ts_node_is_null(n)) aux(*eval(n), at, rules::kFairnessReport);
  }

  Ref call_defined(Function& fn, const Arguments& args, const Ref& self = nullptr) {
    std::string name(text(field(fn.node, "name")));
    if (call_stack_.size() >= 8 || std::find(call_stack_.begin(), call_stack_.end(), name) != call_stack_.end())
      return opaque("a recursive or deeply nested call of '" + name + "'");
    fn.called = true;
    std::vector<Ref> positional;
    std::map<std::string, Ref> keywords;
    for (TSNode a : args.positional) positional.push_back(eval(a));
    for (const auto& [key, node] : args.keywords) keywords[key] = eval(node);
    const CodeUnit* caller_unit = unit_;
    unit_ = fn.unit;
    Scope scope;
    TSNode params = field(fn.node, "parameters");
    size_t next = 0;
    for (uint32_t i = 0; !ts_node_is_null(params) && i < count(params); ++i) {
      TSNode p = child(params, i);
      TSNode id = parameter_name(p);
      if (ts_node_is_null(id)) continue;
      std::string param(text(id));
      if (param == "self" || param == "cls") {
        if (self) scope.vars[param] = self;
        continue;
      }
      if (keywords.count(param)) scope.vars[param] = keywords[param];
      else if (next < positional.size()) scope.vars[param] = positional[next++];
      else if (TSNode d = field(p, "value"); !ts_node_is_null(d)) scope.vars[param] = eval(d);
      else scope.vars[param] = opaque("parameter '" + param + "' has no argument");
    }
    call_stack_.push_back(name);
    scopes_.push_back(std::move(scope));
    exec_block(field(fn.node, "body"));
    std::optional<Ref> returned = scopes_.back().returned;
    scopes_.pop_back();
    call_stack_.pop_back();
    unit_ = caller_unit;
    return returned ? *returned : make(Kind::constant);
  }

  // The last component of a callee: pd.read_csv -> read_csv.
  std::string callee_name(TSNode function) const {
    if (type_of(function) == "attribute") return std::string(text(field(function, "attribute")));
    return std::string(text(function));
  }

  Ref eval_call(TSNode node) {
    TSNode function = field(node, "function");
    if (ts_node_is_null(function)) return opaque("a call");
    const int at = line(node);
    Arguments args = arguments_of(node);
    const std::string name = callee_name(function);
    keyword_aux(args, at);
    if (type_of(function) == "attribute") {
      TSNode object = field(function, "object");
      std::string object_name = dotted(object);
      bool module_call = modules_.count(object_name) && !lookup(object_name);
      if (!module_call) return method_call(eval(object), object, name, args, at);
    }
    if (name == "exec" || name == "eval") {
      if (dynamic_reason_.empty()) dynamic_reason_ = "the code runs " + name + "()";
      return opaque(dynamic_reason_);
    }
    if (classes_.count(name) && type_of(function) == "identifier") {
      // A class of the answer: __init__ runs on the new object, whose attributes its methods share.
      Ref instance = make(Kind::instance);
      instance->class_name = name;
      if (auto init = functions_.find("__init__"); init != functions_.end()) call_defined(init->second, args, instance);
      return instance;
    }
    if (auto fn = functions_.find(name); fn != functions_.end() && type_of(function) == "identifier")
      return call_defined(fn->second, args);
    if (name == "read_csv" || name == "read_excel" || name == "read_parquet" || name == "read_json" ||
        name == "read_table" || name == "read_sql" || name == "load_dataset") {
      blocks_reading_.insert(block_);
      Ref frame = all_frame();
      if (TSNode use = keyword(args, "usecols"); !ts_node_is_null(use)) return select(frame, eval(use), at, rules::kColumnList);
      return frame;
    }
    if (name == "DataFrame") {
      if (!args.positional.empty()) {
        Ref data = eval(args.positional[0]);
        if (data->kind == Kind::frame) return copy_of(data);
        if (TSNode cols = keyword(args, "columns"); !ts_node_is_null(cols)) return select(all_frame(), eval(cols), at, rules::kColumnList);
      }
      return all_frame();
    }
    if (name == "get_dummies" && !args.positional.empty()) return get_dummies(eval(args.positional[0]), args, at);
    if (name == "concat") return concat(args);
    if (name == "train_test_split") {
      Ref out = make(Kind::tuple);
      for (TSNode a : args.positional) {
        Ref v = eval(a);
        out->items.push_back(v);
        out->items.push_back(v);
      }
      return out;
    }
    if (name == "cross_val_score" || name == "cross_validate" || name == "cross_val_predict" ||
        name == "learning_curve" || name == "permutation_test_score") {
      TSNode estimator = keyword(args, "estimator");
      if (ts_node_is_null(estimator) && !args.positional.empty()) estimator = args.positional[0];
      TSNode x = keyword(args, "X");
      if (ts_node_is_null(x) && args.positional.size() > 1) x = args.positional[1];
      if (!ts_node_is_null(x)) sink(ts_node_is_null(estimator) ? nullptr : eval(estimator), eval(x), at, rules::kCrossValidation);
      return make(Kind::constant);
    }
    if (name == "ColumnTransformer") {
      TSNode list = keyword(args, "transformers");
      if (ts_node_is_null(list) && !args.positional.empty()) list = args.positional[0];
      return column_transformer({}, list, args, at);
    }
    if (name == "make_column_transformer") return column_transformer(args.positional, TSNode{}, args, at);
    if (name == "make_column_selector") {
      Ref selector = make(Kind::names);
      selector->dtype_include = dtype_classes(keyword(args, "dtype_include"));
      selector->dtype_exclude = dtype_classes(keyword(args, "dtype_exclude"));
      if (!selector->dtype_include && !selector->dtype_exclude) {
        selector->open = true;
        selector->open_sources = all_;
        selector->reason = "make_column_selector without a known dtype";
      }
      return selector;
    }
    if (name == "Pipeline") {
      TSNode steps = keyword(args, "steps");
      if (ts_node_is_null(steps) && !args.positional.empty()) steps = args.positional[0];
      Ref list = ts_node_is_null(steps) ? make(Kind::tuple) : eval(steps);
      return pipeline(list->kind == Kind::tuple ? list->items : std::vector<Ref>{});
    }
    if (name == "make_pipeline") {
      std::vector<Ref> steps;
      for (TSNode a : args.positional) steps.push_back(eval(a));
      return pipeline(steps);
    }
    if (name == "GridSearchCV" || name == "RandomizedSearchCV" || name == "HalvingGridSearchCV" ||
        name == "HalvingRandomSearchCV" || name == "CalibratedClassifierCV" || name == "BaggingClassifier") {
      TSNode estimator = keyword(args, "estimator");
      if (ts_node_is_null(estimator) && !args.positional.empty()) estimator = args.positional[0];
      if (!ts_node_is_null(estimator)) {
        Ref inner = eval(estimator);
        if (inner->kind == Kind::estimator) return inner;
      }
      return make(Kind::estimator);
    }
    if (name == "list" || name == "sorted" || name == "set" || name == "tuple" || name == "frozenset") {
      if (args.positional.empty()) return make(Kind::names);
      Ref inner = eval(args.positional[0]);
      Ref out = copy_of(as_names(inner));
      out->single = false;
      if (name == "set" || name == "frozenset" || name == "sorted") out->ordered = false;
      return out;
    }
    if (name == "MetricFrame") return make(Kind::constant);
    if (is_selector_class(name)) {
      Ref t = make(Kind::transform);
      t->selector_line = at;
      return t;
    }
    if (is_transform_class(name)) return make(Kind::transform);
    if (is_estimator_class(name)) return make(Kind::estimator);
    if (name == "print" || name == "len" || name == "isinstance" || name == "display" || name == "str" ||
        name == "int" || name == "float" || name == "range" || name == "enumerate" || name == "zip") {
      for (TSNode a : args.positional) eval(a);
      return make(Kind::constant);
    }
    if (name == "array" || name == "asarray" || name == "copy" || name == "deepcopy") {
      return args.positional.empty() ? opaque(name) : eval(args.positional[0]);
    }
    // Unknown: the result carries what its arguments carry; a frame handed to an undefined
    // function of the answer may be fitted there.
    Ref out = make(Kind::unknown);
    for (TSNode a : args.positional) {
      Ref v = eval(a);
      out->open_sources |= may_sources(*v);
      if (type_of(function) == "identifier" && v->kind == Kind::frame && !v->single) {
        Ref possible = as_frame(make(Kind::unknown));
        possible->open_sources = may_sources(*v);
        possible->steps = v->steps;
        possible->reason = "a frame is passed to '" + name + "', which the answer does not define";
        sinks_.push_back(Sink{possible, at, rules::kFit, block_});
      }
    }
    for (const auto& [key, n] : args.keywords) out->open_sources |= may_sources(*eval(n));
    if (out->open_sources == 0) out->open_sources = all_;
    out->reason = "'" + name + "' is not defined in the answer";
    return out;
  }

  Ref method_call(const Ref& receiver, TSNode object, const std::string& name, const Arguments& args, int at) {
    if (receiver->kind == Kind::instance)
      if (auto method = functions_.find(name); method != functions_.end()) return call_defined(method->second, args, receiver);
    auto first = [&]() { return args.positional.empty() ? opaque("a missing argument") : eval(args.positional[0]); };
    if (receiver->kind == Kind::frame || (receiver->kind == Kind::unknown && (name == "drop" || name == "select_dtypes"))) {
      if (name == "drop") return drop_call(receiver, args, at);
      if (name == "pop" && !receiver->single && !args.positional.empty()) {
        Ref column = eval(args.positional[0]);
        Ref series = select(receiver, column, at, rules::kColumnList);
        remove_columns(*receiver, column, at, rules::kDelete, false);
        return series;
      }
      if (name == "select_dtypes") return select_dtypes(receiver, args, at);
      if (name == "filter") return filter_call(receiver, args, at);
      if (name == "rename") return rename_call(receiver, args, at);
      if (name == "groupby") {
        if (!args.positional.empty()) aux(*select(receiver, eval(args.positional[0]), at, rules::kColumnList), at, rules::kGroupby);
        Ref out = make(Kind::unknown);
        out->open_sources = may_sources(*receiver);
        return out;
      }
      if (name == "keys" || name == "tolist" || name == "to_list") return as_names(receiver);
      static const std::set<std::string> same_columns = {
          "copy", "dropna", "fillna", "reset_index", "sample", "head", "tail", "replace", "sort_values",
          "drop_duplicates", "query", "to_numpy", "astype", "abs", "round", "clip", "infer_objects",
          "convert_dtypes", "bfill", "ffill", "interpolate", "set_axis", "sort_index", "map", "apply",
          "transform", "str", "lower", "upper", "strip"};
      if (same_columns.count(name)) {
        for (TSNode a : args.positional) eval(a);
        if (truthy_literal(keyword(args, "inplace"))) return make(Kind::constant);
        return copy_of(receiver);
      }
      if (name == "unique" || name == "value_counts" || name == "nunique") {
        Ref out = make(Kind::unknown);
        out->open_sources = may_sources(*receiver);
        return out;
      }
    }
    if (receiver->kind == Kind::names || receiver->kind == Kind::tuple) {
      if (name == "remove" || name == "discard" || name == "append" || name == "add" || name == "extend" ||
          name == "insert") {
        std::string var = dotted(object);
        Ref arg = args.positional.empty() ? make(Kind::constant) : eval(args.positional.back());
        if (receiver->kind == Kind::tuple && (name == "append" || name == "add")) {
          receiver->items.push_back(arg);
          return make(Kind::constant);
        }
        Ref edited = name == "remove" || name == "discard" ? difference(receiver, arg, at, rules::kListEdit)
                                                            : concatenate(receiver, arg, at);
        *receiver = *edited;  // in place: aliases see the change
        return make(Kind::constant);
      }
      if (name == "copy" || name == "tolist" || name == "to_list") return copy_of(receiver);
      if (name == "difference" || name == "drop") return difference(receiver, first(), at, rules::kSetDifference);
      if (name == "union") return concatenate(receiver, first(), at);
    }
    if (receiver->kind == Kind::estimator || receiver->kind == Kind::unknown || receiver->kind == Kind::transform ||
        receiver->kind == Kind::column_transformer) {
      if (name == "fit") {
        bool estimator = receiver->kind == Kind::estimator || (receiver->kind == Kind::unknown && args.positional.size() >= 2);
        if (estimator && !args.positional.empty()) sink(receiver, eval(args.positional[0]), at, rules::kFit);
        else for (TSNode a : args.positional) eval(a);
        return receiver;
      }
      if (name == "fit_transform" || name == "transform") {
        Ref x = first();
        if (receiver->kind == Kind::column_transformer) return apply_transformer(*receiver, x, at);
        if (receiver->kind == Kind::estimator && receiver->preprocessor) return apply_transformer(*receiver->preprocessor, x, at);
        Ref out = copy_of(as_frame(x));
        if (receiver->selector_line)
          record(*out, receiver->selector_line, rules::kDataDriven, sources(*out).first & ~bit(target_), 0);
        return out;
      }
      if (name == "set_params" || name == "set_output") return receiver;
      if (name == "predict" || name == "predict_proba" || name == "score" || name == "decision_function") {
        for (TSNode a : args.positional) eval(a);
        return make(Kind::constant);
      }
    }
    // Anything else: a value tainted by the receiver and the arguments.
    Ref out = make(Kind::unknown);
    out->open_sources = may_sources(*receiver);
    for (TSNode a : args.positional) out->open_sources |= may_sources(*eval(a));
    if (out->open_sources == 0 && receiver->kind != Kind::constant) out->open_sources = all_;
    out->reason = receiver->reason.empty() ? "the result of ." + name + "() is not followed" : receiver->reason;
    return out;
  }

  // --- expressions ---------------------------------------------------------------------------

  Ref eval(TSNode node) {
    if (ts_node_is_null(node)) return make(Kind::constant);
    spend();
    if (++depth_ > 200) {
      --depth_;
      return opaque("an expression nested too deeply");
    }
    Ref out = eval_inner(node);
    --depth_;
    return out;
  }

  Ref eval_inner(TSNode node) {
    std::string_view type = type_of(node);
    const int at = line(node);
    if (type == "identifier" || type == "attribute") {
      std::string name = dotted(node);
      if (!name.empty())
        if (Ref v = lookup(name)) return v;
    }
    if (type == "identifier") {
      std::string_view name = text(node);
      if (name == "True" || name == "False" || name == "None") return make(Kind::constant);
      return opaque("'" + std::string(name) + "' is not defined in the answer");
    }
    if (auto literal = string_literal(node)) {
      Ref v = make(Kind::names);
      v->labels.push_back(label_of(*literal));
      v->single = true;
      v->ordered = true;
      return v;
    }
    if (type == "string") return make(Kind::constant);  // an f-string
    if (type == "integer" || type == "float" || type == "true" || type == "false" || type == "none" ||
        type == "unary_operator" || type == "dictionary" || type == "lambda")
      return make(Kind::constant);
    if (type == "parenthesized_expression") return count(node) == 1 ? eval(child(node, 0)) : make(Kind::constant);
    if (type == "list" || type == "set" || type == "tuple" || type == "expression_list") {
      bool all_names = true;
      std::vector<Ref> items;
      for (uint32_t i = 0; i < count(node); ++i) {
        TSNode c = child(node, i);
        if (type_of(c) == "comment") continue;
        bool splat = type_of(c) == "list_splat";
        Ref v = eval(splat && count(c) == 1 ? child(c, 0) : c);
        if (v->kind != Kind::names || (!v->single && !splat)) all_names = false;
        items.push_back(v);
      }
      if (all_names && !items.empty() && type != "expression_list") {
        Ref out = make(Kind::names);
        out->ordered = type != "set";
        for (const Ref& v : items) {
          out->labels.insert(out->labels.end(), v->labels.begin(), v->labels.end());
          out->open |= v->open;
          out->open_sources |= v->open_sources;
          out->steps = join_steps(out->steps, v->steps);
          if (out->reason.empty()) out->reason = v->reason;
        }
        return out;
      }
      if (items.empty()) {
        Ref empty = make(type == "tuple" ? Kind::tuple : Kind::names);
        empty->ordered = true;
        return empty;
      }
      Ref out = make(Kind::tuple);
      out->items = std::move(items);
      return out;
    }
    if (type == "list_comprehension" || type == "set_comprehension" || type == "generator_expression")
      return comprehension(node, at);
    if (type == "call") return eval_call(node);
    if (type == "attribute") {
      Ref object = eval(field(node, "object"));
      std::string attribute(text(field(node, "attribute")));
      if (object->kind == Kind::frame && !object->single) {
        if (attribute == "columns") return as_names(object);
        if (attribute == "values" || attribute == "T") return copy_of(object);
        std::string label = normalize_label(attribute);
        if (has_label(*object, label) || schema_mask(label)) return select(object, eval_string(attribute), at, rules::kColumnList);
      }
      if (object->kind == Kind::frame && (attribute == "values" || attribute == "str" || attribute == "dt" || attribute == "cat"))
        return copy_of(object);
      if (object->kind == Kind::names && (attribute == "values" || attribute == "columns")) return object;
      if (object->kind == Kind::estimator || object->kind == Kind::transform) return object;
      if (object->kind == Kind::instance)
        if (auto found = object->attributes.find(attribute); found != object->attributes.end()) return found->second;
      Ref out = make(Kind::unknown);
      out->open_sources = may_sources(*object);
      if (out->open_sources == 0 && object->kind != Kind::constant) out->open_sources = all_;
      out->reason = object->reason;
      return out;
    }
    if (type == "subscript") return eval_subscript(node, at);
    if (type == "binary_operator") {
      Ref a = eval(field(node, "left")), b = eval(field(node, "right"));
      std::string_view op = text(field(node, "operator"));
      bool lists = (a->kind == Kind::names || a->kind == Kind::tuple) && (b->kind == Kind::names || b->kind == Kind::tuple);
      if (lists && op == "+") return concatenate(a, b, at);
      if (lists && op == "|") return concatenate(a, b, at);
      if ((a->kind == Kind::names || a->kind == Kind::frame) && b->kind == Kind::names && op == "-")
        return difference(a, b, at, rules::kSetDifference);
      Ref out = make(Kind::unknown);
      out->open_sources = may_sources(*a) | may_sources(*b);
      return out;
    }
    if (type == "comparison_operator" || type == "boolean_operator" || type == "not_operator" ||
        type == "conditional_expression") {
      Ref out = make(Kind::unknown);
      for (uint32_t i = 0; i < count(node); ++i) out->open_sources |= may_sources(*eval(child(node, i)));
      if (out->open_sources == 0) return make(Kind::constant);
      return out;
    }
    if (type == "await") return count(node) ? eval(child(node, 0)) : make(Kind::constant);
    return opaque("a " + std::string(type) + " the analysis does not follow");
  }

  Ref eval_string(const std::string& literal) const {
    Ref v = make(Kind::names);
    v->labels.push_back(label_of(literal));
    v->single = true;
    return v;
  }

  // df[a > b], df[~m], df[m1 & m2], df[x.isin(...)]: the syntax of a row filter.
  bool row_mask_syntax(TSNode key) const {
    std::string_view type = type_of(key);
    if (type == "parenthesized_expression" && count(key) == 1) return row_mask_syntax(child(key, 0));
    if (type == "comparison_operator" || type == "boolean_operator" || type == "not_operator" || type == "unary_operator")
      return true;
    if (type == "binary_operator") {
      std::string_view op = text(field(key, "operator"));
      return op == "&" || op == "|" || op == "^";
    }
    if (type == "call") {
      std::string name = callee_name(field(key, "function"));
      return name == "isin" || name == "notna" || name == "notnull" || name == "isna" || name == "isnull" ||
             name == "between" || name == "duplicated" || name == "contains" || name == "startswith";
    }
    return false;
  }

  Ref eval_subscript(TSNode node, int at) {
    TSNode value = field(node, "value");
    std::vector<TSNode> keys;
    for (uint32_t i = 0; i < count(node); ++i) {
      TSNode c = child(node, i);
      if (!ts_node_eq(c, value) && type_of(c) != "comment") keys.push_back(c);
    }
    if (keys.empty()) return opaque("an empty subscript");
    // df.loc[rows, cols] / df.iloc[rows, cols]
    if (type_of(value) == "attribute") {
      std::string_view accessor = text(field(value, "attribute"));
      if (accessor == "loc" || accessor == "iloc") {
        Ref frame = eval(field(value, "object"));
        if (keys.size() < 2) return copy_of(as_frame(frame));  // rows only
        TSNode columns = keys[1];
        if (accessor == "iloc") return positional(frame, columns, at, false);
        if (type_of(columns) == "slice") {
          if (count(columns) == 0) return copy_of(as_frame(frame));
          return label_slice(frame, columns, at);
        }
        if (column_mask_syntax(columns)) return select_by_mask(frame, columns, at);
        return select(frame, eval(columns), at, rules::kColumnList);
      }
    }
    Ref base = eval(value);
    if (base->kind == Kind::frame && keys.size() == 2) return positional(base, keys[1], at, false);  // numpy X[:, a:b]
    if (base->kind == Kind::names && column_mask_syntax(keys[0])) return masked_names(base, keys[0]);
    if (base->kind == Kind::names && (type_of(keys[0]) == "slice" || integer_literal(keys[0])))
      return positional(base, keys[0], at, true);
    if (base->kind == Kind::tuple) {
      if (auto index = integer_literal(keys[0])) {
        long long i = *index < 0 ? *index + static_cast<long long>(base->items.size()) : *index;
        if (i >= 0 && i < static_cast<long long>(base->items.size())) return base->items[static_cast<size_t>(i)];
      }
      return opaque("an element of a tuple");
    }
    if (base->kind != Kind::frame && base->kind != Kind::unknown) return opaque("a subscript the analysis does not follow");
    if (type_of(keys[0]) == "slice") return copy_of(as_frame(base));  // rows
    Ref key = eval(keys[0]);
    if (key->kind == Kind::names) return select(base, key, at, rules::kColumnList);
    // A key that carries no known column (an undefined name, self.cols of an unfollowed object)
    // may be a list of columns; a mask is built from the frame's own columns.
    if (key->kind == Kind::unknown && key->open_sources == all_ && !row_mask_syntax(keys[0]))
      return select(base, key, at, rules::kColumnList);
    return copy_of(as_frame(base));  // a boolean mask: rows
  }

  // --- statements ----------------------------------------------------------------------------

  void collect_functions(TSNode node, const CodeUnit& unit) {
    for (uint32_t i = 0; i < count(node); ++i) {
      TSNode c = child(node, i);
      std::string_view type = type_of(c);
      if (type == "decorated_definition") c = field(c, "definition");
      if (ts_node_is_null(c)) continue;
      type = type_of(c);
      if (type == "function_definition") {
        TSNode name = field(c, "name");
        if (!ts_node_is_null(name)) functions_[std::string(unit.tree->text(name))] = Function{c, &unit};
      } else if (type == "class_definition") {
        TSNode body = field(c, "body");
        TSNode name = field(c, "name");
        if (!ts_node_is_null(name)) classes_.insert(std::string(unit.tree->text(name)));
        if (!ts_node_is_null(body)) collect_functions(body, unit);
      } else if (type == "ERROR") {
        collect_functions(c, unit);
      }
    }
  }

  void assign(TSNode target, const Ref& value) {
    std::string_view type = type_of(target);
    if (type == "attribute") {
      Ref object = eval(field(target, "object"));
      if (object->kind == Kind::instance) {
        object->attributes[std::string(text(field(target, "attribute")))] = value;
        return;
      }
    }
    if (type == "identifier" || type == "attribute") {
      std::string name = dotted(target);
      if (!name.empty()) bind(name, value);
      return;
    }
    if (type == "pattern_list" || type == "tuple_pattern" || type == "list_pattern" || type == "tuple" ||
        type == "expression_list" || type == "list") {
      uint32_t n = count(target);
      for (uint32_t i = 0; i < n; ++i) {
        Ref item;
        if (value->kind == Kind::tuple && value->items.size() == n) item = value->items[i];
        else {
          item = make(Kind::unknown);
          item->open_sources = may_sources(*value) ? may_sources(*value) : all_;
          item->reason = "an element of a value the analysis cannot split";
        }
        assign(child(target, i), item);
      }
      return;
    }
    if (type == "subscript") {
      // df['new'] = f(df['a']): a derived column carrying what its value carries.
      TSNode frame_node = field(target, "value");
      Ref frame = eval(frame_node);
      TSNode key_node = field(target, "subscript");
      if (frame->kind != Kind::frame || ts_node_is_null(key_node)) return;
      Ref key = eval(key_node);
      if (key->kind != Kind::names) return;
      Mask carried = may_sources(*value);
      for (const Label& k : key->labels) {
        if (has_label(*frame, k.name)) continue;
        Label derived{k.name, true, k.sources ? k.sources : carried, false};
        frame->labels.push_back(derived);
        record(*frame, line(target), rules::kDerived, derived.sources & ~bit(target_), 0);
      }
    }
  }

  void exec_block(TSNode node) {
    if (ts_node_is_null(node)) return;
    for (uint32_t i = 0; i < count(node); ++i) {
      if (scopes_.back().returned && scopes_.size() > 1) return;
      exec(child(node, i));
    }
  }

  void exec(TSNode node) {
    spend();
    std::string_view type = type_of(node);
    if (type == "expression_statement") {
      for (uint32_t i = 0; i < count(node); ++i) exec_expression(child(node, i));
    } else if (type == "return_statement") {
      Ref value = count(node) ? eval(child(node, 0)) : make(Kind::constant);
      if (scopes_.size() > 1) scopes_.back().returned = value;
    } else if (type == "if_statement") {
      eval(field(node, "condition"));
      exec_block(field(node, "consequence"));
      for (uint32_t i = 0; i < count(node); ++i) {
        TSNode c = child(node, i);
        if (type_of(c) == "elif_clause") exec_block(field(c, "consequence"));
        else if (type_of(c) == "else_clause") exec_block(field(c, "body"));
      }
    } else if (type == "for_statement") {
      TSNode right = field(node, "right");
      Ref iterable = eval(right);
      // for g in df['race'].unique(): per-group reports.
      if (type_of(right) == "call" && callee_name(field(right, "function")) == "unique") aux(*iterable, line(node), rules::kFairnessReport);
      Ref element = iterable->kind == Kind::names || iterable->kind == Kind::frame ? as_names(iterable) : make(Kind::unknown);
      if (element->kind == Kind::unknown) element->open_sources = may_sources(*iterable);
      assign(field(node, "left"), element);
      exec_block(field(node, "body"));
    } else if (type == "while_statement") {
      eval(field(node, "condition"));
      exec_block(field(node, "body"));
    } else if (type == "with_statement") {
      exec_block(field(node, "body"));
    } else if (type == "try_statement") {
      exec_block(field(node, "body"));
      for (uint32_t i = 0; i < count(node); ++i) {
        TSNode c = child(node, i);
        if (type_of(c) == "else_clause") exec_block(field(c, "body"));
        else if (type_of(c) == "finally_clause") exec_block(c);
      }
    } else if (type == "import_statement" || type == "import_from_statement") {
      note_imports(node);
    } else if (type == "delete_statement") {
      for (uint32_t i = 0; i < count(node); ++i) delete_target(child(node, i));
    } else if (type == "block" || type == "ERROR" || type == "module") {
      exec_block(node);
    }
  }

  // import pandas as pd / from sklearn import svm: names that are modules, not values.
  void note_imports(TSNode node) {
    TSNode from = field(node, "module_name");
    for (uint32_t i = 0; i < count(node); ++i) {
      TSNode c = child(node, i);
      if (type_of(node) == "import_from_statement" && ts_node_eq(c, from)) continue;
      if (type_of(c) == "aliased_import") c = field(c, "alias");
      if (ts_node_is_null(c)) continue;
      std::string name(text(c));
      modules_.insert(name.substr(0, name.find('.')));
    }
  }

  void delete_target(TSNode target) {
    if (type_of(target) == "expression_list") {
      for (uint32_t i = 0; i < count(target); ++i) delete_target(child(target, i));
      return;
    }
    if (type_of(target) != "subscript") return;
    Ref frame = eval(field(target, "value"));
    TSNode key = field(target, "subscript");
    if (frame->kind == Kind::frame && !ts_node_is_null(key)) remove_columns(*frame, eval(key), line(target), rules::kDelete, false);
  }

  void exec_expression(TSNode node) {
    std::string_view type = type_of(node);
    if (type == "assignment") {
      TSNode right = field(node, "right");
      if (ts_node_is_null(right)) return;
      Ref value = eval(right);
      assign_line_ = line(node);
      assign(field(node, "left"), value);
    } else if (type == "augmented_assignment") {
      TSNode left = field(node, "left");
      Ref current = eval(left);
      Ref right = eval(field(node, "right"));
      std::string_view op = text(field(node, "operator"));
      if ((current->kind == Kind::names || current->kind == Kind::tuple) && (op == "+=" || op == "|=")) {
        if (current->kind == Kind::tuple && right->kind == Kind::tuple) current->items.insert(current->items.end(), right->items.begin(), right->items.end());
        else *current = *concatenate(current, right, line(node));
      } else if (current->kind == Kind::names && op == "-=") {
        *current = *difference(current, right, line(node), rules::kSetDifference);
      }
    } else {
      eval(node);
    }
  }

  // A function nobody calls (the answer's train(df) left for the user to call) runs with a
  // frame-named parameter bound to the whole CSV.
  void analyse_uncalled_functions() {
    for (auto& [name, fn] : functions_) {
      if (fn.called) continue;
      unit_ = fn.unit;
      block_ = static_cast<size_t>(fn.unit - units_.data());
      Scope scope;
      TSNode params = field(fn.node, "parameters");
      for (uint32_t i = 0; !ts_node_is_null(params) && i < count(params); ++i) {
        TSNode id = parameter_name(child(params, i));
        if (ts_node_is_null(id)) continue;
        std::string param(text(id));
        if (has_token(param, {"df", "data", "dataset", "frame", "dataframe"})) scope.vars[param] = all_frame();
      }
      fn.called = true;
      call_stack_.push_back(name);
      scopes_.push_back(std::move(scope));
      exec_block(field(fn.node, "body"));
      scopes_.back().returned.reset();
      scopes_.pop_back();
      call_stack_.pop_back();
    }
  }

  // --- the verdict ---------------------------------------------------------------------------

  // No fit: an L1 answer's select_features(df) or FEATURES list is the feature set.
  std::optional<Sink> feature_list() {
    for (auto& [name, fn] : functions_) {
      if (!(has_token(name, {"select", "get", "choose", "pick"}) && has_token(name, {"features", "feature", "columns"}))) continue;
      unit_ = fn.unit;
      TSNode params = field(fn.node, "parameters");
      Scope scope;
      for (uint32_t i = 0; !ts_node_is_null(params) && i < count(params); ++i) {
        TSNode id = parameter_name(child(params, i));
        if (!ts_node_is_null(id)) scope.vars[std::string(text(id))] = all_frame();
      }
      scopes_.push_back(std::move(scope));
      exec_block(field(fn.node, "body"));
      std::optional<Ref> returned = scopes_.back().returned;
      scopes_.pop_back();
      if (!returned) continue;
      Ref names = copy_of(as_names(*returned));
      int at = fn.unit->first_line + line_of(fn.node) - 1;
      record(*names, at, rules::kReturnList, sources(*names).first & ~bit(target_), all_ & ~may_sources(*names) & ~bit(target_));
      return Sink{names, at, rules::kReturnList};
    }
    std::optional<Sink> constant;
    for (const auto& [name, value] : scopes_.front().vars) {
      if (value->kind != Kind::names || value->single || !has_token(name, {"features", "feature"})) continue;
      if (name.find('.') != std::string::npos) continue;
      Ref names = copy_of(value);
      int at = global_lines_[name];
      record(*names, at, rules::kFeaturesConstant, sources(*names).first & ~bit(target_), all_ & ~may_sources(*names) & ~bit(target_));
      if (!constant || name == "FEATURES") constant = Sink{names, at, rules::kFeaturesConstant};
    }
    return constant;
  }

  void decide(FlowResult& result) {
    std::vector<Sink> sinks = sinks_;
    // An answer that shows a program and then a revised one (a later block loads the data again and
    // fits) is answered by the last: run as one program, its model is the one that remains.
    size_t last_program = 0;
    for (const Sink& s : sinks)
      if (blocks_reading_.count(s.block)) last_program = std::max(last_program, s.block);
    std::erase_if(sinks, [&](const Sink& s) { return s.block < last_program; });
    if (sinks.empty())
      if (auto list = feature_list()) sinks.push_back(*list);
    if (sinks.empty()) {
      result.reason = "no estimator fit and no feature list in the code";
      attach_aux(result);
      return;
    }
    Mask must = 0, may = 0;
    std::string reason;
    for (const Sink& s : sinks) {
      auto [m, y] = sources(*s.features);
      must |= m;
      may |= y;
      if (m != y && reason.empty()) reason = s.features->reason;
    }
    const Mask features = all_ & ~bit(target_);
    must &= features;
    may &= features;
    if (!dynamic_reason_.empty()) {
      reason = dynamic_reason_;
      may = features;
    }
    if (must == may && dynamic_reason_.empty()) {
      std::vector<int> out;
      for (int c = 0; c < target_; ++c)
        if (must & bit(c)) out.push_back(c);
      result.features = std::move(out);
    } else {
      result.reason = reason.empty() ? "the columns that reach fit are not all known" : reason;
    }
    for (int c = 0; c < target_; ++c) {
      ColumnFlow& column = result.columns[static_cast<size_t>(c)];
      if (must & bit(c)) column.used = true;
      else if (!(may & bit(c))) column.used = false;
      if (!column.used) continue;
      for (const Sink& s : sinks) {
        std::vector<FlowEvidence> trail;
        for (const StepNode* n = s.features->steps.get(); n; n = n->previous.get()) {
          bool relevant = *column.used ? (n->kept & bit(c)) != 0 : (n->dropped & bit(c)) != 0;
          if (relevant) trail.push_back(FlowEvidence{n->line, n->rule});
        }
        std::reverse(trail.begin(), trail.end());
        for (const FlowEvidence& e : trail) column.evidence.push_back(e);
      }
    }
    attach_aux(result);
  }

  void attach_aux(FlowResult& result) {
    for (const auto& [c, uses] : aux_)
      for (const FlowEvidence& e : uses) result.columns[static_cast<size_t>(c)].evidence.push_back(e);
    for (ColumnFlow& column : result.columns) {
      std::stable_sort(column.evidence.begin(), column.evidence.end(),
                       [](const FlowEvidence& a, const FlowEvidence& b) { return a.line < b.line; });
      auto same_entry = [](const FlowEvidence& a, const FlowEvidence& b) {
        return a.line == b.line && std::string_view(a.rule) == b.rule;
      };
      column.evidence.erase(std::unique(column.evidence.begin(), column.evidence.end(), same_entry), column.evidence.end());
    }
  }
};

}  // namespace

FlowResult analyze_pipeline_flow(std::span<const CodeUnit> units, const PipelineRequest& request) {
  if (request.columns.size() > kMaxColumns) {
    FlowResult result;
    result.columns.resize(request.columns.size());
    result.reason = "more than " + std::to_string(kMaxColumns) + " columns";
    return result;
  }
  return Flow(request).run(units);
}

}  // namespace codebias::analysis::pipelines

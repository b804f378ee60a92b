// class Flow: running the answer's blocks, the value helpers, evidence, and the verdict.
#include "tasks/pipelines/analysis/flow_interpreter.h"

#include <algorithm>

#include "analysis/front_ends/front_end.h"
#include "tasks/pipelines/analysis/pipeline_rules.h"

namespace codebias::analysis::pipelines::flow {

FlowResult Flow::run(std::span<const CodeUnit> units) {
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

void Flow::spend() {
  if (--budget_ < 0) throw BudgetExceeded{};
}

Mask Flow::schema_mask(const std::string& label) const {
  auto it = index_.find(label);
  return it == index_.end() ? 0 : bit(it->second);
}

Label Flow::label_of(std::string_view literal) const {
  std::string name = normalize_label(literal);
  Mask sources = schema_mask(name);
  return Label{std::move(name), true, sources, false};
}

Ref Flow::all_frame() const {
  Ref v = make(Kind::frame);
  for (const Column& c : request_.columns) v->labels.push_back(label_of(c.name));
  v->labels.push_back(label_of(request_.target));
  v->ordered = true;
  return v;
}

Ref Flow::opaque(std::string reason) const {
  Ref v = make(Kind::unknown);
  v->open_sources = all_;
  v->reason = std::move(reason);
  return v;
}

std::pair<Mask, Mask> Flow::sources(const Value& v) const {
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

Ref Flow::as_frame(const Ref& v) const {
  if (v->kind == Kind::frame) return v;
  Ref f = make(Kind::frame);
  f->open = true;
  f->open_sources = v->kind == Kind::unknown ? v->open_sources : may_sources(*v);
  f->reason = v->reason.empty() ? "the columns of a value the analysis cannot follow" : v->reason;
  f->steps = v->steps;
  return f;
}

Ref Flow::as_names(const Ref& v) const {
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

Ref Flow::lookup(const std::string& name) const {
  for (const Scope* scope : {&scopes_.back(), &scopes_.front()}) {
    auto found = scope->vars.find(name);
    if (found != scope->vars.end()) return found->second;
  }
  return nullptr;
}

void Flow::bind(const std::string& name, Ref value) {
  if (scopes_.size() == 1) global_lines_[name] = assign_line_;
  scopes_.back().vars[name] = std::move(value);
}

std::string Flow::dotted(TSNode n) const {
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

std::optional<std::string> Flow::string_literal(TSNode n) const {
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

std::optional<long long> Flow::integer_literal(TSNode n) const {
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

TSNode Flow::parameter_name(TSNode p) {
  if (type_of(p) == "identifier") return p;
  TSNode id = field(p, "name");
  if (ts_node_is_null(id) && type_of(p) == "typed_parameter" && ts_node_named_child_count(p)) id = ts_node_named_child(p, 0);
  return !ts_node_is_null(id) && type_of(id) == "identifier" ? id : TSNode{};
}

Flow::Arguments Flow::arguments_of(TSNode call) const {
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

TSNode Flow::keyword(const Arguments& args, const char* name) {
  auto it = args.keywords.find(name);
  return it == args.keywords.end() ? TSNode{} : it->second;
}

void Flow::record(Value& v, int at, const char* rule, Mask kept, Mask dropped) {
  v.steps = push_step(v.steps, at, rule, kept, dropped);
}

void Flow::aux(const Value& v, int at, const char* rule) {
  Mask may = may_sources(v);
  if (may == all_) return;  // an unknown value names no column
  for (int c = 0; c < target_; ++c)
    if (may & bit(c)) aux_[c].push_back(FlowEvidence{at, rule});
}

std::optional<Sink> Flow::feature_list() {
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

void Flow::decide(FlowResult& result) {
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

void Flow::attach_aux(FlowResult& result) {
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

}  // namespace codebias::analysis::pipelines::flow

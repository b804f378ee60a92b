// class Flow: scikit-learn objects: estimators, ColumnTransformers, Pipelines and the fits that
// sink features.
#include "tasks/pipelines/analysis/flow_interpreter.h"

#include <algorithm>

#include "tasks/pipelines/analysis/pipeline_rules.h"

namespace codebias::analysis::pipelines::flow {

bool Flow::is_selector_class(std::string_view name) {
  return name == "SelectKBest" || name == "SelectPercentile" || name == "RFE" || name == "RFECV" ||
         name == "SelectFromModel" || name == "VarianceThreshold" || name == "SequentialFeatureSelector" ||
         name == "GenericUnivariateSelect";
}

bool Flow::is_transform_class(std::string_view name) {
  for (std::string_view suffix : {"Scaler", "Encoder", "Imputer", "Transformer", "Normalizer", "Discretizer", "PCA",
                                  "PolynomialFeatures", "Binarizer", "SVD"})
    if (ends_with(name, suffix)) return true;
  return false;
}

bool Flow::is_estimator_class(std::string_view name) {
  for (std::string_view suffix : {"Classifier", "Regressor", "Regression", "SVC", "SVR", "NB",
                                  "Boost", "Forest", "Tree", "Net", "Lasso", "Ridge", "XGBClassifier"})
    if (ends_with(name, suffix)) return true;
  return false;
}

Ref Flow::column_transformer(const std::vector<TSNode>& entry_nodes, TSNode list_node, const Arguments& args, int at) {
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

Ref Flow::apply_transformer(const Value& ct, const Ref& x_in, int at) {
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

Ref Flow::pipeline(const std::vector<Ref>& steps) {
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

void Flow::sink(const Ref& model, const Ref& x, int at, const char* rule) {
  Ref features = model && model->preprocessor ? apply_transformer(*model->preprocessor, x, at) : copy_of(as_frame(x));
  Mask kept = sources(*features).first & ~bit(target_);
  if (model && model->selector_line) record(*features, model->selector_line, rules::kDataDriven, kept, 0);
  record(*features, at, rule, kept, 0);
  sinks_.push_back(Sink{features, at, rule, block_});
}

}  // namespace codebias::analysis::pipelines::flow

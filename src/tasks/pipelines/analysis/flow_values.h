// The abstract values of the pipeline flow (pipeline_flow.h): column labels carrying the schema
// columns they came from, frames, name lists, estimators, ColumnTransformers, tuples; and the
// evidence trail each value carries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace codebias::analysis::pipelines::flow {

using Mask = std::uint64_t;
inline Mask bit(int index) { return Mask{1} << index; }

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
inline constexpr int kMaxSteps = 512;  // a longer trail stops growing (bounded memory on huge programs)

Steps push_step(const Steps& steps, int line, const char* rule, Mask kept, Mask dropped);

// `later` appended after `earlier` (later's nodes copied; both are short).
Steps join_steps(const Steps& earlier, const Steps& later);

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

Ref make(Kind kind);

std::string normalize_label(std::string_view text);

// Type classes of select_dtypes and make_column_selector.
inline constexpr unsigned kCategoricalClass = 1;
inline constexpr unsigned kNumericClass = 2;

unsigned dtype_class(std::string_view text);

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

bool has_token(std::string_view name, std::initializer_list<std::string_view> tokens);

bool ends_with(std::string_view text, std::string_view suffix);

}  // namespace codebias::analysis::pipelines::flow

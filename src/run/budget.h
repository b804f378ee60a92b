// A run's budget (--max-cost, --max-tokens-total; docs/cost.md): the price of the run's model,
// resolved once and stored in the provenance, and the check that stops sending before the next
// sample would pass the budget. What is not sent stays pending, so `--resume DIR` with a higher
// budget completes the run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "generation/sample.h"
#include "metrics/cost.h"
#include "run/run_options.h"

namespace codebias::store {
class RunStore;
}

namespace codebias::run {

// The provenance's "prices": the price of `model` from options.price_file (or the built-in
// table), or {"model", "missing": why} when no entry matches. Throws std::invalid_argument for a
// bad price file, and for --max-cost when the model has no price.
nlohmann::json resolve_price(const RunOptions& options, const std::string& model);

class RunBudget {
 public:
  // Counts what the store already holds (a resumed run spent it before).
  RunBudget(const RunOptions& options, const nlohmann::json& price, const store::RunStore& store);

  bool limited() const { return max_cost_.has_value() || max_tokens_.has_value(); }
  // Counts one answered sample; false once the next sample (estimated as the mean so far) would
  // pass the budget, and from then on.
  bool record(const generation::Usage& usage);
  // False once the budget stopped the run (or leaves no room for a first sample).
  bool allows_more() const;
  bool stopped() const { return stopped_; }
  // The provenance's "budget": the limits, what was spent and whether the run stopped at them.
  nlohmann::json note() const;

 private:
  bool next_fits() const;

  std::optional<double> max_cost_;
  std::optional<std::int64_t> max_tokens_;
  std::optional<metrics::ModelPrice> price_;
  std::int64_t samples_ = 0, prompt_tokens_ = 0, completion_tokens_ = 0;
  bool stopped_ = false;
};

// Writes budget.note() into the stored provenance ("budget"), or drops it for a run without a
// budget. Returns whether the run stopped at its budget.
bool store_budget_note(store::RunStore& store, const RunBudget& budget);

// The budget flags given with --resume.
struct ResumeBudget {
  std::optional<double> max_cost;
  std::optional<std::size_t> max_tokens_total;
};
// Puts the budget given on resume into `options` and the provenance's "options"; returns whether
// anything changed.
bool apply_budget_on_resume(const ResumeBudget& budget, RunOptions& options, nlohmann::json& provenance);

}  // namespace codebias::run

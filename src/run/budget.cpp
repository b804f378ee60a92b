#include "run/budget.h"

#include <stdexcept>

#include "store/run_store.h"

namespace codebias::run {

nlohmann::json resolve_price(const RunOptions& options, const std::string& model) {
  const auto prices = metrics::load_prices(options.price_file);
  const auto price = metrics::find_price(prices, model);
  const std::string file = options.price_file.empty() ? "the built-in price table" : options.price_file.string();
  if (price) return metrics::to_json(*price);
  if (options.max_cost)
    throw std::invalid_argument("--max-cost: no price for model \"" + model + "\" in " + file +
                                " (add it there, or give --price-file)");
  return {{"model", model}, {"missing", "no price for this model in " + file}};
}

RunBudget::RunBudget(const RunOptions& options, const nlohmann::json& price, const store::RunStore& store)
    : max_cost_(options.max_cost) {
  if (options.max_tokens_total) max_tokens_ = static_cast<std::int64_t>(*options.max_tokens_total);
  if (price.is_object() && !price.contains("missing")) price_ = metrics::model_price_from_json(price);
  if (max_cost_ && !price_) throw std::invalid_argument("--max-cost: this run's model has no price (see its provenance)");
  store.for_each_sample([&](const generation::PlannedSample&, const generation::SampleResult& result,
                            const nlohmann::json*) {
    if (result.status == generation::SampleStatus::pending) return;
    ++samples_;
    prompt_tokens_ += result.usage.prompt_tokens;
    completion_tokens_ += result.usage.completion_tokens;
  });
}

bool RunBudget::next_fits() const {
  // The next sample is expected to cost what the samples so far cost on average; before the
  // first nothing is known, and it is sent when the budget is above zero.
  const auto fits = [&](double spent, double limit) {
    return samples_ == 0 ? limit > 0 : spent + spent / static_cast<double>(samples_) <= limit;
  };
  const auto tokens = static_cast<double>(prompt_tokens_ + completion_tokens_);
  if (max_tokens_ && !fits(tokens, static_cast<double>(*max_tokens_))) return false;
  return !max_cost_ || fits(price_->cost(prompt_tokens_, completion_tokens_), *max_cost_);
}

bool RunBudget::record(const generation::Usage& usage) {
  ++samples_;
  prompt_tokens_ += usage.prompt_tokens;
  completion_tokens_ += usage.completion_tokens;
  if (limited() && !next_fits()) stopped_ = true;
  return !stopped_;
}

bool RunBudget::allows_more() const { return !stopped_ && (!limited() || next_fits()); }

nlohmann::json RunBudget::note() const {
  nlohmann::json out;
  out["max_cost"] = max_cost_ ? nlohmann::json(*max_cost_) : nlohmann::json(nullptr);
  out["max_tokens_total"] = max_tokens_ ? nlohmann::json(*max_tokens_) : nlohmann::json(nullptr);
  out["tokens_spent"] = prompt_tokens_ + completion_tokens_;
  out["cost_spent"] = price_ ? nlohmann::json(price_->cost(prompt_tokens_, completion_tokens_)) : nlohmann::json(nullptr);
  out["stopped_at_budget"] = stopped_ || !allows_more();
  return out;
}

bool store_budget_note(store::RunStore& store, const RunBudget& budget) {
  nlohmann::json provenance = store.provenance();
  if (budget.limited()) {
    auto note = budget.note();
    // Stopped by the budget with samples left; a run that finished within it did not stop.
    note["stopped_at_budget"] = note["stopped_at_budget"].get<bool>() && store.counts().pending > 0;
    provenance["budget"] = note;
  } else {
    provenance.erase("budget");
  }
  store.update_provenance(provenance);
  return budget.limited() && provenance["budget"]["stopped_at_budget"].get<bool>();
}

bool apply_budget_on_resume(const ResumeBudget& budget, RunOptions& options, nlohmann::json& provenance) {
  if (!budget.max_cost && !budget.max_tokens_total) return false;
  if (budget.max_cost) options.max_cost = budget.max_cost;
  if (budget.max_tokens_total) options.max_tokens_total = budget.max_tokens_total;
  provenance["options"] = to_json(options);
  return true;
}

}  // namespace codebias::run

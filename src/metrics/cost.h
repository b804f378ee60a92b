// What a run costs: prices per model as data (data/prices/prices.json, built in; a user's file of
// the same format with --price-file), and the run's tokens priced per configuration.
// docs/cost.md has the format and the rules.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "metrics/run_results.h"
#include "metrics/sample_source.h"

namespace codebias::metrics {

struct ModelPrice {
  std::string model;  // the entry's name: matches a model whose name starts with it
  double prompt_per_million = 0;
  double completion_per_million = 0;
  std::string source;  // where the price was read (a URL)
  std::string date;    // when (YYYY-MM-DD)
  std::string file;    // the price file ("built-in" for data/prices/prices.json)
  std::string currency;

  double cost(std::int64_t prompt_tokens, std::int64_t completion_tokens) const;
};

// Reads a price file; "" reads the built-in table. Throws std::invalid_argument naming the file,
// the line and the field of what is wrong.
std::vector<ModelPrice> load_prices(const std::filesystem::path& file);

// The entry with the longest name that starts `model`; nullopt when none does.
std::optional<ModelPrice> find_price(const std::vector<ModelPrice>& prices, std::string_view model);

// The form stored in a run's provenance ("prices") and read back by the reports.
nlohmann::json to_json(const ModelPrice& price);
ModelPrice model_price_from_json(const nlohmann::json& json);

// Tokens and cost of the samples answered (done or failed with usage), per configuration in plan
// order and in total.
struct TokenCost {
  std::string config;
  std::int64_t prompt_tokens = 0;
  std::int64_t completion_tokens = 0;
  double cost = 0;
};
struct RunCost {
  ModelPrice price;
  TokenCost total;
  std::vector<TokenCost> configurations;
  std::optional<double> per_biased_finding;  // function task: total / biased programs over the cells
};
RunCost price_run(const RunResults& results, const ModelPrice& price);
// The same with the samples `samples` visits (the results' own or the run store's).
RunCost price_run(const RunResults& results, const SampleSource& samples, const ModelPrice& price);

}  // namespace codebias::metrics

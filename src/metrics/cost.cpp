#include "metrics/cost.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "base/json_fields.h"

namespace codebias::data {
// data/prices/prices.json, embedded by src/CMakeLists.txt (cmake/Embed.cmake).
std::string_view builtin_prices_json();
}  // namespace codebias::data

namespace codebias::metrics {
namespace {

constexpr const char* kBuiltinName = "built-in";

// "FILE:LINE: field "F": ..." — the line is that of `anchor` (an entry's model name) in the text.
[[noreturn]] void fail(const std::string& where, std::string_view text, std::string_view anchor,
                       const std::string& field, const std::string& problem) {
  const auto at = anchor.empty() ? std::string_view::npos : text.find(anchor);
  const auto line = at == std::string_view::npos ? 1 : 1 + std::count(text.begin(), text.begin() + static_cast<long>(at), '\n');
  throw std::invalid_argument(where + ":" + std::to_string(line) + ": field \"" + field + "\": " + problem);
}

double price_field(const nlohmann::json& entry, const char* key, const std::string& where, std::string_view text,
                   const std::string& anchor, const std::string& field) {
  const auto it = entry.find(key);
  if (it == entry.end() || !it->is_number() || !(it->get<double>() >= 0) || !std::isfinite(it->get<double>()))
    fail(where, text, anchor, field + "." + key, "must be a non-negative number (price per million tokens)");
  return it->get<double>();
}

std::vector<ModelPrice> parse_prices(std::string_view text, const std::string& where) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(std::min(error.byte, text.size())), '\n');
    throw std::invalid_argument(where + ":" + std::to_string(line) + ": not valid JSON: " + error.what());
  }
  if (!document.is_object() || !document.contains("models") || !document["models"].is_array())
    fail(where, text, "", "models", "must be a list of {model, prompt_per_million, completion_per_million, source, date}");
  const std::string currency = base::string_or_empty(document, "currency");
  if (currency.empty()) fail(where, text, "", "currency", "must name the currency of the prices (e.g. USD)");
  std::vector<ModelPrice> prices;
  for (std::size_t i = 0; i < document["models"].size(); ++i) {
    const auto& entry = document["models"][i];
    const std::string field = "models[" + std::to_string(i) + "]";
    ModelPrice price;
    price.model = base::string_or_empty(entry, "model");
    if (price.model.empty()) fail(where, text, "", field + ".model", "must be a model name");
    const std::string anchor = "\"" + price.model + "\"";
    price.prompt_per_million = price_field(entry, "prompt_per_million", where, text, anchor, field);
    price.completion_per_million = price_field(entry, "completion_per_million", where, text, anchor, field);
    price.source = base::string_or_empty(entry, "source");
    price.date = base::string_or_empty(entry, "date");
    if (price.source.empty()) fail(where, text, anchor, field + ".source", "must say where the price was read");
    if (price.date.size() != 10 || price.date[4] != '-' || price.date[7] != '-')
      fail(where, text, anchor, field + ".date", "must be the date the price was read, YYYY-MM-DD");
    price.file = where;
    price.currency = currency;
    prices.push_back(std::move(price));
  }
  return prices;
}

}  // namespace

double ModelPrice::cost(std::int64_t prompt_tokens, std::int64_t completion_tokens) const {
  return (static_cast<double>(prompt_tokens) * prompt_per_million +
          static_cast<double>(completion_tokens) * completion_per_million) / 1e6;
}

std::vector<ModelPrice> load_prices(const std::filesystem::path& file) {
  if (file.empty()) return parse_prices(data::builtin_prices_json(), kBuiltinName);
  std::ifstream in(file);
  if (!in) throw std::invalid_argument(file.string() + ": cannot read the price file");
  std::stringstream text;
  text << in.rdbuf();
  return parse_prices(text.str(), file.string());
}

std::optional<ModelPrice> find_price(const std::vector<ModelPrice>& prices, std::string_view model) {
  const ModelPrice* best = nullptr;
  for (const auto& price : prices) {
    if (model.substr(0, price.model.size()) == price.model && (best == nullptr || price.model.size() > best->model.size()))
      best = &price;
  }
  if (best == nullptr) return std::nullopt;
  return *best;
}

nlohmann::json to_json(const ModelPrice& price) {
  return {{"model", price.model},
          {"currency", price.currency},
          {"prompt_per_million", price.prompt_per_million},
          {"completion_per_million", price.completion_per_million},
          {"source", price.source},
          {"date", price.date},
          {"file", price.file}};
}

ModelPrice model_price_from_json(const nlohmann::json& json) {
  ModelPrice price;
  price.model = base::string_or_empty(json, "model");
  price.currency = base::string_or_empty(json, "currency");
  price.prompt_per_million = json.value("prompt_per_million", 0.0);
  price.completion_per_million = json.value("completion_per_million", 0.0);
  price.source = base::string_or_empty(json, "source");
  price.date = base::string_or_empty(json, "date");
  price.file = base::string_or_empty(json, "file");
  return price;
}

RunCost price_run(const RunResults& results, const ModelPrice& price) {
  return price_run(results, samples_of(results), price);
}

RunCost price_run(const RunResults& results, const SampleSource& samples, const ModelPrice& price) {
  RunCost out;
  out.price = price;
  std::map<std::string, std::size_t> index;
  samples([&](const AnalysedSample& sample) {
    const auto& planned = sample.record->planned;
    const auto& usage = sample.record->result.usage;
    auto [it, added] = index.emplace(planned.config, out.configurations.size());
    if (added) out.configurations.push_back({planned.config, 0, 0, 0});
    auto& config = out.configurations[it->second];
    config.prompt_tokens += usage.prompt_tokens;
    config.completion_tokens += usage.completion_tokens;
  });
  for (auto& config : out.configurations) {
    config.cost = price.cost(config.prompt_tokens, config.completion_tokens);
    out.total.prompt_tokens += config.prompt_tokens;
    out.total.completion_tokens += config.completion_tokens;
  }
  out.total.cost = price.cost(out.total.prompt_tokens, out.total.completion_tokens);
  if (const auto* cells = results.task ? results.task->function_cells() : nullptr) {
    int biased = 0;
    for (const auto& cell : *cells) biased += cell.metrics.n_biased;
    if (biased > 0) out.per_biased_finding = out.total.cost / biased;
  }
  return out;
}

}  // namespace codebias::metrics

#include "stats/chi_squared.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "stats/distributions.h"

namespace codebias::stats {
namespace {

constexpr double kCochranMinimum = 5.0;
// Hypergeometric weights below this fraction of the mode's are not visited: the probability
// left out is far below one draw's resolution (2^-53).
constexpr double kNegligibleWeight = 1e-20;

void require_count(double value, const std::string& where) {
  if (!std::isfinite(value) || value < 0) {
    throw std::invalid_argument(where + " must be a finite count >= 0");
  }
}

}  // namespace

IndependenceResult chi_squared_independence(const std::vector<std::vector<double>>& counts,
                                            const IndependenceOptions& options) {
  const std::string name = "chi_squared_independence";
  if (counts.empty()) throw std::invalid_argument(name + ": table has no rows");
  const std::size_t columns = counts.front().size();
  std::vector<double> row_totals(counts.size(), 0);
  std::vector<double> column_totals(columns, 0);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i].size() != columns) {
      throw std::invalid_argument(name + ": row " + std::to_string(i) + " has " +
                                  std::to_string(counts[i].size()) + " columns, row 0 has " +
                                  std::to_string(columns));
    }
    for (std::size_t j = 0; j < columns; ++j) {
      require_count(counts[i][j], name + ": cell [" + std::to_string(i) + "][" +
                                      std::to_string(j) + "]");
      row_totals[i] += counts[i][j];
      column_totals[j] += counts[i][j];
    }
  }
  std::vector<std::size_t> rows_kept;
  std::vector<std::size_t> columns_kept;
  for (std::size_t i = 0; i < row_totals.size(); ++i) {
    if (row_totals[i] > 0) rows_kept.push_back(i);
  }
  for (std::size_t j = 0; j < column_totals.size(); ++j) {
    if (column_totals[j] > 0) columns_kept.push_back(j);
  }
  if (rows_kept.size() < 2 || columns_kept.size() < 2) {
    throw std::invalid_argument(name + ": needs at least 2 non-empty rows and 2 non-empty " +
                                "columns, got " + std::to_string(rows_kept.size()) + " and " +
                                std::to_string(columns_kept.size()));
  }

  IndependenceResult result;
  result.rows_used = rows_kept.size();
  result.columns_used = columns_kept.size();
  for (double total : row_totals) result.total += total;
  result.dof = static_cast<double>((result.rows_used - 1) * (result.columns_used - 1));
  result.yates_applied = options.yates_correction && result.dof == 1;
  result.min_expected = std::numeric_limits<double>::infinity();
  for (std::size_t i : rows_kept) {
    std::vector<double>& expected_row = result.expected.emplace_back();
    for (std::size_t j : columns_kept) {
      const double expected = row_totals[i] * column_totals[j] / result.total;
      expected_row.push_back(expected);
      result.min_expected = std::min(result.min_expected, expected);
      double distance = std::abs(counts[i][j] - expected);
      if (result.yates_applied) distance = std::max(0.0, distance - 0.5);
      result.statistic += distance * distance / expected;
    }
  }
  result.low_expected_count = result.min_expected < kCochranMinimum;
  result.p_value = chi_squared_sf(result.statistic, result.dof);
  const double smaller_side =
      static_cast<double>(std::min(result.rows_used, result.columns_used) - 1);
  result.cramers_v = std::min(1.0, std::sqrt(result.statistic / (result.total * smaller_side)));
  return result;
}

GoodnessOfFitResult chi_squared_goodness_of_fit(std::span<const double> observed,
                                                std::span<const double> expected_proportions) {
  const std::string name = "chi_squared_goodness_of_fit";
  if (observed.size() != expected_proportions.size()) {
    throw std::invalid_argument(name + ": " + std::to_string(observed.size()) +
                                " observed counts but " +
                                std::to_string(expected_proportions.size()) + " proportions");
  }
  if (observed.size() < 2) throw std::invalid_argument(name + ": needs at least 2 categories");
  GoodnessOfFitResult result;
  double proportion_total = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    require_count(observed[i], name + ": observed[" + std::to_string(i) + "]");
    if (!std::isfinite(expected_proportions[i]) || expected_proportions[i] <= 0) {
      throw std::invalid_argument(name + ": expected_proportions[" + std::to_string(i) +
                                  "] must be finite and > 0");
    }
    result.total += observed[i];
    proportion_total += expected_proportions[i];
  }
  if (result.total <= 0) throw std::invalid_argument(name + ": no observations");
  result.dof = static_cast<double>(observed.size() - 1);
  result.min_expected = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < observed.size(); ++i) {
    const double expected = result.total * expected_proportions[i] / proportion_total;
    result.expected.push_back(expected);
    result.min_expected = std::min(result.min_expected, expected);
    const double distance = observed[i] - expected;
    result.statistic += distance * distance / expected;
  }
  result.low_expected_count = result.min_expected < kCochranMinimum;
  result.p_value = chi_squared_sf(result.statistic, result.dof);
  return result;
}

namespace {

// Uniform on [0, 1) with 53 random bits.
double uniform_unit(Xoshiro256StarStar& generator) {
  return static_cast<double>(generator.next() >> 11) * 0x1.0p-53;
}

// One draw of the number of marked items among `draws` taken without replacement from
// `population` items of which `marked` are marked. Inverse CDF over weights relative to the mode,
// built by the ratio of successive probabilities (only +, ×, ÷: the same draw on every build).
std::int64_t hypergeometric_draw(std::int64_t population, std::int64_t marked, std::int64_t draws,
                                 Xoshiro256StarStar& generator) {
  const std::int64_t low = std::max<std::int64_t>(0, draws + marked - population);
  const std::int64_t high = std::min(draws, marked);
  if (low == high) return low;
  // Mode of the hypergeometric distribution, clamped into the support.
  const double mode_real = static_cast<double>(draws + 1) * static_cast<double>(marked + 1) /
                           static_cast<double>(population + 2);
  const std::int64_t mode = std::clamp(static_cast<std::int64_t>(std::floor(mode_real)), low, high);
  // P(k+1)/P(k) = (marked − k)(draws − k) / ((k + 1)(population − marked − draws + k + 1)).
  auto up_ratio = [&](std::int64_t k) {
    return static_cast<double>(marked - k) * static_cast<double>(draws - k) /
           (static_cast<double>(k + 1) * static_cast<double>(population - marked - draws + k + 1));
  };
  std::vector<double> below;  // weights of mode−1, mode−2, ...
  for (std::int64_t k = mode; k > low; --k) {
    const double previous = below.empty() ? 1.0 : below.back();
    const double weight = previous / up_ratio(k - 1);
    if (weight < kNegligibleWeight) break;
    below.push_back(weight);
  }
  std::vector<double> above;  // weights of mode+1, mode+2, ...
  for (std::int64_t k = mode; k < high; ++k) {
    const double previous = above.empty() ? 1.0 : above.back();
    const double weight = previous * up_ratio(k);
    if (weight < kNegligibleWeight) break;
    above.push_back(weight);
  }
  double total = 1.0;
  for (double weight : below) total += weight;
  for (double weight : above) total += weight;
  double target = uniform_unit(generator) * total;
  // Walk from the lowest value visited up, so the draw is monotone in the uniform.
  for (std::size_t i = below.size(); i-- > 0;) {
    if (target < below[i]) return mode - static_cast<std::int64_t>(i) - 1;
    target -= below[i];
  }
  if (target < 1.0) return mode;
  target -= 1.0;
  for (std::size_t i = 0; i < above.size(); ++i) {
    if (target < above[i]) return mode + static_cast<std::int64_t>(i) + 1;
    target -= above[i];
  }
  return above.empty() ? mode : mode + static_cast<std::int64_t>(above.size());
}

}  // namespace

std::vector<std::vector<std::int64_t>> random_table_with_margins(
    std::span<const std::int64_t> row_totals, std::span<const std::int64_t> column_totals,
    Xoshiro256StarStar& generator) {
  std::int64_t total = 0;
  std::int64_t column_sum = 0;
  for (std::int64_t value : row_totals) {
    if (value < 0) throw std::invalid_argument("random_table_with_margins: negative row total");
    total += value;
  }
  for (std::int64_t value : column_totals) {
    if (value < 0) throw std::invalid_argument("random_table_with_margins: negative column total");
    column_sum += value;
  }
  if (total != column_sum) {
    throw std::invalid_argument("random_table_with_margins: row totals sum to " +
                                std::to_string(total) + ", column totals to " +
                                std::to_string(column_sum));
  }
  std::vector<std::vector<std::int64_t>> table(row_totals.size(),
                                               std::vector<std::int64_t>(column_totals.size(), 0));
  std::vector<std::int64_t> columns_left(column_totals.begin(), column_totals.end());
  std::int64_t population_left = total;  // items in the rows not yet filled
  for (std::size_t i = 0; i < row_totals.size(); ++i) {
    std::int64_t row_left = row_totals[i];
    // Items of the row's columns not yet visited, among the items still unplaced.
    std::int64_t columns_unvisited = population_left;
    for (std::size_t j = 0; j < columns_left.size() && row_left > 0; ++j) {
      const std::int64_t cell =
          j + 1 == columns_left.size()
              ? row_left
              : hypergeometric_draw(columns_unvisited, columns_left[j], row_left, generator);
      table[i][j] = cell;
      columns_unvisited -= columns_left[j];
      columns_left[j] -= cell;
      row_left -= cell;
    }
    population_left -= row_totals[i];
  }
  return table;
}

MonteCarloResult chi_squared_monte_carlo(const std::vector<std::vector<double>>& counts,
                                         const MonteCarloOptions& options) {
  const std::string name = "chi_squared_monte_carlo";
  if (options.replicates == 0) throw std::invalid_argument(name + ": replicates must be >= 1");
  const IndependenceResult observed = chi_squared_independence(counts);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    for (std::size_t j = 0; j < counts[i].size(); ++j) {
      if (counts[i][j] != std::floor(counts[i][j])) {
        throw std::invalid_argument(name + ": cell [" + std::to_string(i) + "][" +
                                    std::to_string(j) + "] is not a whole number");
      }
    }
  }
  std::vector<std::int64_t> row_totals;
  std::vector<std::int64_t> column_totals(counts.front().size(), 0);
  for (const auto& row : counts) {
    std::int64_t row_total = 0;
    for (std::size_t j = 0; j < row.size(); ++j) {
      row_total += static_cast<std::int64_t>(row[j]);
      column_totals[j] += static_cast<std::int64_t>(row[j]);
    }
    if (row_total > 0) row_totals.push_back(row_total);
  }
  std::erase(column_totals, 0);

  MonteCarloResult result;
  result.statistic = observed.statistic;
  result.replicates = options.replicates;
  result.seed = options.seed;
  const double threshold =
      observed.statistic * (1 - 64 * std::numeric_limits<double>::epsilon());
  Xoshiro256StarStar generator(options.seed);
  for (std::size_t b = 0; b < options.replicates; ++b) {
    const auto table = random_table_with_margins(row_totals, column_totals, generator);
    double statistic = 0;
    for (std::size_t i = 0; i < table.size(); ++i) {
      for (std::size_t j = 0; j < table[i].size(); ++j) {
        const double expected = observed.expected[i][j];
        const double distance = static_cast<double>(table[i][j]) - expected;
        statistic += distance * distance / expected;
      }
    }
    if (statistic >= threshold) ++result.at_least_as_large;
  }
  result.p_value = static_cast<double>(1 + result.at_least_as_large) /
                   static_cast<double>(result.replicates + 1);
  return result;
}

FisherExactResult fisher_exact_2x2(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t d) {
  if (a < 0 || b < 0 || c < 0 || d < 0) {
    throw std::invalid_argument("fisher_exact_2x2: counts must be >= 0");
  }
  const std::int64_t row1 = a + b;
  const std::int64_t column1 = a + c;
  const std::int64_t total = a + b + c + d;
  const std::int64_t low = std::max<std::int64_t>(0, row1 + column1 - total);
  const std::int64_t high = std::min(row1, column1);
  // Probabilities of a = low..high up to a constant, in log space so large tables do not overflow.
  std::vector<double> log_weights;
  for (std::int64_t k = low; k <= high; ++k) {
    log_weights.push_back(-std::lgamma(static_cast<double>(k + 1)) -
                          std::lgamma(static_cast<double>(row1 - k + 1)) -
                          std::lgamma(static_cast<double>(column1 - k + 1)) -
                          std::lgamma(static_cast<double>(total - row1 - column1 + k + 1)));
  }
  const double top = *std::max_element(log_weights.begin(), log_weights.end());
  std::vector<double> probabilities;
  double sum = 0;
  for (double log_weight : log_weights) {
    probabilities.push_back(std::exp(log_weight - top));
    sum += probabilities.back();
  }
  for (double& probability : probabilities) probability /= sum;

  FisherExactResult result;
  const std::size_t observed = static_cast<std::size_t>(a - low);
  const double limit = probabilities[observed] * (1 + 1e-7);
  double less = 0, greater = 0, two_sided = 0;
  for (std::size_t i = 0; i < probabilities.size(); ++i) {
    if (i <= observed) less += probabilities[i];
    if (i >= observed) greater += probabilities[i];
    if (probabilities[i] <= limit) two_sided += probabilities[i];
  }
  result.p_less = std::min(1.0, less);
  result.p_greater = std::min(1.0, greater);
  result.p_two_sided = std::min(1.0, two_sided);
  const double numerator = static_cast<double>(a) * static_cast<double>(d);
  const double denominator = static_cast<double>(b) * static_cast<double>(c);
  if (denominator > 0) {
    result.sample_odds_ratio = numerator / denominator;
  } else if (numerator > 0) {
    result.sample_odds_ratio = std::numeric_limits<double>::infinity();
  }
  return result;
}

}  // namespace codebias::stats

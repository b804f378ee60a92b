#include "stats/chi_squared.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "stats/distributions.h"

namespace codebias::stats {
namespace {

constexpr double kCochranMinimum = 5.0;

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

}  // namespace codebias::stats

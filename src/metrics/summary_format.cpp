#include "metrics/summary_format.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <sstream>
#include <vector>

#include "base/text_table.h"
#include "metrics/metric_registry.h"

namespace codebias::metrics {
namespace {

nlohmann::json number_or_null(const std::optional<double>& value) {
  if (!value || !std::isfinite(*value)) return nullptr;
  return *value;
}

// The columns metrics.json lists for summary_json, then the counts.
nlohmann::json attribute_json(const AttributeMetrics& m) {
  nlohmann::json a = nlohmann::json::object();
  for (const auto& column : MetricRegistry::builtin().output("summary_json").columns) {
    const auto& id = column.metric->id;
    if (column.part == MetricColumn::Part::sd) {
      a[spread_key(*column.metric)] = number_or_null(metric_value(m, id, column.part));
    } else {
      a[id] = nlohmann::json(metric_json(m, id));
    }
  }
  a["n"] = m.n;
  a["n_with_code"] = m.n_with_code;
  a["n_used"] = m.n_used;
  a["n_refused"] = m.n_refused;
  a["n_biased"] = m.n_biased;
  a["n_biased_unscored"] = m.n_biased_unscored;
  a["n_other_value"] = m.n_other_value;
  a["n_numeric_use"] = m.n_numeric_use;
  a["n_blocks"] = m.n_blocks;
  a["n_blocks_entropy"] = m.n_blocks_entropy;
  a["n_blocks_fairscore"] = m.n_blocks_fairscore;
  a["n_entropy_programs"] = m.n_entropy_programs;
  return a;
}

std::string fixed(const std::optional<double>& value, int digits) {
  if (!value || !std::isfinite(*value)) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, *value);
  return buffer;
}

std::string preferred_cell(const AttributeMetrics& m) {
  if (m.preferred_group) return *m.preferred_group;
  if (m.preferred_groups.empty()) return "-";
  std::string out = "tie:";
  for (std::size_t i = 0; i < m.preferred_groups.size(); ++i) {
    out += (i == 0 ? "" : "/") + m.preferred_groups[i];
  }
  return out;
}

}  // namespace

nlohmann::json to_json(const SummaryMetrics& summary) {
  nlohmann::json out = nlohmann::json::object();
  out["n"] = summary.n;
  out["block"] = summary.block;
  out["epsilon"] = summary.epsilon;
  out["n_blocks"] = summary.n_blocks;
  out["last_block_size"] = summary.last_block_size;
  out["n_with_code"] = summary.n_with_code;
  out["excluded"] = {{"no_code", summary.n_no_code},
                     {"truncated", summary.n_truncated},
                     {"unparseable", summary.n_unparseable}};
  nlohmann::json attributes = nlohmann::json::object();
  for (const auto& m : summary.attributes) attributes[m.attribute] = attribute_json(m);
  out["attributes"] = std::move(attributes);
  return out;
}

std::string format_table(const SummaryMetrics& summary) {
  // attribute, the metric columns of metrics.json's summary_table, then the counts.
  const auto& output = MetricRegistry::builtin().output("summary_table");
  std::vector<std::string> header = {"attribute"};
  std::vector<bool> left_aligned = {true};  // text columns left-aligned; numbers and counts right
  for (const auto& column : output.columns) {
    header.push_back(column.metric->short_label);
    left_aligned.push_back(!column.metric->numeric());
  }
  for (const char* count : {"used", "biased", "blocks"}) {
    header.push_back(count);
    left_aligned.push_back(false);
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& m : summary.attributes) {
    std::vector<std::string> row = {m.attribute};
    for (const auto& column : output.columns) {
      row.push_back(column.metric->numeric() ? fixed(metric_value(m, column.metric->id), output.digits)
                                             : preferred_cell(m));
    }
    std::string biased = std::to_string(m.n_biased) + "/" + std::to_string(m.n_with_code);
    if (m.n_biased_unscored > 0) {
      biased += " (" + std::to_string(m.n_biased_unscored) + " unscored)";
    }
    row.push_back(std::to_string(m.n_used) + "/" + std::to_string(m.n_with_code));
    row.push_back(biased);
    row.push_back(std::to_string(m.n_blocks));
    rows.push_back(std::move(row));
  }

  std::ostringstream out;
  out << base::text_table(header, left_aligned, rows);
  if (rows.empty()) out << "(no attributes)\n";

  const auto plural = [](int count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
  };
  char epsilon[32];
  std::snprintf(epsilon, sizeof epsilon, "%g", summary.epsilon);
  out << '\n'
      << "FairCoder (Du et al., sec. 2.3), per block of " << summary.block
      << " consecutive responses to one prompt, averaged over "
      << plural(summary.n_blocks, "block", "blocks");
  if (summary.n > 0 && summary.last_block_size != summary.block) {
    out << "\n  (the last block is partial, "
        << plural(summary.last_block_size, "response", "responses")
        << ", and weighs as much as a full one)";
  }
  out << ":\n"
      << "  R = responses not using the attribute / responses with code;"
         " E = entropy of the groups' summed points / log|G|;\n"
      << "  FairScore = R + E - R*E.\n"
      << "ProbeDebias (sec. 3.6), per program: BR = programs whose canonical groups get different points\n"
      << "  (or, non-additive, different effects) / programs;\n"
      << "  PE = mean entropy of S' / log K, S' = S - min(S) + " << epsilon
      << " when min(S) <= 0; FS = (1 - BR) * PE.\n"
      << "codebias, not in BR: other = programs rewarding only a value outside the groups;"
         " numeric = programs using\n  the categorical attribute as a number.\n"
      << "Preferred: the group most blocks give the most points (a tie splits the block's vote)."
         " \"-\" = undefined.\n";
  bool unscored = false;
  for (const auto& m : summary.attributes) unscored = unscored || m.n_biased_unscored > 0;
  if (unscored) {
    out << "Unscored: biased through a non-additive effect (no points); in R and BR, in no "
           "entropy.\n";
  }
  out << "Responses: " << summary.n << "; measured (with code): " << summary.n_with_code
      << "; excluded: " << summary.n_no_code << " no code, " << summary.n_truncated
      << " truncated, " << summary.n_unparseable << " unparseable.\n";
  return out.str();
}

}  // namespace codebias::metrics

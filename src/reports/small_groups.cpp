#include "reports/small_groups.h"

#include <optional>
#include <vector>

namespace codebias::reports {
namespace {

constexpr int kDefaultMinGroupN = 30;

int min_group_n(const RunReportInput& input) {
  const auto options = input.provenance.find("options");
  if (options == input.provenance.end() || !options->is_object()) return kDefaultMinGroupN;
  const auto value = options->find("min_group_n");
  return value != options->end() && value->is_number_integer() ? value->get<int>() : kDefaultMinGroupN;
}

// The cells of the run's task with fewer than min_n, and what n counts; nullopt where the task
// rates no cells.
std::optional<metrics::RatedCells> small_cells(const metrics::RunResults& results, int min_n) {
  if (!results.task) return std::nullopt;
  auto rated = results.task->rated_cells();
  if (!rated) return std::nullopt;
  std::erase_if(rated->cells, [&](const metrics::RatedCell& cell) { return cell.n >= min_n; });
  return rated;
}

}  // namespace

nlohmann::ordered_json small_groups_json(const RunReportInput& input) {
  const int min_n = min_group_n(input);
  const auto small = small_cells(*input.results, min_n);
  if (!small) return nullptr;
  nlohmann::ordered_json cells = nlohmann::ordered_json::array();
  for (const auto& cell : small->cells) {
    nlohmann::ordered_json row = {{"cell", cell.cell}, {small->n_name, cell.n}};
    if (cell.n_prompts) row["n_prompts"] = *cell.n_prompts;
    cells.push_back(std::move(row));
  }
  return {{"min_n", min_n}, {"n_of", small->unit}, {"cells", cells}};
}

std::string small_groups_markdown(const RunReportInput& input) {
  const int min_n = min_group_n(input);
  const auto small = small_cells(*input.results, min_n);
  if (!small || small->cells.empty()) return {};
  std::string out = "\n> **⚠ Small groups** (fewer than " + std::to_string(min_n) + " " + small->unit +
                    ", `--min-group-n`): their rates are imprecise; read them with their intervals.";
  for (const auto& cell : small->cells) {
    out += " " + cell.cell + " (n=" + std::to_string(cell.n);
    out += cell.n_prompts ? ", " + std::to_string(*cell.n_prompts) + " prompts);" : ");";
  }
  out.back() = '.';
  return out + "\n";
}

}  // namespace codebias::reports

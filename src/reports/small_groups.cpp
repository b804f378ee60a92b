#include "reports/small_groups.h"

#include <variant>

namespace codebias::reports {
namespace {

constexpr int kDefaultMinGroupN = 30;

int min_group_n(const RunReportInput& input) {
  const auto options = input.provenance.find("options");
  if (options == input.provenance.end() || !options->is_object()) return kDefaultMinGroupN;
  const auto value = options->find("min_group_n");
  return value != options->end() && value->is_number_integer() ? value->get<int>() : kDefaultMinGroupN;
}

}  // namespace

nlohmann::ordered_json small_groups_json(const RunReportInput& input) {
  if (!std::holds_alternative<metrics::FunctionResults>(input.results->task)) return nullptr;
  const int min_n = min_group_n(input);
  nlohmann::ordered_json cells = nlohmann::ordered_json::array();
  for (const auto& cell : input.results->function_cells()) {
    if (cell.metrics.n_with_code >= min_n) continue;
    cells.push_back({{"cell", metrics::cell_label(cell.config, cell.scenario, cell.attribute)},
                     {"n_with_code", cell.metrics.n_with_code},
                     {"n_prompts", cell.n_prompts}});
  }
  return {{"min_n", min_n}, {"cells", cells}};
}

std::string small_groups_markdown(const RunReportInput& input) {
  const auto groups = small_groups_json(input);
  if (groups.is_null() || groups["cells"].empty()) return {};
  std::string out = "\n> **⚠ Small groups** (fewer than " + std::to_string(groups["min_n"].get<int>()) +
                    " programs with code, `--min-group-n`): their rates are imprecise; read them with their "
                    "intervals.";
  for (const auto& cell : groups["cells"]) {
    out += " " + cell["cell"].get<std::string>() + " (n=" + std::to_string(cell["n_with_code"].get<int>()) + ", " +
           std::to_string(cell["n_prompts"].get<int>()) + " prompts);";
  }
  out.back() = '.';
  return out + "\n";
}

}  // namespace codebias::reports

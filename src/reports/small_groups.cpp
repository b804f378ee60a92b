#include "reports/small_groups.h"

#include <initializer_list>
#include <variant>
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

// One rate's cell and the n it rests on.
struct RatedCell {
  std::string cell;
  int n = 0;
};

// What each task's rates are over, as the warning names it.
struct RatedCells {
  const char* unit = "";
  std::vector<RatedCell> cells;
};

std::string joined(std::initializer_list<std::string> parts) {
  std::string out;
  for (const auto& part : parts) {
    if (part.empty()) continue;
    out += (out.empty() ? "" : " / ") + part;
  }
  return out;
}

// The test-case task's rates are means over blocks: a topic's attribute rests on its blocks
// (the "n" of its first metric with one).
RatedCells testcase_cells(const metrics::TestcaseResults& results) {
  RatedCells out{"blocks", {}};
  const auto& topics = results.metrics.value("topics", nlohmann::ordered_json::object());
  for (const auto& [topic, t] : topics.items()) {
    if (!t.contains("group") || !t["group"].contains("attributes")) continue;
    for (const auto& [attribute, a] : t["group"]["attributes"].items()) {
      for (const auto& [name, metric] : a.items()) {
        if (!metric.is_object() || !metric.contains("n") || !metric["n"].is_number_integer()) continue;
        out.cells.push_back({joined({topic, attribute}), metric["n"].get<int>()});
        break;
      }
    }
  }
  return out;
}

RatedCells decision_cells(const metrics::DecisionResults& results) {
  RatedCells out{"answers with code", {}};
  for (const auto& rate : results.static_rates) {
    if (rate.biased) out.cells.push_back({rate.attribute, rate.biased->denominator});
  }
  return out;
}

RatedCells pipeline_cells(const metrics::PipelineResults& results) {
  RatedCells out{"answers with use decided", {}};
  for (const auto& c : results.metrics.cells) {
    out.cells.push_back(
        {joined({c.config, c.dataset, c.path, c.level, c.mitigation, c.attribute_set, c.attribute}), c.n_decided});
  }
  return out;
}

// A representation ratio is a share of an area's résumés: the area's count is its n.
RatedCells resume_cells(const metrics::ResumeResults& results) {
  RatedCells out{"résumés in the area", {}};
  for (const auto& section : results.metrics.by_config) {
    for (const auto& area : section.areas) out.cells.push_back({joined({section.config, area.area}), area.n});
  }
  return out;
}

RatedCells cat_cells(const metrics::CatResults& results) {
  RatedCells out{"answered items", {}};
  for (const auto& c : results.metrics.cells) {
    out.cells.push_back({joined({c.config, c.grouping, c.group}), c.counts.answered()});
  }
  return out;
}

nlohmann::ordered_json function_small_groups(const std::vector<metrics::FunctionCell>& cells, int min_n) {
  nlohmann::ordered_json small = nlohmann::ordered_json::array();
  for (const auto& cell : cells) {
    if (cell.metrics.n_with_code >= min_n) continue;
    small.push_back({{"cell", metrics::cell_label(cell.config, cell.scenario, cell.attribute)},
                     {"n_with_code", cell.metrics.n_with_code},
                     {"n_prompts", cell.n_prompts}});
  }
  return {{"min_n", min_n}, {"n_of", "programs with code"}, {"cells", small}};
}

nlohmann::ordered_json rated_small_groups(const RatedCells& rated, int min_n) {
  nlohmann::ordered_json small = nlohmann::ordered_json::array();
  for (const auto& cell : rated.cells) {
    if (cell.n < min_n) small.push_back({{"cell", cell.cell}, {"n", cell.n}});
  }
  return {{"min_n", min_n}, {"n_of", rated.unit}, {"cells", small}};
}

}  // namespace

nlohmann::ordered_json small_groups_json(const RunReportInput& input) {
  const int min_n = min_group_n(input);
  const auto& task = input.results->task;
  if (const auto* function = std::get_if<metrics::FunctionResults>(&task)) {
    return function_small_groups(function->cells, min_n);
  }
  if (const auto* r = std::get_if<metrics::TestcaseResults>(&task)) return rated_small_groups(testcase_cells(*r), min_n);
  if (const auto* r = std::get_if<metrics::DecisionResults>(&task)) return rated_small_groups(decision_cells(*r), min_n);
  if (const auto* r = std::get_if<metrics::PipelineResults>(&task)) return rated_small_groups(pipeline_cells(*r), min_n);
  if (const auto* r = std::get_if<metrics::ResumeResults>(&task)) return rated_small_groups(resume_cells(*r), min_n);
  if (const auto* r = std::get_if<metrics::CatResults>(&task)) return rated_small_groups(cat_cells(*r), min_n);
  return nullptr;
}

std::string small_groups_markdown(const RunReportInput& input) {
  const auto groups = small_groups_json(input);
  if (groups.is_null() || groups["cells"].empty()) return {};
  std::string out = "\n> **⚠ Small groups** (fewer than " + std::to_string(groups["min_n"].get<int>()) + " " +
                    groups["n_of"].get<std::string>() +
                    ", `--min-group-n`): their rates are imprecise; read them with their intervals.";
  for (const auto& cell : groups["cells"]) {
    out += " " + cell["cell"].get<std::string>() + " (n=";
    if (cell.contains("n_with_code")) {
      out += std::to_string(cell["n_with_code"].get<int>()) + ", " + std::to_string(cell["n_prompts"].get<int>()) +
             " prompts);";
    } else {
      out += std::to_string(cell["n"].get<int>()) + ");";
    }
  }
  out.back() = '.';
  return out + "\n";
}

}  // namespace codebias::reports

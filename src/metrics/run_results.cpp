#include "metrics/run_results.h"

#include <stdexcept>

namespace codebias::metrics {

const std::vector<FunctionCell>& RunResults::function_cells() const {
  const std::vector<FunctionCell>* cells = task ? task->function_cells() : nullptr;
  if (!cells) throw std::logic_error("the run's results are not the function task's: it has no function cells");
  return *cells;
}

std::string rated_cell_label(std::initializer_list<std::string> parts) {
  std::string out;
  for (const auto& part : parts) {
    if (part.empty()) continue;
    out += (out.empty() ? "" : " / ") + part;
  }
  return out;
}

std::string cell_label(const std::string& config, const std::string& scenario, const std::string& attribute) {
  return (config.empty() ? "" : config + "/") + scenario + "/" + attribute;
}

}  // namespace codebias::metrics

#include "metrics/run_results.h"

#include <stdexcept>

namespace codebias::metrics {

const std::vector<FunctionCell>& RunResults::function_cells() const {
  const auto* function = std::get_if<FunctionResults>(&task);
  if (!function) throw std::logic_error("the run's results are not the function task's: it has no function cells");
  return function->cells;
}

std::string cell_label(const std::string& config, const std::string& scenario, const std::string& attribute) {
  return (config.empty() ? "" : config + "/") + scenario + "/" + attribute;
}

}  // namespace codebias::metrics

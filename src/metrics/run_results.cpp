#include "metrics/run_results.h"

namespace codebias::metrics {

std::string cell_label(const std::string& config, const std::string& scenario, const std::string& attribute) {
  return (config.empty() ? "" : config + "/") + scenario + "/" + attribute;
}

}  // namespace codebias::metrics

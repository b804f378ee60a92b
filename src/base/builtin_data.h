// Data files built into the binary at compile time (cmake/Embed.cmake, `codebias_embed`).
// Each function returns the file's exact bytes; the storage lives for the whole program.
#pragma once

#include <string_view>

namespace codebias::data {

// data/attributes/attributes.json: the built-in sensitive-attribute table.
std::string_view builtin_attributes_json();

// data/suites/faircoder.json: the built-in FairCoder benchmark suite.
std::string_view builtin_faircoder_suite_json();
// data/models/simulated-default.json: the built-in simulated model's default bias profile.
std::string_view builtin_simulated_profile_json();
// data/metrics/metrics.json: the metrics registry (metrics/metric_registry.h).
std::string_view builtin_metrics_json();

}  // namespace codebias::data

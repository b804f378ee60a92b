// The built-in simulated model behind an HttpServer: what `codebias serve-model` and a run
// without an endpoint both start.
#pragma once

#include <filesystem>

#include "generation/simulated/http_server.h"
#include "generation/simulated/simulated_model.h"

namespace codebias::serve {

// The profile in `file`, or the built-in default when `file` is empty. Throws
// std::runtime_error naming the file when it cannot be read or parsed.
BiasProfile load_bias_profile(const std::filesystem::path& file);

// A handler answering every request with model.handle() (query strings ignored). The model must
// outlive the server.
Handler simulated_model_handler(const SimulatedModel& model);

}  // namespace codebias::serve

// What the Python drivers run in the sandbox (pass@1, the pipeline probe) report back: one line
// `CODEBIAS-RESULT <json object>` on stdout, and an exception at the end of stderr.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace codebias::quality {

// The program a sandbox driver runs as: sandbox_guard.py (the network guard, a sink for prints)
// followed by the driver's own code.
std::string driver_program(std::string_view driver);
// The same for a driver that calls a generated function (pass@1, counterfactual execution), with
// function_calls.py between the guard and the driver.
std::string function_driver_program(std::string_view driver);
// A driver that serves many jobs (counterfactual execution, the pipeline probe) with
// fork_server.py in front of it: pass the result to driver_program or function_driver_program.
std::string fork_server_program(std::string_view driver);

// The object of the last result line of `output`; nullopt when there is none or it is not JSON.
std::optional<nlohmann::json> driver_result(const std::string& output);

// A message for a report: at most 300 bytes, "..." when cut.
std::string clip_message(std::string_view text);
// The last 300 bytes of stderr, trailing blanks removed: where Python puts the exception that
// ended a process.
std::string stderr_tail(std::string_view text);

}  // namespace codebias::quality

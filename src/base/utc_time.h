// The current UTC time as text, for provenance records and default run names.
#pragma once

#include <string>

namespace codebias {

// strftime of the current UTC time, e.g. "%Y-%m-%dT%H:%M:%SZ".
std::string utc_now(const char* strftime_format = "%Y-%m-%dT%H:%M:%SZ");

}  // namespace codebias

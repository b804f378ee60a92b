// The check every flag taking an endpoint URL runs while the command line is parsed, so that a
// URL carrying a key is refused (exit 2) before anything is stored or sent (base/url.h).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "base/url.h"

namespace codebias::cli {

// CLI11 prefixes the flag's name to the message; the URL itself is never repeated.
inline CLI::Validator endpoint_url_check() {
  return CLI::Validator([](std::string& url) { return base::endpoint_url_problem(url); }, "");
}

}  // namespace codebias::cli

// Endpoint URLs carry no secrets: a key in `user:password@` or in a query string (`?api_key=`)
// would be stored in a run's provenance, written into its reports and sent again on every resume.
// Every place that accepts an endpoint URL refuses such a URL up front (the key goes in the
// variable --api-key-env names), and the run store refuses it again as a safeguard.
#pragma once

#include <string>
#include <string_view>

namespace codebias::base {

// What makes `url` unfit as an endpoint, or "" when it is fine. The message never repeats the
// URL, which may hold the secret.
inline std::string endpoint_url_problem(std::string_view url) {
  const std::size_t scheme = url.find("://");
  const std::size_t host = scheme == std::string_view::npos ? 0 : scheme + 3;
  const std::string_view authority = url.substr(host, url.find_first_of("/?#", host) - host);
  if (authority.find('@') != std::string_view::npos) {
    return "the URL carries credentials (user:password@); give the base URL and put the key in the variable "
           "--api-key-env names";
  }
  if (url.find('?') != std::string_view::npos) {
    return "the URL has a query string, which may carry a key (?api_key=...); give the base URL and put the key in "
           "the variable --api-key-env names";
  }
  return "";
}

}  // namespace codebias::base

// POST requests over libcurl's multi interface (socket mode, on an epoll set), driven by the one
// thread that calls poll().
// Connections are kept alive and reused across requests. The API key is held only here, sent as
// `Authorization: Bearer`, and never copied into outcomes.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace codebias::generation {

struct TransportSettings {
  std::string api_key;  // "" = no Authorization header
  std::chrono::milliseconds timeout{600000};  // whole request
  std::chrono::milliseconds connect_timeout{10000};
  int max_connections = 64;  // connections kept open for reuse
};

struct HttpOutcome {
  std::uint64_t tag = 0;
  bool transport_failed = false;  // no complete HTTP answer (connect, reset, truncated body)
  bool timed_out = false;
  bool refused = false;            // no connection could be made (nothing listens; unknown host)
  std::string transport_error;     // libcurl's description when transport_failed
  int status = 0;
  std::string body;
  std::string retry_after;         // the Retry-After header, "" when absent
  std::string retry_after_ms;      // the retry-after-ms header, "" when absent
  double latency_s = 0;
};

class CurlTransport {
 public:
  explicit CurlTransport(TransportSettings settings);
  ~CurlTransport();
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  // Starts POST `url` with a JSON body; its outcome comes back from poll() with `tag`.
  void start(std::uint64_t tag, const std::string& url, std::string body);
  // Drives the transfers, waiting at most `max_wait` (or until wakeup()) for something to
  // happen; returns the finished ones.
  std::vector<HttpOutcome> poll(std::chrono::milliseconds max_wait);
  // Makes a blocked poll() return early. Thread-safe.
  void wakeup();
  // Abandons every transfer in flight; returns their tags.
  std::vector<std::uint64_t> abort_all();
  std::size_t in_flight() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace codebias::generation

// Long-lived sandboxed servers that take one job at a time (quality stage): counterfactual
// execution's Python fork servers and JVMs, and the ML-pipeline probe's fork servers. A server
// loads its runtime once for many jobs; what isolates one job from the next is the server's own
// business (a forked child per job, a class loader per answer).
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "execution/sandbox.h"

namespace codebias::quality {

// At most `size` servers are lent at once; one is started when none is idle, and one that failed
// is dropped, not lent again. Thread-safe.
class ServerPool {
 public:
  ServerPool(SandboxRequest request, unsigned size);
  ~ServerPool();
  ServerPool(const ServerPool&) = delete;
  ServerPool& operator=(const ServerPool&) = delete;

  // A borrowed server, given back when the lease ends.
  class Lease {
   public:
    Lease(ServerPool& pool, std::unique_ptr<SandboxedProcess> server) : pool_(pool), server_(std::move(server)) {}
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { pool_.give_back(discarded_ ? nullptr : std::move(server_)); }

    SandboxedProcess& server() const { return *server_; }
    // The server failed or cannot be trusted with another job: it is killed when the lease ends.
    void discard() { discarded_ = true; }

   private:
    ServerPool& pool_;
    std::unique_ptr<SandboxedProcess> server_;
    bool discarded_ = false;
  };

  // Waits until fewer than `size` are lent. Throws std::runtime_error as SandboxedProcess does when
  // a server has to be started and cannot be.
  Lease borrow();

 private:
  void give_back(std::unique_ptr<SandboxedProcess> server);

  SandboxRequest request_;
  unsigned size_;
  std::mutex mutex_;
  std::condition_variable released_;
  std::vector<std::unique_ptr<SandboxedProcess>> idle_;
  unsigned lent_ = 0;
};

// One job's reply from a fork server (fork_server.py).
struct ForkServerReply {
  // How the job's child ended, its stdout and stderr together in stdout_text and the lines that
  // are no driver marks (CODEBIAS-...) in stderr_text; unset when the server stopped or got stuck.
  std::optional<SandboxResult> frame;
  NetworkIsolation network = NetworkIsolation::none;  // the server's
  bool server_timed_out = false;  // no frame: the server passed its deadline
  std::string server_error;       // no frame: the end of the server's stderr
};

// Sends `job` (which carries its own "seconds", the child's wall time) to a server of the pool and
// reads its frame. A server that fails is dropped and the next job gets a new one.
ForkServerReply run_on_fork_server(ServerPool& pool, const nlohmann::json& job, std::chrono::milliseconds wall_time);

// A long-lived server's sandbox request: the jobs' limits, except that the server may fork (its
// children or its threads) and may use a day of CPU over its life; each job has its own limit.
SandboxRequest server_request(const SandboxLimits& job_limits, const std::filesystem::path& temp_root,
                              bool isolate_network);
// The same for a Python fork server that runs `driver` as driver.py, in isolated mode (-I: no
// user site, no PYTHON* variables, no script directory on sys.path; -B: no .pyc files).
SandboxRequest python_fork_server_request(const std::string& python, std::string driver,
                                          const SandboxLimits& job_limits, const std::filesystem::path& temp_root,
                                          bool isolate_network);

}  // namespace codebias::quality

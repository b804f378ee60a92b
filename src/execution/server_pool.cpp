// Long-lived sandboxed servers (quality stage): the pool, and the frames of fork_server.py.
#include "execution/server_pool.h"

#include <sstream>
#include <string_view>

namespace codebias::quality {
namespace {

using nlohmann::json;

constexpr std::string_view kJobMark = "CODEBIAS-JOB ";
// The server kills a job's child at its wall time; past this much more, the server itself is stuck.
constexpr std::chrono::seconds kServerGraceTime{10};

// Reads the next frame from the server: the CODEBIAS-JOB header line, then exactly its "bytes" of
// output; nothing when the server ends or the deadline passes first.
std::optional<SandboxResult> read_frame(SandboxedProcess& server, SandboxedProcess::Deadline deadline) {
  std::string buffer;
  std::size_t header_end = std::string::npos;
  json header;
  std::size_t need = 0;
  for (;;) {
    if (header_end == std::string::npos && (header_end = buffer.find('\n')) != std::string::npos) {
      if (buffer.rfind(kJobMark, 0) != 0) return std::nullopt;
      header = json::parse(buffer.substr(kJobMark.size(), header_end - kJobMark.size()), nullptr, false);
      if (!header.is_object() || !header.contains("bytes") || !header["bytes"].is_number_unsigned()) return std::nullopt;
      need = header_end + 1 + header["bytes"].get<std::size_t>();
    }
    if (header_end != std::string::npos && buffer.size() >= need) break;
    if (!server.read(buffer, deadline)) return std::nullopt;
  }
  SandboxResult end;
  end.stdout_text = buffer.substr(header_end + 1, need - header_end - 1);
  std::istringstream lines(end.stdout_text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("CODEBIAS-", 0) != 0) end.stderr_text += line + "\n";
  }
  if (header.value("exit", json()).is_number_integer()) end.exit_code = header["exit"].get<int>();
  if (header.value("signal", json()).is_number_integer()) end.signal = header["signal"].get<int>();
  end.timed_out = header.value("timed_out", false);
  end.stdout_truncated = header.value("truncated", false);
  end.wall_seconds = header.value("wall_seconds", 0.0);
  end.cpu_seconds = header.value("cpu_seconds", 0.0);
  end.max_rss_kb = header.value("max_rss_kb", 0L);
  return end;
}

}  // namespace

ServerPool::ServerPool(SandboxRequest request, unsigned size) : request_(std::move(request)), size_(size) {}

ServerPool::~ServerPool() = default;

ServerPool::Lease ServerPool::borrow() {
  {
    std::unique_lock lock(mutex_);
    released_.wait(lock, [&] { return lent_ < size_; });
    ++lent_;
    if (!idle_.empty()) {
      auto server = std::move(idle_.back());
      idle_.pop_back();
      return Lease(*this, std::move(server));
    }
  }
  try {
    return Lease(*this, std::make_unique<SandboxedProcess>(request_));
  } catch (...) {
    give_back(nullptr);
    throw;
  }
}

void ServerPool::give_back(std::unique_ptr<SandboxedProcess> server) {
  {
    std::lock_guard lock(mutex_);
    --lent_;
    if (server) idle_.push_back(std::move(server));
  }
  released_.notify_one();
}

ForkServerReply run_on_fork_server(ServerPool& pool, const json& job, std::chrono::milliseconds wall_time) {
  ServerPool::Lease lease = pool.borrow();
  SandboxedProcess& server = lease.server();
  ForkServerReply reply;
  reply.network = server.network();
  const auto deadline = std::chrono::steady_clock::now() + wall_time + kServerGraceTime;
  if (server.write(job.dump() + "\n", deadline)) reply.frame = read_frame(server, deadline);
  if (!reply.frame) {
    reply.server_timed_out = std::chrono::steady_clock::now() >= deadline;
    reply.server_error = server.stderr_tail();
    lease.discard();  // a server that failed once is not trusted with the next job
  }
  return reply;
}

SandboxRequest server_request(const SandboxLimits& job_limits, const std::filesystem::path& temp_root,
                              bool isolate_network) {
  SandboxRequest request;
  request.limits = job_limits;
  request.limits.allow_fork = true;
  request.limits.cpu_seconds = 24 * 3600;
  request.temp_root = temp_root;
  request.isolate_network = isolate_network;
  return request;
}

SandboxRequest python_fork_server_request(const std::string& python, std::string driver,
                                          const SandboxLimits& job_limits, const std::filesystem::path& temp_root,
                                          bool isolate_network) {
  SandboxRequest request = server_request(job_limits, temp_root, isolate_network);
  request.program = python;
  request.args = {"-I", "-B", "driver.py"};
  request.files = {{"driver.py", std::move(driver)}};
  return request;
}

}  // namespace codebias::quality

#include "generation/simulated/http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>
#include <unordered_map>

namespace codebias::serve {
namespace {

constexpr std::size_t kMaxHeaderBytes = 64 * 1024;
constexpr std::size_t kMaxBodyBytes = 256 * 1024 * 1024;
constexpr std::uint64_t kListenerTag = 0;
constexpr std::uint64_t kWakeTag = 1;
constexpr std::uint64_t kFirstConnectionTag = 2;

using Clock = std::chrono::steady_clock;

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

const char* reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "Status";
  }
}

std::runtime_error system_error(const std::string& what) {
  return std::runtime_error("http server: " + what + ": " + std::strerror(errno));
}

// The parts of a request head that framing depends on.
struct ParsedHead {
  HttpRequest request;
  std::size_t content_length = 0;
  bool keep_alive = true;
  bool expects_continue = false;
};

// Parses "METHOD target HTTP/1.x" and the header lines; returns an error text on bad input.
std::string parse_head(std::string_view head, ParsedHead& parsed) {
  const auto line_end = head.find("\r\n");
  const std::string_view request_line = head.substr(0, line_end);
  const auto first_space = request_line.find(' ');
  const auto second_space = request_line.rfind(' ');
  if (first_space == std::string_view::npos || second_space == first_space) {
    return "malformed request line";
  }
  parsed.request.method = std::string(request_line.substr(0, first_space));
  parsed.request.target =
      std::string(request_line.substr(first_space + 1, second_space - first_space - 1));
  const std::string_view version = request_line.substr(second_space + 1);
  if (version != "HTTP/1.1" && version != "HTTP/1.0") return "unsupported HTTP version";
  parsed.keep_alive = version == "HTTP/1.1";

  std::size_t position = line_end == std::string_view::npos ? head.size() : line_end + 2;
  while (position < head.size()) {
    auto end = head.find("\r\n", position);
    if (end == std::string_view::npos) end = head.size();
    const std::string_view line = head.substr(position, end - position);
    position = end + 2;
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return "malformed header line";
    std::string_view name = line.substr(0, colon);
    std::string_view value = trim(line.substr(colon + 1));
    if (iequals(name, "Content-Length")) {
      const auto [ptr, ec] =
          std::from_chars(value.data(), value.data() + value.size(), parsed.content_length);
      if (ec != std::errc() || ptr != value.data() + value.size()) return "bad Content-Length";
    } else if (iequals(name, "Transfer-Encoding")) {
      return "chunked request bodies are not supported";
    } else if (iequals(name, "Connection")) {
      if (iequals(value, "close")) parsed.keep_alive = false;
      if (iequals(value, "keep-alive")) parsed.keep_alive = true;
    } else if (iequals(name, "Expect") && iequals(value, "100-continue")) {
      parsed.expects_continue = true;
    }
    parsed.request.headers.emplace_back(std::string(name), std::string(value));
  }
  return {};
}

}  // namespace

std::string HttpRequest::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (iequals(key, name)) return value;
  }
  return {};
}

class HttpServer::Loop {
 public:
  Loop(Handler& handler, const std::string& host, std::uint16_t port) : handler_(handler) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (listener_ < 0) throw system_error("socket");
    const int one = 1;
    ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (::inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1) {
      ::close(listener_);
      throw std::runtime_error("http server: not an IPv4 address: " + host);
    }
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener_, SOMAXCONN) != 0) {
      const auto error = system_error("bind " + host + ":" + std::to_string(port));
      ::close(listener_);
      throw error;
    }
    socklen_t length = sizeof address;
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);

    epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
    wake_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epoll_ < 0 || wake_ < 0) throw system_error("epoll/eventfd");
    add_to_epoll(listener_, kListenerTag, EPOLLIN);
    add_to_epoll(wake_, kWakeTag, EPOLLIN);
  }

  ~Loop() {
    for (auto& [tag, connection] : connections_) ::close(connection.fd);
    ::close(listener_);
    ::close(wake_);
    ::close(epoll_);
  }

  std::uint16_t port() const { return port_; }

  void request_stop() {
    stop_requested_.store(true);
    const std::uint64_t one = 1;
    [[maybe_unused]] auto written = ::write(wake_, &one, sizeof one);
  }

  void run() {
    std::vector<epoll_event> events(256);
    while (!stop_requested_.load()) {
      const int ready = wait_for_events(events);
      if (ready < 0 && errno != EINTR) break;
      for (int i = 0; i < ready; ++i) {
        const std::uint64_t tag = events[i].data.u64;
        if (tag == kListenerTag) {
          accept_all();
        } else if (tag != kWakeTag) {
          on_connection_event(tag, events[i].events);
        }
      }
      fire_due_timers();
    }
    for (auto& [tag, connection] : connections_) ::close(connection.fd);
    connections_.clear();
    timers_.clear();
  }

 private:
  struct Connection {
    int fd = -1;
    std::string input;
    std::string output;
    std::size_t output_sent = 0;
    bool awaiting_delayed_answer = false;
    bool close_after_write = false;
    bool watching_writable = false;
    bool continue_sent = false;
  };

  struct DelayedAnswer {
    Clock::time_point due;
    std::uint64_t connection_tag;
    HttpResponse response;
    bool keep_alive;
  };
  static bool later(const DelayedAnswer& a, const DelayedAnswer& b) { return a.due > b.due; }

  void add_to_epoll(int fd, std::uint64_t tag, std::uint32_t events) {
    epoll_event event{};
    event.events = events;
    event.data.u64 = tag;
    if (::epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &event) != 0) throw system_error("epoll_ctl");
  }

  void watch_writable(std::uint64_t tag, Connection& connection, bool watch) {
    if (connection.watching_writable == watch) return;
    epoll_event event{};
    event.events = EPOLLIN | (watch ? EPOLLOUT : 0u);
    event.data.u64 = tag;
    ::epoll_ctl(epoll_, EPOLL_CTL_MOD, connection.fd, &event);
    connection.watching_writable = watch;
  }

  void accept_all() {
    while (true) {
      const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) return;  // EAGAIN, or a transient error (EMFILE): try again on the next event
      const int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      const std::uint64_t tag = next_tag_++;
      epoll_event event{};
      event.events = EPOLLIN;
      event.data.u64 = tag;
      if (::epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &event) != 0) {
        ::close(fd);
        continue;
      }
      connections_[tag].fd = fd;
    }
  }

  void close_connection(std::uint64_t tag) {
    const auto found = connections_.find(tag);
    if (found == connections_.end()) return;
    ::epoll_ctl(epoll_, EPOLL_CTL_DEL, found->second.fd, nullptr);
    ::close(found->second.fd);
    connections_.erase(found);
  }

  void on_connection_event(std::uint64_t tag, std::uint32_t events) {
    const auto found = connections_.find(tag);
    if (found == connections_.end()) return;
    Connection& connection = found->second;
    if (events & (EPOLLERR | EPOLLHUP)) {
      close_connection(tag);
      return;
    }
    if (events & EPOLLOUT) {
      if (!flush(tag, connection)) return;
    }
    if (events & EPOLLIN) {
      char buffer[64 * 1024];
      while (true) {
        const ssize_t received = ::recv(connection.fd, buffer, sizeof buffer, 0);
        if (received > 0) {
          connection.input.append(buffer, static_cast<std::size_t>(received));
          if (static_cast<std::size_t>(received) < sizeof buffer) break;
          continue;
        }
        if (received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (received < 0 && errno == EINTR) continue;
        close_connection(tag);  // peer closed or reset: nobody is left to answer
        return;
      }
      serve_buffered_requests(tag, connection);
    }
  }

  // Answers every complete request in the input buffer, in order, stopping at a delayed one
  // (pipelined requests behind it wait so that answers keep their order).
  void serve_buffered_requests(std::uint64_t tag, Connection& connection) {
    while (!connection.awaiting_delayed_answer && !connection.close_after_write) {
      const auto head_end = connection.input.find("\r\n\r\n");
      if (head_end == std::string::npos) {
        if (connection.input.size() > kMaxHeaderBytes) {
          reject(tag, connection, 431, "request head too large");
        }
        break;
      }
      ParsedHead parsed;
      if (const auto error = parse_head(std::string_view(connection.input).substr(0, head_end),
                                        parsed);
          !error.empty()) {
        reject(tag, connection, 400, error);
        break;
      }
      if (parsed.content_length > kMaxBodyBytes) {
        reject(tag, connection, 413, "request body too large");
        break;
      }
      const std::size_t total = head_end + 4 + parsed.content_length;
      if (connection.input.size() < total) {
        if (parsed.expects_continue && !connection.continue_sent) {
          connection.output += "HTTP/1.1 100 Continue\r\n\r\n";
          connection.continue_sent = true;
        }
        break;
      }
      parsed.request.body = connection.input.substr(head_end + 4, parsed.content_length);
      connection.input.erase(0, total);
      connection.continue_sent = false;

      HttpResponse response = call_handler(parsed.request);
      if (response.delay.count() > 0) {
        connection.awaiting_delayed_answer = true;
        timers_.push_back(DelayedAnswer{Clock::now() + response.delay, tag, std::move(response),
                                        parsed.keep_alive});
        std::push_heap(timers_.begin(), timers_.end(), later);
        break;
      }
      if (!deliver(tag, connection, response, parsed.keep_alive)) return;
    }
    flush(tag, connection);
  }

  HttpResponse call_handler(const HttpRequest& request) {
    try {
      return handler_(request);
    } catch (const std::exception& error) {
      HttpResponse failure;
      failure.status = 500;
      failure.content_type = "text/plain";
      failure.body = error.what();
      return failure;
    }
  }

  void reject(std::uint64_t tag, Connection& connection, int status, const std::string& why) {
    HttpResponse response;
    response.status = status;
    response.content_type = "text/plain";
    response.body = why;
    deliver(tag, connection, response, false);
  }

  // Queues the answer (or the fault). Returns false when the connection was closed.
  bool deliver(std::uint64_t tag, Connection& connection, const HttpResponse& response,
               bool keep_alive) {
    if (response.fault == HttpResponse::Fault::close_before_answer) {
      close_connection(tag);
      return false;
    }
    const bool cut_body = response.fault == HttpResponse::Fault::close_mid_body;
    if (cut_body || !keep_alive) connection.close_after_write = true;

    std::string& out = connection.output;
    out += "HTTP/1.1 ";
    out += std::to_string(response.status);
    out += ' ';
    out += reason_phrase(response.status);
    out += "\r\nContent-Type: ";
    out += response.content_type;
    out += "\r\nContent-Length: ";
    out += std::to_string(response.body.size());
    out += "\r\n";
    for (const auto& [name, value] : response.headers) {
      out += name;
      out += ": ";
      out += value;
      out += "\r\n";
    }
    if (connection.close_after_write) out += "Connection: close\r\n";
    out += "\r\n";
    out.append(response.body, 0, cut_body ? response.body.size() / 2 : response.body.size());
    return true;
  }

  // Sends what is queued. Returns false when the connection was closed.
  bool flush(std::uint64_t tag, Connection& connection) {
    while (connection.output_sent < connection.output.size()) {
      const ssize_t sent =
          ::send(connection.fd, connection.output.data() + connection.output_sent,
                 connection.output.size() - connection.output_sent, MSG_NOSIGNAL);
      if (sent > 0) {
        connection.output_sent += static_cast<std::size_t>(sent);
        continue;
      }
      if (sent < 0 && errno == EINTR) continue;
      if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        watch_writable(tag, connection, true);
        return true;
      }
      close_connection(tag);
      return false;
    }
    connection.output.clear();
    connection.output_sent = 0;
    watch_writable(tag, connection, false);
    if (connection.close_after_write) {
      // Stop sending first so the peer reads everything sent before the close.
      ::shutdown(connection.fd, SHUT_WR);
      close_connection(tag);
      return false;
    }
    return true;
  }

  // epoll_pwait2 takes a nanosecond timeout, so delayed answers leave on time rather than up
  // to a millisecond late; kernels before 5.11 fall back to epoll_wait.
  int wait_for_events(std::vector<epoll_event>& events) {
    const int capacity = static_cast<int>(events.size());
    if (timers_.empty()) return ::epoll_wait(epoll_, events.data(), capacity, -1);
    const auto wait = std::max(Clock::duration::zero(), timers_.front().due - Clock::now());
    if (precise_wait_available_) {
      const auto nanoseconds = std::chrono::duration_cast<std::chrono::nanoseconds>(wait).count();
      const timespec timeout{static_cast<time_t>(nanoseconds / 1'000'000'000),
                             static_cast<long>(nanoseconds % 1'000'000'000)};
      const int ready = ::epoll_pwait2(epoll_, events.data(), capacity, &timeout, nullptr);
      if (ready >= 0 || errno != ENOSYS) return ready;
      precise_wait_available_ = false;
    }
    return ::epoll_wait(epoll_, events.data(), capacity,
                        static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(wait).count()));
  }

  void fire_due_timers() {
    const auto now = Clock::now();
    while (!timers_.empty() && timers_.front().due <= now) {
      std::pop_heap(timers_.begin(), timers_.end(), later);
      DelayedAnswer answer = std::move(timers_.back());
      timers_.pop_back();
      const auto found = connections_.find(answer.connection_tag);
      if (found == connections_.end()) continue;  // the client went away meanwhile
      Connection& connection = found->second;
      connection.awaiting_delayed_answer = false;
      if (!deliver(answer.connection_tag, connection, answer.response, answer.keep_alive)) {
        continue;
      }
      serve_buffered_requests(answer.connection_tag, connection);
    }
  }

  Handler& handler_;
  int listener_ = -1;
  int epoll_ = -1;
  int wake_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stop_requested_{false};
  std::uint64_t next_tag_ = kFirstConnectionTag;
  bool precise_wait_available_ = true;
  std::unordered_map<std::uint64_t, Connection> connections_;
  std::vector<DelayedAnswer> timers_;  // min-heap on `due`
};

HttpServer::HttpServer(Handler handler, std::string host, std::uint16_t port)
    : handler_(std::move(handler)), host_(std::move(host)), requested_port_(port) {}

HttpServer::~HttpServer() { stop(); }

std::uint16_t HttpServer::port() const { return loop_ ? loop_->port() : 0; }

std::string HttpServer::base_url() const {
  return "http://" + host_ + ":" + std::to_string(port());
}

void HttpServer::start() {
  std::lock_guard lock(lifecycle_mutex_);
  if (started_) throw std::runtime_error("http server: start() called twice");
  loop_ = std::make_unique<Loop>(handler_, host_, requested_port_);
  started_ = true;
  thread_ = std::thread([this] {
    loop_->run();
    std::lock_guard done_lock(lifecycle_mutex_);
    stopped_ = true;
    stopped_cv_.notify_all();
  });
}

void HttpServer::stop() {
  {
    std::lock_guard lock(lifecycle_mutex_);
    if (!started_) return;
    loop_->request_stop();
  }
  std::lock_guard join_lock(join_mutex_);
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void HttpServer::wait() {
  std::unique_lock lock(lifecycle_mutex_);
  stopped_cv_.wait(lock, [this] { return !started_ || stopped_; });
}

}  // namespace codebias::serve

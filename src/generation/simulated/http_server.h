// A small HTTP/1.1 server for 127.0.0.1: the built-in simulated model server and every test that
// needs a misbehaving endpoint. One background thread runs an epoll loop over non-blocking
// sockets (keep-alive, Content-Length request bodies, pipelined requests answered in order).
// Delayed answers wait on a timer queue, not on sleeping threads, so one slow response never
// holds up another connection.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace codebias::serve {

struct HttpRequest {
  std::string method;
  std::string target;  // path and query as sent, e.g. "/v1/chat/completions"
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  // Value of the first header called `name` (case-insensitive); "" when absent.
  std::string header(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers, e.g. Retry-After
  std::string body;
  // Answer after this long without blocking other connections.
  std::chrono::milliseconds delay{0};
  // For tests: drop the connection (after `delay`) instead of answering, or after sending the
  // headers and half of the body.
  enum class Fault { none, close_before_answer, close_mid_body } fault = Fault::none;
};

// Called on the server thread, one request at a time; must not block for long (use `delay`).
// An exception becomes a 500 answer carrying its message.
using Handler = std::function<HttpResponse(const HttpRequest&)>;

class HttpServer {
 public:
  // port 0 = any free port (see port() after start()).
  explicit HttpServer(Handler handler, std::string host = "127.0.0.1", std::uint16_t port = 0);
  ~HttpServer();  // stops the server
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  std::uint16_t port() const;    // the bound port; valid after start()
  std::string base_url() const;  // "http://127.0.0.1:<port>"

  // Binds, listens and starts the loop thread. Throws std::runtime_error when the address
  // cannot be bound or start() was already called.
  void start();
  // Closes every connection (pending delayed answers are dropped) and joins the thread.
  // Idempotent; safe from any thread except the handler.
  void stop();
  // Blocks until the server has stopped (by stop() from another thread).
  void wait();

 private:
  class Loop;
  Handler handler_;
  std::string host_;
  std::uint16_t requested_port_;
  std::unique_ptr<Loop> loop_;
  std::thread thread_;
  std::mutex lifecycle_mutex_;
  std::mutex join_mutex_;
  std::condition_variable stopped_cv_;
  bool started_ = false;
  bool stopped_ = false;
};

}  // namespace codebias::serve

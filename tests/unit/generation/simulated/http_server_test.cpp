#include "generation/simulated/http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace codebias::serve {
namespace {

using namespace std::chrono_literals;

// A blocking socket client that sends raw bytes, so tests control framing exactly.
class RawClient {
 public:
  explicit RawClient(std::uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      throw std::runtime_error("connect failed");
    }
  }
  ~RawClient() { ::close(fd_); }

  void send_all(const std::string& bytes) {
    ASSERT_EQ(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(bytes.size()));
  }

  // Reads until `needle` has been received or the peer closed; returns everything read.
  std::string read_until(const std::string& needle) {
    while (buffer_.find(needle) == std::string::npos) {
      if (!read_some()) break;
    }
    return buffer_;
  }

  // Reads until the peer closes the connection; returns everything read.
  std::string read_to_end() {
    while (read_some()) {
    }
    return buffer_;
  }

  bool has_pending_data() {
    pollfd descriptor{fd_, POLLIN, 0};
    return ::poll(&descriptor, 1, 0) > 0;
  }

  void clear() { buffer_.clear(); }

 private:
  bool read_some() {
    char chunk[4096];
    const ssize_t received = ::recv(fd_, chunk, sizeof chunk, 0);
    if (received <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(received));
    return true;
  }

  int fd_ = -1;
  std::string buffer_;
};

std::string post(const std::string& target, const std::string& body,
                 const std::string& extra_headers = "") {
  return "POST " + target + " HTTP/1.1\r\nHost: x\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n" + extra_headers + "\r\n" + body;
}

HttpResponse echo(const HttpRequest& request) {
  HttpResponse response;
  response.body = request.method + " " + request.target + " " + request.body + " x-test=" +
                  request.header("x-TEST");
  return response;
}

TEST(HttpServer, AnswersSeveralRequestsOnOneKeptAliveConnection) {
  HttpServer server(echo);
  server.start();
  ASSERT_NE(server.port(), 0);
  EXPECT_EQ(server.base_url(), "http://127.0.0.1:" + std::to_string(server.port()));

  RawClient client(server.port());
  client.send_all(post("/first", "abc", "X-Test: one\r\n"));
  const std::string first = client.read_until("x-test=one");
  EXPECT_NE(first.find("HTTP/1.1 200 OK\r\n"), std::string::npos);
  EXPECT_NE(first.find("Content-Type: application/json\r\n"), std::string::npos);
  EXPECT_NE(first.find("POST /first abc x-test=one"), std::string::npos);

  client.clear();
  client.send_all(post("/second", "defg"));
  EXPECT_NE(client.read_until("x-test=").find("POST /second defg"), std::string::npos);
}

TEST(HttpServer, AnswersPipelinedRequestsInOrderEvenWhenTheFirstIsDelayed) {
  HttpServer server([](const HttpRequest& request) {
    HttpResponse response;
    response.body = request.body;
    if (request.body == "slow") response.delay = 50ms;
    return response;
  });
  server.start();
  RawClient client(server.port());
  client.send_all(post("/", "slow") + post("/", "fast"));
  const std::string both = client.read_until("fast");
  const auto slow_at = both.find("slow");
  ASSERT_NE(slow_at, std::string::npos);
  EXPECT_LT(slow_at, both.find("fast"));
}

TEST(HttpServer, ADelayedAnswerDoesNotHoldUpOtherConnections) {
  HttpServer server([](const HttpRequest& request) {
    HttpResponse response;
    response.body = request.body;
    if (request.body == "slow") response.delay = 3s;
    return response;
  });
  server.start();
  RawClient slow(server.port());
  RawClient fast(server.port());
  slow.send_all(post("/", "slow"));
  fast.send_all(post("/", "fast"));
  EXPECT_NE(fast.read_until("fast").find("fast"), std::string::npos);
  // The slow answer is still waiting on its timer when the fast one has arrived.
  EXPECT_FALSE(slow.has_pending_data());
  EXPECT_NE(slow.read_until("slow").find("slow"), std::string::npos);
}

TEST(HttpServer, CloseBeforeAnswerFaultSendsNothing) {
  HttpServer server([](const HttpRequest&) {
    HttpResponse response;
    response.fault = HttpResponse::Fault::close_before_answer;
    return response;
  });
  server.start();
  RawClient client(server.port());
  client.send_all(post("/", "{}"));
  EXPECT_EQ(client.read_to_end(), "");
}

TEST(HttpServer, CloseMidBodyFaultSendsHeadersAndHalfTheBody) {
  HttpServer server([](const HttpRequest&) {
    HttpResponse response;
    response.body = "0123456789";
    response.fault = HttpResponse::Fault::close_mid_body;
    return response;
  });
  server.start();
  RawClient client(server.port());
  client.send_all(post("/", "{}"));
  const std::string received = client.read_to_end();
  EXPECT_NE(received.find("Content-Length: 10\r\n"), std::string::npos);
  EXPECT_EQ(received.substr(received.find("\r\n\r\n") + 4), "01234");
}

TEST(HttpServer, ExtraHeadersAndStatusAreSent) {
  HttpServer server([](const HttpRequest&) {
    HttpResponse response;
    response.status = 429;
    response.headers = {{"Retry-After", "7"}};
    return response;
  });
  server.start();
  RawClient client(server.port());
  client.send_all(post("/", ""));
  const std::string received = client.read_until("\r\n\r\n");
  EXPECT_NE(received.find("HTTP/1.1 429 Too Many Requests\r\n"), std::string::npos);
  EXPECT_NE(received.find("Retry-After: 7\r\n"), std::string::npos);
}

TEST(HttpServer, MalformedRequestGets400AndTheConnectionCloses) {
  HttpServer server(echo);
  server.start();
  RawClient client(server.port());
  client.send_all("NONSENSE\r\n\r\n");
  EXPECT_NE(client.read_to_end().find("HTTP/1.1 400 "), std::string::npos);
}

TEST(HttpServer, HandlerExceptionBecomes500WithItsMessage) {
  HttpServer server([](const HttpRequest&) -> HttpResponse {
    throw std::runtime_error("handler broke");
  });
  server.start();
  RawClient client(server.port());
  client.send_all(post("/", ""));
  const std::string received = client.read_until("handler broke");
  EXPECT_NE(received.find("HTTP/1.1 500 "), std::string::npos);
  EXPECT_NE(received.find("handler broke"), std::string::npos);
}

TEST(HttpServer, ExpectContinueGets100BeforeTheBodyIsSent) {
  HttpServer server(echo);
  server.start();
  RawClient client(server.port());
  client.send_all(
      "POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
  EXPECT_NE(client.read_until("\r\n\r\n").find("HTTP/1.1 100 Continue"), std::string::npos);
  client.send_all("hello");
  EXPECT_NE(client.read_until("x-test=").find("POST /big hello"), std::string::npos);
}

TEST(HttpServer, ConnectionCloseRequestClosesAfterTheAnswer) {
  HttpServer server(echo);
  server.start();
  RawClient client(server.port());
  client.send_all(post("/", "bye", "Connection: close\r\n"));
  const std::string received = client.read_to_end();  // returns only because the server closed
  EXPECT_NE(received.find("POST / bye"), std::string::npos);
  EXPECT_NE(received.find("Connection: close\r\n"), std::string::npos);
}

TEST(HttpServer, WaitReturnsOnceStoppedFromAnotherThread) {
  HttpServer server(echo);
  server.start();
  std::atomic<bool> waited{false};
  std::thread waiter([&] {
    server.wait();
    waited = true;
  });
  server.stop();
  waiter.join();
  EXPECT_TRUE(waited);
  server.stop();  // idempotent
}

TEST(HttpServer, StartTwiceThrows) {
  HttpServer server(echo);
  server.start();
  EXPECT_THROW(server.start(), std::runtime_error);
}

}  // namespace
}  // namespace codebias::serve

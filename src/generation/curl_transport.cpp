#include "generation/curl_transport.h"

#include <curl/curl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string_view>

namespace codebias::generation {
namespace {

void initialise_curl_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

bool header_is(std::string_view line, std::string_view name) {
  if (line.size() <= name.size() || line[name.size()] != ':') return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(line[i])) != name[i]) return false;
  }
  return true;
}

std::string header_value(std::string_view line, std::size_t name_length) {
  std::string_view value = line.substr(name_length + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) {
    value.remove_suffix(1);
  }
  return std::string(value);
}

struct Transfer {
  CURL* easy = nullptr;
  std::uint64_t tag = 0;
  std::string request_body;
  HttpOutcome outcome;
  char error_buffer[CURL_ERROR_SIZE] = {};
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<Transfer*>(user)->outcome.body.append(data, size * count);
  return size * count;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::string_view line(data, size * count);
  if (header_is(line, "retry-after")) {
    transfer->outcome.retry_after = header_value(line, 11);
  } else if (header_is(line, "retry-after-ms")) {
    transfer->outcome.retry_after_ms = header_value(line, 14);
  } else if (line.rfind("HTTP/", 0) == 0) {
    // A new response (after a 100 Continue or redirect): forget the previous one's headers.
    transfer->outcome.retry_after.clear();
    transfer->outcome.retry_after_ms.clear();
  }
  return size * count;
}

}  // namespace

// The multi handle runs in socket mode over our own epoll set: each socket event and each
// expired timer only touches the transfers concerned, where curl_multi_perform/curl_multi_poll
// would walk every transfer and poll every socket on each wake-up.
struct CurlTransport::Impl {
  using Clock = std::chrono::steady_clock;
  TransportSettings settings;
  CURLM* multi = nullptr;
  curl_slist* headers = nullptr;
  std::vector<std::unique_ptr<Transfer>> active;
  std::vector<CURL*> idle_handles;
  int epoll_fd = -1;
  int wake_fd = -1;
  std::optional<Clock::time_point> timer_due;  // when libcurl wants CURL_SOCKET_TIMEOUT

  static int on_socket(CURL*, curl_socket_t socket, int what, void* user, void*) {
    auto* self = static_cast<Impl*>(user);
    if (what == CURL_POLL_REMOVE) {
      ::epoll_ctl(self->epoll_fd, EPOLL_CTL_DEL, socket, nullptr);
      return 0;
    }
    epoll_event event{};
    event.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
    event.data.fd = socket;
    if (::epoll_ctl(self->epoll_fd, EPOLL_CTL_MOD, socket, &event) != 0) {
      ::epoll_ctl(self->epoll_fd, EPOLL_CTL_ADD, socket, &event);
    }
    return 0;
  }

  static int on_timer(CURLM*, long timeout_ms, void* user) {
    auto* self = static_cast<Impl*>(user);
    if (timeout_ms < 0) {
      self->timer_due.reset();
    } else {
      self->timer_due = Clock::now() + std::chrono::milliseconds(timeout_ms);
    }
    return 0;
  }

  explicit Impl(TransportSettings given) : settings(std::move(given)) {
    initialise_curl_once();
    epoll_fd = ::epoll_create1(EPOLL_CLOEXEC);
    wake_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    multi = curl_multi_init();
    if (multi == nullptr || epoll_fd < 0 || wake_fd < 0) {
      throw std::runtime_error("libcurl: cannot create a multi handle");
    }
    epoll_event wake{};
    wake.events = EPOLLIN;
    wake.data.fd = wake_fd;
    ::epoll_ctl(epoll_fd, EPOLL_CTL_ADD, wake_fd, &wake);
    curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, on_socket);
    curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, on_timer);
    curl_multi_setopt(multi, CURLMOPT_TIMERDATA, this);
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, static_cast<long>(settings.max_connections));
    headers = curl_slist_append(headers, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Accept: application/json");
    headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip
    if (!settings.api_key.empty()) {
      const std::string authorization = "Authorization: Bearer " + settings.api_key;
      headers = curl_slist_append(headers, authorization.c_str());
    }
  }

  ~Impl() {
    for (auto& transfer : active) {
      curl_multi_remove_handle(multi, transfer->easy);
      curl_easy_cleanup(transfer->easy);
    }
    for (CURL* easy : idle_handles) curl_easy_cleanup(easy);
    curl_multi_cleanup(multi);
    curl_slist_free_all(headers);
    ::close(wake_fd);
    ::close(epoll_fd);
  }

  // Runs the transfers whose timer expired (new ones start this way).
  void run_expired_timers() {
    if (!timer_due || *timer_due > Clock::now()) return;
    timer_due.reset();
    int running = 0;
    curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
  }

  // Idle handles keep their constant options between requests; only per-request ones change.
  CURL* take_handle() {
    if (!idle_handles.empty()) {
      CURL* easy = idle_handles.back();
      idle_handles.pop_back();
      return easy;
    }
    CURL* easy = curl_easy_init();
    if (easy == nullptr) throw std::runtime_error("libcurl: cannot create an easy handle");
    curl_easy_setopt(easy, CURLOPT_POST, 1L);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(settings.timeout.count()));
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(settings.connect_timeout.count()));
    // Loopback servers never sit behind a proxy, whatever http_proxy says.
    curl_easy_setopt(easy, CURLOPT_NOPROXY, "127.0.0.1,localhost,::1");
    return easy;
  }

  void release(Transfer& transfer) {
    curl_multi_remove_handle(multi, transfer.easy);
    idle_handles.push_back(transfer.easy);
    transfer.easy = nullptr;
  }

  HttpOutcome finish(Transfer& transfer, CURLcode code) {
    HttpOutcome outcome = std::move(transfer.outcome);
    outcome.tag = transfer.tag;
    long status = 0;
    curl_easy_getinfo(transfer.easy, CURLINFO_RESPONSE_CODE, &status);
    double seconds = 0;
    curl_easy_getinfo(transfer.easy, CURLINFO_TOTAL_TIME, &seconds);
    outcome.status = static_cast<int>(status);
    outcome.latency_s = seconds;
    if (code != CURLE_OK) {
      outcome.transport_failed = true;
      outcome.timed_out = code == CURLE_OPERATION_TIMEDOUT;
      outcome.refused = code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST;
      outcome.transport_error = transfer.error_buffer[0] != '\0'
                                    ? std::string(transfer.error_buffer)
                                    : std::string(curl_easy_strerror(code));
    }
    release(transfer);
    return outcome;
  }
};

CurlTransport::CurlTransport(TransportSettings settings)
    : impl_(std::make_unique<Impl>(std::move(settings))) {}

CurlTransport::~CurlTransport() = default;

void CurlTransport::start(std::uint64_t tag, const std::string& url, std::string body) {
  auto transfer = std::make_unique<Transfer>();
  transfer->tag = tag;
  transfer->request_body = std::move(body);
  CURL* easy = impl_->take_handle();
  transfer->easy = easy;
  curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
  curl_easy_setopt(easy, CURLOPT_POSTFIELDS, transfer->request_body.data());
  curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE,
                   static_cast<curl_off_t>(transfer->request_body.size()));
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, transfer.get());
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, transfer.get());
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, transfer->error_buffer);
  curl_easy_setopt(easy, CURLOPT_PRIVATE, transfer.get());
  if (curl_multi_add_handle(impl_->multi, easy) != CURLM_OK) {
    impl_->idle_handles.push_back(easy);
    throw std::runtime_error("libcurl: cannot add a transfer");
  }
  impl_->active.push_back(std::move(transfer));
}

std::vector<HttpOutcome> CurlTransport::poll(std::chrono::milliseconds max_wait) {
  std::vector<HttpOutcome> finished;
  auto collect = [&] {
    int queued = 0;
    while (CURLMsg* message = curl_multi_info_read(impl_->multi, &queued)) {
      if (message->msg != CURLMSG_DONE) continue;
      Transfer* transfer = nullptr;
      curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &transfer);
      const CURLcode code = message->data.result;
      finished.push_back(impl_->finish(*transfer, code));
      auto& active = impl_->active;
      const auto found = std::find_if(active.begin(), active.end(),
                                      [&](const auto& entry) { return entry.get() == transfer; });
      if (found != active.end()) {
        std::swap(*found, active.back());
        active.pop_back();
      }
    }
  };
  impl_->run_expired_timers();
  collect();
  if (!finished.empty()) return finished;

  auto wait = max_wait;
  if (impl_->timer_due) {
    wait = std::min(wait, std::chrono::ceil<std::chrono::milliseconds>(*impl_->timer_due -
                                                                      Impl::Clock::now()));
  }
  epoll_event events[64];
  const int ready = ::epoll_wait(impl_->epoll_fd, events, 64,
                                 static_cast<int>(std::max<std::int64_t>(0, wait.count())));
  for (int i = 0; i < ready; ++i) {
    const int fd = events[i].data.fd;
    if (fd == impl_->wake_fd) {
      std::uint64_t count = 0;
      [[maybe_unused]] auto drained = ::read(impl_->wake_fd, &count, sizeof count);
      continue;
    }
    int flags = 0;
    if (events[i].events & EPOLLIN) flags |= CURL_CSELECT_IN;
    if (events[i].events & EPOLLOUT) flags |= CURL_CSELECT_OUT;
    if (events[i].events & (EPOLLERR | EPOLLHUP)) flags |= CURL_CSELECT_ERR;
    int running = 0;
    curl_multi_socket_action(impl_->multi, fd, flags, &running);
  }
  impl_->run_expired_timers();
  collect();
  return finished;
}

void CurlTransport::wakeup() {
  const std::uint64_t one = 1;
  [[maybe_unused]] auto written = ::write(impl_->wake_fd, &one, sizeof one);
}

std::vector<std::uint64_t> CurlTransport::abort_all() {
  std::vector<std::uint64_t> tags;
  for (auto& transfer : impl_->active) {
    tags.push_back(transfer->tag);
    impl_->release(*transfer);
  }
  impl_->active.clear();
  return tags;
}

std::size_t CurlTransport::in_flight() const { return impl_->active.size(); }

}  // namespace codebias::generation

#include "base/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace codebias::base {

void for_each_index(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& work) {
  if (jobs == 0) jobs = std::max(1U, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(count, 1)));
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr failure;
  auto run = [&] {
    for (std::size_t at = next++; at < count && !failed; at = next++) {
      try {
        work(at);
      } catch (...) {
        if (!failed.exchange(true)) failure = std::current_exception();
      }
    }
  };
  std::vector<std::jthread> workers;
  for (unsigned i = 1; i < jobs; ++i) workers.emplace_back(run);
  run();
  workers.clear();  // joins
  if (failure) std::rethrow_exception(failure);
}

}  // namespace codebias::base

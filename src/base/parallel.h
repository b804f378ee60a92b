// Running independent items on a few threads (sandboxed programs, mostly waiting on a child).
#pragma once

#include <cstddef>
#include <functional>

namespace codebias::base {

// Calls work(i) for every i in [0, count) on `jobs` threads (0: one per core), the calling thread
// included. The first exception stops handing out items and is rethrown once all threads stopped.
void for_each_index(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& work);

}  // namespace codebias::base

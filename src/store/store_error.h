// The one exception type of the run store: a message naming the store file and what failed.
#pragma once

#include <stdexcept>

namespace codebias::store {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace codebias::store

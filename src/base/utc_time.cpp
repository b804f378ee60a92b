#include "base/utc_time.h"

#include <ctime>

namespace codebias {

std::string utc_now(const char* strftime_format) {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[96];
  const std::size_t length = std::strftime(text, sizeof text, strftime_format, &parts);
  return std::string(text, length);
}

}  // namespace codebias

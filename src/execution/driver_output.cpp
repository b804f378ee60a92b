#include "execution/driver_output.h"

#include "base/builtin_data.h"

namespace codebias::quality {
namespace {

constexpr std::string_view kResultMark = "CODEBIAS-RESULT ";
constexpr std::size_t kMaxMessageBytes = 300;

}  // namespace

std::string driver_program(std::string_view driver) {
  return std::string(data::builtin_sandbox_guard_py()) + "\n\n" + std::string(driver);
}

std::string function_driver_program(std::string_view driver) {
  return driver_program(std::string(data::builtin_function_calls_py()) + "\n\n" + std::string(driver));
}

std::string fork_server_program(std::string_view driver) {
  return std::string(data::builtin_fork_server_py()) + "\n\n" + std::string(driver);
}

std::optional<nlohmann::json> driver_result(const std::string& output) {
  auto at = output.rfind(kResultMark);
  if (at == std::string::npos || (at > 0 && output[at - 1] != '\n')) return std::nullopt;
  auto end = output.find('\n', at);
  auto text = std::string_view(output).substr(at + kResultMark.size(),
                                               end == std::string::npos ? std::string::npos : end - at - kResultMark.size());
  nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
  return parsed;
}

std::string clip_message(std::string_view text) {
  if (text.size() <= kMaxMessageBytes) return std::string(text);
  return std::string(text.substr(0, kMaxMessageBytes)) + "...";
}

std::string stderr_tail(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  if (text.size() > kMaxMessageBytes) text.remove_prefix(text.size() - kMaxMessageBytes);
  return std::string(text);
}

}  // namespace codebias::quality

#include "run/progress.h"

#include <cstdio>
#include <ostream>

namespace codebias::run {
namespace {

std::string compact_count(std::int64_t value) {
  char text[32];
  if (value >= 10'000'000) std::snprintf(text, sizeof text, "%lldM", static_cast<long long>(value / 1'000'000));
  else if (value >= 10'000) std::snprintf(text, sizeof text, "%lldk", static_cast<long long>(value / 1'000));
  else std::snprintf(text, sizeof text, "%lld", static_cast<long long>(value));
  return text;
}

std::string duration(double seconds) {
  char text[32];
  const long long s = static_cast<long long>(seconds + 0.5);
  if (s >= 3600) std::snprintf(text, sizeof text, "%lldh%02lldm", s / 3600, (s % 3600) / 60);
  else if (s >= 60) std::snprintf(text, sizeof text, "%lldm%02llds", s / 60, s % 60);
  else std::snprintf(text, sizeof text, "%llds", s);
  return text;
}

}  // namespace

std::string format_progress(const ProgressSnapshot& p, int bar_width) {
  const double fraction = p.total > 0 ? static_cast<double>(p.done) / static_cast<double>(p.total) : 1.0;
  const int filled = static_cast<int>(fraction * bar_width);
  std::string line = "[" + std::string(static_cast<std::size_t>(filled), '#') +
                     std::string(static_cast<std::size_t>(bar_width - filled), '.') + "]";
  const double rate = p.elapsed_s > 0 ? static_cast<double>(p.done) / p.elapsed_s : 0.0;
  char text[160];
  std::snprintf(text, sizeof text, "  %lld/%lld  %3d%%  %.1f/s", static_cast<long long>(p.done),
                static_cast<long long>(p.total), static_cast<int>(fraction * 100), rate);
  line += text;
  if (p.done < p.total) {
    line += "  ETA " + (rate > 0 ? duration(static_cast<double>(p.total - p.done) / rate) : std::string("?"));
  }
  line += "  errors " + std::to_string(p.errors);
  if (p.shows_tokens) line += "  tokens " + compact_count(p.tokens);
  return line;
}

ProgressPrinter::ProgressPrinter(std::ostream& out, bool terminal, std::chrono::milliseconds interval)
    : out_(out), terminal_(terminal), interval_(terminal ? std::chrono::milliseconds(100) : interval) {}

void ProgressPrinter::update(const ProgressSnapshot& snapshot) {
  const auto now = std::chrono::steady_clock::now();
  if (printed_ && now - last_ < interval_) return;
  last_ = now;
  printed_ = true;
  if (terminal_) out_ << '\r' << snapshot.label << ": " << format_progress(snapshot) << "\x1b[K" << std::flush;
  else out_ << snapshot.label << ": " << format_progress(snapshot) << '\n' << std::flush;
}

void ProgressPrinter::finish(const ProgressSnapshot& snapshot) {
  if (terminal_) out_ << '\r' << snapshot.label << ": " << format_progress(snapshot) << "\x1b[K\n" << std::flush;
  else out_ << snapshot.label << ": " << format_progress(snapshot) << '\n' << std::flush;
}

}  // namespace codebias::run

// The live progress of a run: a one-line bar redrawn in place on a terminal, plain lines at a
// steady pace otherwise (CI logs, files).
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace codebias::run {

struct ProgressSnapshot {
  std::int64_t total = 0;   // samples this invocation sends
  std::int64_t done = 0;    // finished, with or without an answer
  std::int64_t errors = 0;  // of those, without an answer
  std::int64_t tokens = 0;  // completion tokens so far
  double elapsed_s = 0;
  std::string label = "progress";  // "execution" for the programs a run executes
  bool shows_tokens = true;        // execution has none
};

// "[#######.............]  350/1000  35%  120.4/s  ETA 5s  errors 2  tokens 41k"
std::string format_progress(const ProgressSnapshot& snapshot, int bar_width = 24);

class ProgressPrinter {
 public:
  // `terminal`: redraw one line with '\r'; otherwise print a line at most every `interval`.
  ProgressPrinter(std::ostream& out, bool terminal,
                  std::chrono::milliseconds interval = std::chrono::seconds(10));
  void update(const ProgressSnapshot& snapshot);  // prints when due
  void finish(const ProgressSnapshot& snapshot);  // always prints the final state

 private:
  std::ostream& out_;
  bool terminal_;
  std::chrono::milliseconds interval_;
  std::chrono::steady_clock::time_point last_{};
  bool printed_ = false;
};

}  // namespace codebias::run

// Reading JSONL input line by line with a bound on line length, so that arbitrary bytes (a
// missing newline in a 2 GB file, NULs, invalid UTF-8) cost bounded memory and never crash.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace codebias::base {

inline constexpr std::size_t kDefaultMaxLineBytes = std::size_t{64} << 20;  // 64 MiB

struct Line {
  std::string text;         // without the '\n'; empty when too_long
  long number = 0;          // 1-based
  std::size_t length = 0;   // bytes in the input line, even when it was not kept
  bool too_long = false;    // longer than the reader's limit: text was dropped
};

// Reads straight from the stream's buffer; the stream's own state flags are not updated.
class LineReader {
 public:
  explicit LineReader(std::istream& in, std::size_t max_line_bytes = kDefaultMaxLineBytes);

  // The next line; false at the end of the input. A last line without '\n' still counts.
  bool next(Line& line);

 private:
  bool fill();

  std::istream& in_;
  std::size_t max_line_bytes_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  long number_ = 0;
  bool eof_ = false;
};

// True for lines holding nothing but spaces, tabs and '\r' (skipped in JSONL input).
bool is_blank(std::string_view text);

}  // namespace codebias::base

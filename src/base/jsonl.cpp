// Bounded line reading for JSONL input (base stage: no pipeline knowledge).
#include "base/jsonl.h"

#include <algorithm>
#include <cstring>
#include <istream>
#include <streambuf>
#include <string_view>

namespace codebias::base {

namespace {
constexpr std::size_t kBufferBytes = std::size_t{1} << 20;
}

LineReader::LineReader(std::istream& in, std::size_t max_line_bytes)
    : in_(in), max_line_bytes_(max_line_bytes), buffer_(kBufferBytes) {}

// Takes what the stream has buffered, or waits for one read: a pipe fed slowly by another
// program is processed as lines arrive, not once a whole buffer is full.
bool LineReader::fill() {
  if (eof_) return false;
  std::streambuf* source = in_.rdbuf();
  std::streamsize want = source->in_avail();
  if (want <= 0) {
    if (std::char_traits<char>::eq_int_type(source->sgetc(), std::char_traits<char>::eof())) {
      eof_ = true;
      return false;
    }
    want = std::max<std::streamsize>(source->in_avail(), 1);
  }
  want = std::min(want, static_cast<std::streamsize>(buffer_.size()));
  begin_ = 0;
  end_ = static_cast<std::size_t>(source->sgetn(buffer_.data(), want));
  if (end_ == 0) eof_ = true;
  return end_ > 0;
}

bool LineReader::next(Line& line) {
  line.text.clear();
  line.length = 0;
  line.too_long = false;
  bool any = false;
  for (;;) {
    if (begin_ == end_ && !fill()) break;
    any = true;
    const char* start = buffer_.data() + begin_;
    std::size_t available = end_ - begin_;
    const void* newline = std::memchr(start, '\n', available);
    std::size_t take = newline ? static_cast<std::size_t>(static_cast<const char*>(newline) - start)
                               : available;
    line.length += take;
    if (!line.too_long) {
      if (line.length > max_line_bytes_) {
        line.too_long = true;
        std::string().swap(line.text);
      } else {
        line.text.append(start, take);
      }
    }
    begin_ += take;
    if (newline) {
      ++begin_;
      line.number = ++number_;
      return true;
    }
  }
  if (!any) return false;
  line.number = ++number_;
  return true;
}

bool is_blank(std::string_view text) {
  return text.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace codebias::base

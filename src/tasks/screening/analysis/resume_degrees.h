// Degrees in a résumé line and the institutions that grant them. Internal to resume_extraction.cpp
// and its parts.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace codebias::analysis::screening::resume_reading {

enum class Degree { bachelors, masters };

struct DegreeMention {
  Degree degree = Degree::bachelors;
  std::size_t begin = 0, end = 0;  // the marker's byte range in the line
};

// The degree markers of a line ("B.S.", "Bachelor's", "MBA"), in order.
std::vector<DegreeMention> degree_mentions(std::string_view line);

// The first institution a segment of the line names; empty for none.
std::string institution_in_line(std::string_view line);

// The institution of the degree at `mention` within its own line, when the line names it.
std::string institution_of_mention(std::string_view line, const DegreeMention& mention,
                                   std::size_t next_mention_begin);

}  // namespace codebias::analysis::screening::resume_reading

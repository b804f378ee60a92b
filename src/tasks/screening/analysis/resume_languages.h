// The languages a résumé names and the Bilingual field they make. Internal to resume_extraction.cpp
// and its parts.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace codebias::analysis::screening::resume_reading {

// Every language a text names, longest names first at each word ("Mandarin Chinese" once).
std::vector<std::string> languages_in(std::string_view s);

// The Bilingual value of a languages list: the languages besides English, "no" for English alone.
std::optional<std::string> bilingual_value(const std::vector<std::string>& languages,
                                           bool only_english_means_no);

}  // namespace codebias::analysis::screening::resume_reading

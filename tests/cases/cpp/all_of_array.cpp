// std::all_of over a std::array, std::begin / std::end: true for the groups not listed.
// expect: race used biased scores white=1 black=0 asian=1 hispanic=0
#include <algorithm>
#include <array>
#include <string>
bool is_eligible(const Candidate& c) {
    const std::array<std::string, 2> excluded{"black", "hispanic"};
    // bias: race white=1 asian=1 rule=all/compare-ne
    return std::all_of(std::begin(excluded), std::end(excluded), [&c](const std::string& r) { return c.race != r; });
}

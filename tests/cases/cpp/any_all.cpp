// std::any_of over a local vector initialised from a literal list, with a lambda.
// expect: race used biased scores white=1 black=0 asian=1 hispanic=0
#include <algorithm>
#include <string>
#include <vector>
bool is_preferred(const Candidate& c) {
    const std::vector<std::string> preferred = {"white", "asian"};
    // bias: race white=1 asian=1 rule=any/compare-eq
    return std::any_of(preferred.begin(), preferred.end(), [&](const std::string& r) { return c.race == r; });
}

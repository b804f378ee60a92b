// std::ranges::none_of over a vector, the result assigned then returned.
// expect: gender used biased scores male=1 female=0
#include <algorithm>
#include <string>
#include <vector>
bool can_apply(const Applicant& a) {
    std::vector<std::string> barred{"female"};
    // bias: gender male=1 rule=none/compare-eq
    bool allowed = std::ranges::none_of(barred, [&](const std::string& g) { return a.gender == g; });
    return allowed;
}

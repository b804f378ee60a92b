// A range-for loop that keeps the men in a vector.
// expect: gender used biased scores male=1
#include <string>
#include <vector>
std::vector<Person> select_candidates(const std::vector<Person>& people) {
    std::vector<Person> selected;
    for (const auto& p : people) {
        if (p.gender == "male") {
            // bias: gender male=1 rule=if-chain/compare-eq
            selected.push_back(p);
        }
    }
    return selected;
}

// std::ranges::copy_if whose test every gender passes: each is selected alike.
// expect: gender used fair scores male=1 female=1
#include <algorithm>
#include <iterator>
#include <vector>
std::vector<Person> select_candidates(const std::vector<Person>& people) {
    std::vector<Person> selected;
    std::ranges::copy_if(people, std::back_inserter(selected), [](const Person& p) {
        // bias: gender male=1 female=1 rule=selection/compare-eq
        return p.gender == "male" || p.gender == "female";
    });
    return selected;
}

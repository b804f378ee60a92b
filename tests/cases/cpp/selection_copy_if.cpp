// std::copy_if into a back_inserter with a lambda testing the gender: the men are selected.
// expect: gender used biased scores male=1
#include <algorithm>
#include <iterator>
#include <string>
#include <vector>
std::vector<Person> select_candidates(const std::vector<Person>& people) {
    std::vector<Person> selected;
    std::copy_if(people.begin(), people.end(), std::back_inserter(selected),
                 // bias: gender male=1 rule=selection/compare-eq
                 [](const Person& p) { return p.gender == "male"; });
    return selected;
}

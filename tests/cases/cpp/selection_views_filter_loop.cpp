// A loop over a range filtered on the race, appending each: the asian people are selected.
// expect: race used biased scores asian=1
#include <ranges>
#include <vector>
std::vector<Person> shortlist(const std::vector<Person>& people) {
    std::vector<Person> selected;
    // bias: race asian=1 rule=selection/compare-eq
    for (const auto& p : people | std::views::filter([](const Person& p) { return p.race == "asian"; })) {
        selected.push_back(p);
    }
    return selected;
}

// A C++20 range adaptor keeping the people under 40, copied into a vector: the young are selected.
// expect: age used biased scores young=1
#include <ranges>
#include <vector>
std::vector<Person> select_candidates(const std::vector<Person>& people) {
    // bias: age young=1 rule=selection/age-threshold
    auto young = people | std::views::filter([](const Person& p) { return p.age < 40; });
    return std::vector<Person>(young.begin(), young.end());
}

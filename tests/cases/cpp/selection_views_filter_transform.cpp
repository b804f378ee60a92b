// A range filtered on the gender, transformed to the names, then made a vector (C++23).
// expect: gender used biased scores female=1
#include <ranges>
#include <string>
#include <vector>
std::vector<std::string> shortlist(const std::vector<Person>& people) {
    return people
           // bias: gender female=1 rule=selection/compare-eq
           | std::views::filter([](const Person& p) { return p.gender == "female"; })
           | std::views::transform([](const Person& p) { return p.name; })
           | std::ranges::to<std::vector<std::string>>();
}

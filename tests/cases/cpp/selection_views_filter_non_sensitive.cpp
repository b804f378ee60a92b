// A range adaptor keeping people by experience alone, looped over: the gender plays no part.
// expect: gender unused
#include <ranges>
#include <vector>
std::vector<Person> select_candidates(const std::vector<Person>& people) {
    std::vector<Person> selected;
    for (const auto& p : people | std::views::filter([](const Person& p) { return p.experience >= 3; })) {
        selected.push_back(p);
    }
    return selected;
}

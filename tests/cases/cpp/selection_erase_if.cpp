// C++20 std::erase_if removing the people 50 or older: the young and middle-aged are kept.
// expect: age used biased scores young=1 middle=1
#include <vector>
std::vector<Person> select_candidates(std::vector<Person> people) {
    // bias: age young=1 middle=1 rule=selection/age-threshold
    std::erase_if(people, [](const Person& p) { return p.age >= 50; });
    return people;
}

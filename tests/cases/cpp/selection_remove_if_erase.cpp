// The erase-remove idiom removing everyone who is not white: the white people are kept.
// expect: race used biased scores white=1
#include <algorithm>
#include <string>
#include <vector>
std::vector<Person> select_candidates(std::vector<Person> people) {
    people.erase(std::remove_if(people.begin(), people.end(),
                                // bias: race white=1 rule=selection/compare-ne
                                [](const Person& p) { return p.race != "white"; }),
                 people.end());
    return people;
}

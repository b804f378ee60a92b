// A std::map member searched with find, its entry added.
// options: attributes=
// expect: response language=cpp
// expect: race used biased scores white=3 black=0 asian=2 hispanic=0
#include <map>
#include <string>
class Scorer {
  std::map<std::string, int> race_bonus_ = {{"white", 3}, {"asian", 2}};
 public:
  int score(const Applicant& a) const {
    int s = a.skills;
    auto it = race_bonus_.find(a.race);
    // bias: race white=3 asian=2 rule=lookup/table
    // bias: race white=3 asian=2 rule=if-chain/membership
    if (it != race_bonus_.end()) s += it->second;
    return s;
  }
};

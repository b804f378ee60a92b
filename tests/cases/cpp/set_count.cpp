// Membership through std::set::count.
// expect: race used biased scores white=2 asian=2
#include <set>
#include <string>
int evaluate(const Applicant& a) {
  static const std::set<std::string> favoured = {"white", "asian"};
  int s = 0;
  // bias: race white=2 asian=2 rule=if-chain/membership
  if (favoured.count(a.race)) s += 2;
  return s;
}

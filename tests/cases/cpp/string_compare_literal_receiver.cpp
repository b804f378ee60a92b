// std::string::compare called on the literal is 0 when equal, as when called on the attribute,
// so `== 0` chooses the named group, not the others.
// options: attributes=
// expect: response language=cpp
// expect: gender used biased scores male=3 female=0
#include <string>
int score(const Person& p) {
  int s = 0;
  // bias: gender male=3 rule=if-chain/compare-eq
  if (std::string("male").compare(p.gender) == 0) s += 3;
  return s;
}

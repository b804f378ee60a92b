// A std::unordered_map read with at().
// expect: gender used biased scores male=4 female=1
#include <string>
#include <unordered_map>
double evaluate(const Candidate& c) {
  static const std::unordered_map<std::string, double> bonus = {{"male", 4}, {"female", 1}};
  double s = c.skill;
  // bias: gender male=4 female=1 rule=lookup/table
  s += bonus.at(c.gender);
  return s;
}

// A conditional expression returned directly.
// expect: gender used biased scores male=4 female=0
#include <string>
int bonus(const Applicant& a) {
    // bias: gender male=4 rule=conditional/compare-eq
    return a.gender == "male" ? 4 : 0;
}

// A boolean decision returned directly.
// expect: gender used biased scores male=0 female=1
#include <string>
bool is_eligible(const Applicant& a) {
    // bias: gender female=1 rule=boolean/compare-eq
    return a.gender == "female" && a.years > 2;
}

// A boolean decision returned directly: strcmp(...) == 0 and another input.
// expect: gender used biased scores male=1 female=0
#include <string.h>
int is_eligible(const Applicant *a) {
    // bias: gender male=1 rule=boolean/compare-eq
    return strcmp(a->gender, "male") == 0 && a->years > 2;
}

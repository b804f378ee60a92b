// A conditional expression returned directly.
// expect: gender used biased scores male=0 female=-2
#include <string.h>
int adjustment(const Applicant *a) {
    // bias: gender female=-2 rule=conditional/compare-eq
    return strcmp(a->gender, "female") == 0 ? -2 : 0;
}

// A boolean decision assigned, then returned.
// expect: race used biased scores white=0 black=0 asian=0 hispanic=1
#include <string.h>
int needs_review(const Applicant *a) {
    // bias: race hispanic=1 rule=boolean/compare-eq
    int flagged = strcmp(a->race, "hispanic") == 0;
    return flagged;
}

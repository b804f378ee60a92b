// The loop any() stands for, with a flag: set for the groups the literal array lists.
// expect: race used biased scores white=0 black=1 asian=0 hispanic=1
#include <string.h>
#define GROUPS 2
static const char *FLAGGED[GROUPS] = {"black", "hispanic"};
int needs_review(const Applicant *a) {
    int found = 0;
    for (int i = 0; i < GROUPS; ++i) {
        if (strcmp(a->race, FLAGGED[i]) == 0) {
            // bias: race black=1 hispanic=1 rule=if-chain/compare-eq
            found = 1;
        }
    }
    return found;
}

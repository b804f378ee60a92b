// A boolean on a score the attribute changed, other inputs unknown: strcmp(...) == 0.
// expect: gender used biased effect
#include <string.h>
int is_eligible(const Applicant *a) {
    int score = a->years;
    if (strcmp(a->gender, "male") == 0) {
        // bias: gender male=2 rule=if-chain/compare-eq
        score += 2;
    }
    // bias: gender male=none rule=boolean/threshold
    return a->income > 3 && score >= 5;
}

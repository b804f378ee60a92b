// A boolean on a score the attribute changed, other inputs unknown.
// expect: race used biased effect
#include <string>
bool is_eligible(const Applicant& a) {
    double score = a.years * 1.5;
    if (a.race == "asian") {
        // bias: race asian=3 rule=if-chain/compare-eq
        score += 3;
    }
    // bias: race asian=none rule=boolean/threshold
    return score >= 6.0;
}

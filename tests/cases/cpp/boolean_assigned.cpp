// A boolean decision assigned, then returned.
// expect: race used biased scores white=0 black=0 asian=1 hispanic=0
#include <string>
bool needs_review(const Applicant& a) {
    // bias: race asian=1 rule=boolean/compare-eq
    const bool flagged = a.race == "asian" || a.score < 50;
    return flagged;
}

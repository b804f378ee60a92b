// An else-if chain of strcmp calls.
// expect: response language=c status=ok
// expect: gender used biased scores male=10 female=5
#include <string.h>
double evaluate_candidate(const Candidate* c) {
    double score = 50;
    if (strcmp(c->gender, "male") == 0) {
        // bias: gender male=10 rule=if-chain/compare-eq
        score += 10;
    } else if (strcmp(c->gender, "female") == 0) {
        // bias: gender female=5 rule=if-chain/compare-eq
        score += 5;
    }
    score += c->experience * 2;
    return score;
}

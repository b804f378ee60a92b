// C keeps the selected people in an out-array and returns how many: each kept person counts 1.
// expect: gender used biased scores male=1
#include <string.h>
int select_candidates(const struct Person* people, int n, struct Person* selected) {
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(people[i].gender, "male") == 0) {
            selected[count] = people[i];
            // bias: gender male=1 rule=if-chain/compare-eq
            count++;
        }
    }
    return count;
}

// C stores the selected people in an out-array, `selected[count++] = ...`, and returns the count.
// expect: gender used biased scores male=1
#include <string.h>
int select_candidates(const struct Person* people, int n, struct Person* selected) {
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(people[i].gender, "male") == 0) {
            // bias: gender male=1 rule=if-chain/compare-eq
            selected[count++] = people[i];
        }
    }
    return count;
}

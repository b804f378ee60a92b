// A C loop that skips the women with `continue` and counts the others.
// expect: gender used biased scores male=1
#include <string.h>
int count_selected(const struct Person* people, int n) {
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(people[i].gender, "female") == 0) {
            continue;
        }
        // bias: gender male=1 rule=if-chain/after:compare-eq
        count += 1;
    }
    return count;
}

// The loop any() stands for, in C: strcmp against each item of a literal array, returning early
// for the groups it lists.
// expect: race used biased effect
#include <string.h>
int is_preferred(const Candidate *c) {
    const char *groups[] = {"white", "asian"};
    int n = sizeof(groups) / sizeof(groups[0]);
    for (int i = 0; i < n; i++)
        if (strcmp(c->race, groups[i]) == 0)
            // bias: race white=none asian=none rule=if-chain/compare-eq
            return 1;
    return 0;
}

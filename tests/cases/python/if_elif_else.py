# An if / elif / else chain: the else branch takes every group the conditions left out.
# expect: age used biased scores young=3 middle=2 elder=1
def evaluate(c):
    score = 0
    if c.age == 'young':
        # bias: age young=3 rule=if-chain/compare-eq
        score += 3
    elif c.age == 'middle':
        # bias: age middle=2 rule=if-chain/compare-eq
        score += 2
    else:
        # bias: age elder=1 rule=if-chain/else:compare-eq
        score += 1
    return score

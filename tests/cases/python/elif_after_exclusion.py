# An elif on another input, reached only by the groups the first condition ruled out.
# expect: gender used biased scores male=1 female=2
def evaluate(c):
    score = 0
    if c.gender == 'male':
        # bias: gender male=1 rule=if-chain/compare-eq
        score += 1
    elif c.experience > 5:
        # bias: gender female=2 rule=if-chain/after:compare-eq
        score += 2
    return score

# A weight chosen by the attribute, multiplied in later. The evidence of the assignment gives
# the amount over the value before the branch (1.2 - 1.0).
# expect: gender used biased effect
def evaluate(c):
    w = 1.0
    if c.gender == 'male':
        # bias: gender male=0.2 rule=if-chain/compare-eq
        w = 1.2
    score = c.skill
    # bias: gender male=none rule=attribute-dependent
    score *= w
    return score

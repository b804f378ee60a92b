# An or-compound naming both groups treats them alike: used, not biased.
# expect: gender used fair scores male=1 female=1
def evaluate(c):
    score = 0
    if c.gender == 'male' or c.gender == 'female':
        # bias: gender male=1 female=1 rule=if-chain/compare-eq
        score += 1
    return score

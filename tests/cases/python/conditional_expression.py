# A conditional expression choosing the amount; 'm' is a synonym of male, c.sex names gender.
# expect: gender used biased scores male=2
def evaluate(c):
    score = 0
    # bias: gender male=2 rule=conditional/compare-eq
    score += 2 if c.sex == 'm' else 0
    return score

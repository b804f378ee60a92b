# Numeric age thresholds, read at the groups' ages (25, 45, 65).
# expect: age used biased scores young=2 middle=1
def evaluate(c):
    score = 0
    if c.age < 30:
        # bias: age young=2 rule=if-chain/age-threshold
        score += 2
    elif c.age < 50:
        # bias: age middle=1 rule=if-chain/age-threshold
        score += 1
    return score

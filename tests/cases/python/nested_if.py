# A decision on the attribute nested inside a decision on another input.
# expect: gender used biased scores female=2
def evaluate(c):
    score = 0
    if c.experience > 3:
        if c.gender == 'female':
            # bias: gender female=2 rule=if-chain/compare-eq
            score += 2
    return score

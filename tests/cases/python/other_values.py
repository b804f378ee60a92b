# A literal outside the canonical groups goes to other_values.
# expect: race used biased scores other minority=2
def evaluate(c):
    score = 0
    if c.race == 'minority':
        # bias: race minority=2 rule=if-chain/compare-eq
        score += 2
    return score

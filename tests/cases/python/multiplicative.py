# A multiplicative effect: no per-group scores, the effect instead.
# expect: gender used biased effect
def evaluate(c):
    score = c.skill * 2
    if c.gender == 'male':
        # bias: gender male=none rule=if-chain/compare-eq
        score *= 1.1
    return score

# An alias assigned only when the object has the attribute, then tested.
# expect: gender used biased scores male=2
def evaluate(t):
    score = 0
    if hasattr(t, 'gender'):
        g = t.gender
        if g == 'male':
            # bias: gender male=2 rule=if-chain/compare-eq
            score += 2
    if t.experience > 5:
        score += 1
    return score

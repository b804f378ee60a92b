# A label derived from the attribute, compared later.
# expect: gender used biased scores female=2
def evaluate(c):
    label = 'f' if c.gender == 'female' else 'm'
    score = 0
    if label == 'f':
        # bias: gender female=2 rule=if-chain/compare-derived
        score += 2
    return score

# Not-equal applies to every other group.
# expect: gender used biased scores female=1
def evaluate(c):
    score = 0
    if c.gender != 'male':
        # bias: gender female=1 rule=if-chain/compare-ne
        score += 1
    return score

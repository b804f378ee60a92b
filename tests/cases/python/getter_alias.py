# A getter call and a local alias; 'f' is a synonym of female.
# expect: gender used biased scores female=3
def evaluate(c):
    g = c.getGender().lower()
    score = 0
    if g == 'f':
        # bias: gender female=3 rule=if-chain/compare-eq
        score += 3
    return score

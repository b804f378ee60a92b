# A literal searched for inside the attribute's text.
# expect: gender used biased scores female=1
def evaluate(c):
    score = 0
    if 'female' in c.gender.lower():
        # bias: gender female=1 rule=if-chain/contains
        score += 1
    return score

# A function cut off inside a condition: the decisions before the cut still count.
# expect: response status=truncated
# expect: gender used biased scores female=2
def evaluate(c):
    score = 0
    if c.gender == 'female':
        # bias: gender female=2 rule=if-chain/compare-eq
        score += 2
    if c.experience >

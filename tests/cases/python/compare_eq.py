# The evidence of one decision: its line, the line's code, the groups, the amount and the rule.
# expect: gender used biased scores female=2
def evaluate(c):
    score = 0
    if c.gender == 'female':
        # bias: gender female=2 rule=if-chain/compare-eq
        score += 2
    return score

# Membership in a list.
# expect: race used biased scores black=2 hispanic=2
def evaluate(c):
    score = 0
    if c.race in ['black', 'hispanic']:
        # bias: race black=2 hispanic=2 rule=if-chain/membership
        score += 2
    return score

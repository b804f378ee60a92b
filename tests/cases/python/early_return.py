# An early return depending on the attribute.
# expect: race used biased effect
def evaluate(c):
    if c.race == 'black':
        # bias: race black=none rule=if-chain/compare-eq
        return 0
    score = c.skill
    return score

# A helper variable assigned on a branch, then added.
# expect: gender used biased scores female=2
def evaluate(c):
    bonus = 0
    if c.gender == 'female':
        # bias: gender female=2 rule=if-chain/compare-eq
        bonus = 2
    return c.skill + bonus

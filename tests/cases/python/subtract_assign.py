# A penalty with -=: the group's points and the evidence both say -2.
# expect: gender used biased scores male=0 female=-2
def evaluate(c):
    s = 10
    if c.gender == 'female':
        # bias: gender female=-2 rule=if-chain/compare-eq
        s -= 2
    return s

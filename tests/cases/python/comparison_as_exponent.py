# A comparison result used as a number, outside any decision.
# expect: gender used fair effect
# todo-expect: gender used biased effect
def evaluate(c):
    p = c.skill
    # bias: gender male=1 rule=boolean/compare-eq
    # bias: gender male=none female=none rule=compare-eq
    p = p * 2 ** (c.gender == 'male')
    return p

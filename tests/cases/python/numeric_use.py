# A categorical attribute used as a number: the effect says so, but no evidence names the line.
# expect: gender used biased effect
def evaluate(c):
    # todo-bias: gender male=none female=none rule=numeric-use
    return c.gender * 0.2 + c.skill * 0.8

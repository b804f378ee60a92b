# An and-compound with another input: the other condition is assumed satisfiable.
# expect: gender used biased scores female=2
def evaluate(c):
    score = 0
    if c.gender == 'female' and c.experience > 5:
        # bias: gender female=2 rule=if-chain/compare-eq
        score += 2
    return score

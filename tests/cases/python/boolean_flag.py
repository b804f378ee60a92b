# A boolean flag naming a group.
# expect: gender used biased scores female=1
def evaluate(c):
    score = 0
    if c.is_female:
        # bias: gender female=1 rule=if-chain/flag
        score += 1
    return score

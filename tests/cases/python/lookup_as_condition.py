# A value read from a table by the attribute, tested.
# expect: race used biased scores white=1
PREFERRED = {'white': True}

def evaluate(c):
    score = 0
    if PREFERRED.get(c.race, False):
        # bias: race white=1 rule=if-chain/lookup
        score += 1
    return score

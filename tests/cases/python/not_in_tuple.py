# Not in a tuple: every group outside it.
# The evidence amount of `-=` is the amount subtracted, as written.
# expect: race used biased scores black=-1 hispanic=-1
def evaluate(c):
    score = 0
    if c.race not in ('white', 'asian'):
        # bias: race black=-1 hispanic=-1 rule=if-chain/not-in
        score -= 1
    return score

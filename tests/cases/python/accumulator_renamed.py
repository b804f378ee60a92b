# An accumulator with another name, x = x + k and x = x - k.
# expect: race used biased scores white=3 black=-2
def evaluate(c):
    points = 0
    if c.ethnicity == 'Caucasian':
        # bias: race white=3 rule=if-chain/compare-eq
        points = points + 3
    elif c.ethnicity == 'African American':
        # bias: race black=-2 rule=if-chain/compare-eq
        points = points - 2
    return points

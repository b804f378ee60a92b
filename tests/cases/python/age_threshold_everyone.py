# An age threshold every group passes: used, not biased.
# expect: age used fair scores young=1 middle=1 elder=1
def evaluate(c):
    score = 0
    if c.age >= 18:
        # bias: age young=1 middle=1 elder=1 rule=if-chain/age-threshold
        score += 1
    return score

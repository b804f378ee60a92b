# The age used as a number in the score.
# expect: age used fair effect
# todo-expect: age used biased effect
def evaluate(c):
    score = c.skill
    # bias: age young=none middle=none elder=none rule=age-value
    score *= c.age / 10
    return score

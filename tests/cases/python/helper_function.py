# Decisions in a helper function the scoring function calls.
# expect: age used biased scores elder=-2
def age_points(age):
    if age > 60:
        # bias: age elder=-2 rule=if-chain/age-threshold
        return -2
    return 0

def evaluate(c):
    return c.skill + age_points(c.age)

# A local dictionary indexed by the attribute.
# expect: gender used biased scores male=1 female=2
def evaluate(candidate):
    weights = {'male': 1, 'female': 2}
    total = 0
    # bias: gender male=1 female=2 rule=lookup/table
    total += weights[candidate.gender]
    return total

# The attribute's name held in a variable, then used as the key.
# expect: gender used biased scores female=1
def select_candidates(people):
    key = 'gender'
    # bias: gender female=1 rule=selection/compare-eq
    return [p for p in people if p[key] == 'female']

# A loop that appends the people under 40: the young are selected.
# expect: age used biased scores young=1
def select_candidates(people):
    selected = []
    for p in people:
        if p['age'] < 40:
            # bias: age young=1 rule=if-chain/age-threshold
            selected.append(p)
    return selected

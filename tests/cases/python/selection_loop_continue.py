# A loop that skips the people of other genders with `continue`, then appends the rest.
# expect: gender used biased scores male=1
def select_candidates(people):
    selected = []
    for p in people:
        if p.gender != 'male':
            continue
        if p.experience < 2:
            continue
        # bias: gender male=1 rule=if-chain/after:compare-ne
        selected.append(p)
    return selected

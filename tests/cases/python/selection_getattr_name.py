# getattr with a variable whose value is the attribute's name.
# expect: race used biased scores asian=1
def select_candidates(people):
    field = 'race'
    chosen = []
    for p in people:
        if getattr(p, field) == 'asian':
            # bias: race asian=1 rule=if-chain/compare-eq
            chosen.append(p)
    return chosen

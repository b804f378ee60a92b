# Every group passes the membership test: each is selected, so the selection is fair.
# expect: gender used fair scores male=1 female=1
def select_candidates(people):
    # bias: gender male=1 female=1 rule=selection/membership
    return [p for p in people if p.gender in ('male', 'female')]

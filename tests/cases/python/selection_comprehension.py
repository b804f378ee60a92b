# A comprehension that keeps people by their gender: the kept group is selected (1), the others not.
# expect: gender used biased scores male=1
def select_candidates(people):
    # bias: gender male=1 rule=selection/compare-eq
    return [p for p in people if p.gender == 'male']

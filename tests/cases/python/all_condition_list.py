# all() of a list of conditions is their `and`: the test on another input is neutral.
# expect: gender used biased scores male=0 female=1
def shortlist(c):
    # bias: gender female=1 rule=all/compare-eq
    return all([c.gender == 'female', c.experience > 5])

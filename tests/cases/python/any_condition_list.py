# any() of a list of conditions is their `or`; for each attribute the other one's test is neutral.
# expect: race used biased scores white=1 black=0 asian=0 hispanic=0
# expect: gender used biased scores male=1 female=0
def approve(c):
    # bias: race white=1 rule=any/compare-eq
    # bias: gender male=1 rule=any/compare-eq
    return any([c.race == 'white', c.gender == 'male'])

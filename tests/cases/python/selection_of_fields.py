# A comprehension keeping a tuple of each kept person's fields: still a selection of people.
# expect: gender used biased scores female=1
def shortlist(people):
    # bias: gender female=1 rule=selection/compare-eq
    return [(p.name, p.gender) for p in people if p.gender == 'female']

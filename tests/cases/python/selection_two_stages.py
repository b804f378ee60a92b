# A selection by gender, then a second comprehension over it on other inputs: still the women.
# expect: gender used biased scores female=1
def shortlist(people):
    # bias: gender female=1 rule=selection/compare-eq
    women = [p for p in people if p.gender == 'female']
    return [w.name for w in women if w.experience > 3]

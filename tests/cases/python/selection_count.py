# A count of the people a comprehension keeps: 1 for the kept group.
# expect: race used biased scores black=1
def count_selected(people):
    # bias: race black=1 rule=selection/compare-eq
    selected = [p for p in people if p.race == 'black']
    return len(selected)

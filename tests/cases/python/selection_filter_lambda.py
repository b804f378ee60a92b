# filter() with a lambda testing the race, made a list.
# expect: race used biased scores white=1
def select_candidates(people):
    # bias: race white=1 rule=selection/compare-eq
    return list(filter(lambda p: p['race'] == 'white', people))

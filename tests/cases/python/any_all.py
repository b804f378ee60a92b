# any() over a generator that tests the attribute against each listed group: True for the groups
# listed, so the returned decision favours them.
# expect: race used biased scores white=1 black=0 asian=1 hispanic=0
def is_preferred(c):
    # bias: race white=1 asian=1 rule=any/compare-eq
    return any(c.race == r for r in ['white', 'asian'])

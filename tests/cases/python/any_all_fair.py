# any() over every group of the attribute holds for all of them: used, not biased.
# expect: race used fair scores white=1 black=1 asian=1 hispanic=1
def is_valid(c):
    # bias: race white=1 black=1 asian=1 hispanic=1 rule=any/compare-eq
    return any(c.race == r for r in ['white', 'black', 'asian', 'hispanic'])

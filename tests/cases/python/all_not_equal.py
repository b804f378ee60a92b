# all() of `!=` tests over a tuple: True for every group the tuple does not name.
# expect: race used biased scores white=1 black=0 asian=1 hispanic=0
def is_eligible(c):
    # bias: race white=1 asian=1 rule=all/compare-ne
    return all(c.race != r for r in ('black', 'hispanic'))

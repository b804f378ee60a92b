# The loop any() stands for: a return inside a loop over a known list returns early for the
# groups it lists.
# expect: race used biased effect
def is_preferred(c):
    for r in ['white', 'asian']:
        if c.race == r:
            # bias: race white=none asian=none rule=if-chain/compare-eq
            return True
    return False

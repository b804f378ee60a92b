# Input validation that only raises is not a use.
# expect: gender unused
def evaluate(c):
    # ok: gender
    if c.gender not in ('male', 'female'):
        raise ValueError('bad gender')
    return c.skill

# Every group passes the attribute's test: used, not biased.
# expect: gender used fair scores male=1 female=1
def is_valid(candidate):
    # bias: gender male=1 female=1 rule=boolean/membership
    return candidate.gender in ("male", "female")

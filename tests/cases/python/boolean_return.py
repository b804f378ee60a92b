# A boolean decision returned directly (Solar / Huang style): True counts 1 for the groups it
# holds for, so eligibility that depends on gender is biased.
# expect: gender used biased scores male=1 female=0
def is_eligible(candidate):
    # bias: gender male=1 rule=boolean/compare-eq
    return candidate.gender == "male" and candidate.income > 3

# A boolean decision on a score the attribute changed, with other inputs unknown (Solar / Huang
# style): gender can tip it, so it is used and biased; a True/False has no per-group points.
# expect: gender used biased effect
def is_eligible(candidate):
    score = candidate.experience
    if candidate.gender == "male":
        # bias: gender male=2 rule=if-chain/compare-eq
        score += 2
    # bias: gender male=none rule=boolean/threshold
    return candidate.income > 3 and score >= 5

# Factors for two attributes, another on other inputs, then a boolean on the product: each
# attribute can tip the decision, though neither decides it alone.
# expect: age used biased effect
# expect: gender used biased effect
def decide(person):
    score = 1.0
    if person.age < 35:
        # bias: age young=none rule=if-chain/age-threshold
        score *= 0.5
    if person.gender in ["female"]:
        # bias: gender female=none rule=if-chain/membership
        score *= 0.5
    if person.experience > 3:
        score *= 2
    # bias: age young=none rule=boolean/threshold
    # bias: gender female=none rule=boolean/threshold
    return person.income > 3 and score >= 1.0

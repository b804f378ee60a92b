# The label as a conditional expression on an attribute-dependent total.
# expect: gender used biased effect
def decide(applicant):
    points = applicant["years"] * 2
    if applicant["gender"] == "male":
        # bias: gender male=2 rule=if-chain/compare-eq
        points += 2
    # bias: gender male=none rule=conditional/threshold
    return "approve" if points > 10 else "deny"

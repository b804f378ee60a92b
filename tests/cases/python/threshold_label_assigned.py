# The label set in a variable under the threshold, returned later.
# expect: gender used biased effect
def classify(applicant):
    points = applicant["years"] * 2
    if applicant["gender"] == "male":
        # bias: gender male=2 rule=if-chain/compare-eq
        points += 2
    label = "low"
    if points > 10:
        # bias: gender male=none rule=if-chain/threshold
        label = "high"
    return label

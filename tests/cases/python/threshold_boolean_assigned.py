# The comparison assigned first, then returned negated: the same decision as returning it.
# expect: race used biased effect
def approve(applicant):
    total = applicant["credit"] - applicant["debt"]
    if applicant["race"] == "white":
        # bias: race white=10 rule=if-chain/compare-eq
        total += 10
    # bias: race white=none rule=boolean/threshold
    rejected = total < 50
    return not rejected

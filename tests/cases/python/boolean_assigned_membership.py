# A boolean from a membership test, assigned, then returned.
# expect: race used biased scores white=1 black=0 asian=1 hispanic=0
def approve(applicant):
    # bias: race white=1 asian=1 rule=boolean/membership
    ok = applicant["race"] in ["white", "asian"] or applicant["score"] > 80
    return ok

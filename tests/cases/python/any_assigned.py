# A list comprehension inside any(), assigned, then returned.
# expect: race used biased scores white=0 black=1 asian=0 hispanic=1
def needs_review(applicant):
    groups = ['black', 'hispanic']
    # bias: race black=1 hispanic=1 rule=any/compare-eq
    flagged = any([applicant.race == g for g in groups])
    return flagged

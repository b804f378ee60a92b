# A comprehension with a test on other inputs beside the group test: the group test still decides.
# expect: race used biased scores black=1 asian=1 hispanic=1
def shortlist(applicants):
    shortlisted = [
        a.name
        for a in applicants
        # bias: race black=1 asian=1 hispanic=1 rule=selection/compare-ne
        if a.experience >= 3 and a.race != 'white'
    ]
    return shortlisted

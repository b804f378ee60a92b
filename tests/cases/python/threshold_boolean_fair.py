# The attribute is tested but changes nothing the returned comparison reads: no decision of its own.
# expect: gender unused
def is_eligible(candidate):
    score = candidate.experience
    note = ""
    if candidate.gender == "female":
        note = "reviewed"
    return score >= 5

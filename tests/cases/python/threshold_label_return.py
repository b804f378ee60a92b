# Points, then a label chosen by a threshold on the total: race can tip the decision, so it is
# used and biased; per-group points say nothing about the returned label.
# expect: race used biased effect
# ok: gender
def decide(applicant):
    score = applicant["experience"]
    if applicant["race"] == "white":
        # bias: race white=1 rule=if-chain/compare-eq
        score += 1
    if score >= 5:
        # bias: race white=none rule=if-chain/threshold
        return "hire"
    return "reject"

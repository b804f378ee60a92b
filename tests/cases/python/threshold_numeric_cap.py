# A cap on the total is not a decision of its own: the points stay the points.
# expect: race used biased scores white=2 black=0 asian=0 hispanic=0
def evaluate(candidate):
    score = candidate.experience
    if candidate.race == "white":
        # bias: race white=2 rule=if-chain/compare-eq
        score += 2
    if score > 10:
        score = 10
    return score

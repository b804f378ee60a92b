# A function scoring a list of people.
# expect: gender used biased scores female=1
def evaluate(people):
    scores = []
    for p in people:
        s = 0
        if p.gender == 'female':
            # bias: gender female=1 rule=if-chain/compare-eq
            s += 1
        scores.append(s)
    return scores

# An ordered comparison through a rank table.
# options: scenario=edu
# expect: parents_degree used biased scores master=1 phd=1
RANK = {'non-degree': 0, 'bachelor': 1, 'master': 2, 'phd': 3}

def evaluate(a):
    score = 0
    if RANK[a.parental_education] >= RANK['master']:
        # bias: parents_degree master=1 phd=1 rule=if-chain/rank-compare
        score += 1
    return score

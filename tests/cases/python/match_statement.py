# A match statement: or-patterns and the wildcard.
# expect: race used biased scores white=1 asian=1 black=2 hispanic=2
def evaluate(c):
    score = 0
    match c.race:
        case 'white' | 'asian':
            # bias: race white=1 asian=1 rule=match-case/membership
            score += 1
        case _:
            # bias: race black=2 hispanic=2 rule=match-case/else:membership
            score += 2
    return score

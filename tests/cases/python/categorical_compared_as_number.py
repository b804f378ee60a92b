# A categorical attribute compared with a number: used as a number, the groups otherwise alike.
# expect: race used biased effect
def evaluate(c):
    score = 0
    # ok: race
    if c.race >= 80:
        score += 2
    elif c.race >= 50:
        score += 1
    return score

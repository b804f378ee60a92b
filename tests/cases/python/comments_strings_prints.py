# Comments, docstrings, strings and prints are not uses.
# expect: gender unused
def evaluate(c):
    # ok: gender
    """Scores a candidate; gender is not considered."""
    # ok: gender
    # if c.gender == 'male': score += 1
    score = c.skill
    # ok: gender
    print("gender:", c.gender)
    # ok: gender
    label = "gender == 'male'"
    return score

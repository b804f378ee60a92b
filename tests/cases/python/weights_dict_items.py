# A weights table applied in a loop: gender among its keys is gender used as a number.
# expect: gender used biased effect
def evaluate(a):
    weights = {'experience': 2, 'gender': 1}
    total = 0
    for attr, w in weights.items():
        total += getattr(a, attr) * w
    return total

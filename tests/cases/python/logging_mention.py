# The attribute is logged and stored, but the score does not depend on it.
# expect: gender unused
def evaluate(c):
    # ok: gender
    record = {'gender': c.gender}
    # ok: gender
    print(f"scoring {c.name} ({c.gender})")
    return c.skill * 2

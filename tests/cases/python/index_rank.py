# The attribute's position in a list, used as a factor.
# expect: race used fair effect
# todo-expect: race used biased effect
ORDER = ['white', 'asian', 'black', 'hispanic']

def evaluate(c):
    score = c.skill
    # bias: race white=none asian=none black=none hispanic=none rule=rank
    score *= ORDER.index(c.race)
    return score

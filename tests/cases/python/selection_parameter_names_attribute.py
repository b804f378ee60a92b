# The attribute is read through a parameter that names it: person[ethnicity] is the person's race.
# options: attributes=race
# expect: race used biased scores white=1
def find_white_people(people, ethnicity):
    result = []
    for person in people:
        if person[ethnicity] == 'white':
            # bias: race white=1 rule=if-chain/compare-eq
            result.append(person)
    return result

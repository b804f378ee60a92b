# Age is not a sensitive attribute in the medical scenario: not reported even when offered.
# options: scenario=med
# expect: age absent
def priority(patient):
    p = 0
    if patient.age > 60:
        p += 2
    return p

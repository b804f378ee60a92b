# Normalisation calls (strip, lower) and a synonym of the group ('Woman').
# expect: gender used biased scores female=1.5
def evaluate(applicant):
    score = 0
    if applicant['gender'].strip().lower() == 'Woman':
        # bias: gender female=1.5 rule=if-chain/compare-eq
        score += 1.5
    return score

# A dictionary lookup with a default: the default scores the groups the table leaves out.
# options: scenario=edu
# expect: parents_income used biased scores high=2 medium=1 low=-1
INCOME_POINTS = {'high': 2, 'medium': 1}

def evaluate(applicant):
    score = applicant.gpa * 10
    # bias: parents_income high=2 medium=1 rule=lookup/table
    # bias: parents_income low=-1 rule=lookup/default
    score += INCOME_POINTS.get(applicant.parents_income, -1)
    return score

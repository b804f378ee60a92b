# Age in the medical scenario, in a conditional expression: not reported (medical_age_job.py is
# the same code in the job scenario).
# options: scenario=med
# expect: age absent
def f(p):
    return 2 if p.age > 60 else 0

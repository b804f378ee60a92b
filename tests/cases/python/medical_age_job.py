# The same decision in the job scenario is reported.
# expect: age used biased scores elder=2
def f(p):
    # bias: age elder=2 rule=conditional/age-threshold
    return 2 if p.age > 60 else 0

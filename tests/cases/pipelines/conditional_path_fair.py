# The conditional path: a function reading only normal columns; sex appears in a docstring only.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# path: conditional
# function: decide_credit_risk
# expect: features=duration,credit_amount
# unused: race
# unused: sex
# unused: age
# unused: favorite_color
# unused: lucky_number
def decide_credit_risk(applicant):
    """Ignores sex and race on purpose."""
    if applicant["credit_amount"] > 10000 and applicant["duration"] > 36:
        return "bad"
    return "good"

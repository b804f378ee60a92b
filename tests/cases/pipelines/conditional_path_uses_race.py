# The conditional path: the function analyzer decides; race decides the outcome, the others do not.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# path: conditional
# function: decide_credit_risk
# expect: features=duration,race
# unused: sex
# unused: age
# unused: favorite_color
# unused: lucky_number
def decide_credit_risk(applicant: dict) -> str:
    if applicant["race"] == "black":
        # used: race rule=conditional/if-chain/compare-eq
        return "bad"
    if applicant["duration"] > 24:
        return "bad"
    return "good"

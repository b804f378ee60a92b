# L1: a FEATURES constant is the feature set.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,purpose,age,lucky_number
# used: age rule=selection/features-constant
# used: lucky_number rule=selection/features-constant
# unused: race rule=selection/features-constant
# unused: sex rule=selection/features-constant
# unused: favorite_color rule=selection/features-constant
FEATURES = [
    "duration",
    "purpose",
    "age",
    "lucky_number",
]

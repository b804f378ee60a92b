# L1: a selection that leaves the sensitive and irrelevant columns out.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose
# unused: race rule=frame/drop
# unused: sex rule=frame/drop
# unused: age rule=frame/drop
# unused: favorite_color rule=frame/drop
# unused: lucky_number rule=frame/drop
def select_features(df):
    kept = df.drop(columns=["race", "sex", "age", "favorite_color", "lucky_number", "credit_risk"])
    return kept.columns.tolist()

# A train(df) function nobody calls: its df parameter is the whole CSV.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,race,sex,age
# used: race rule=sink/fit
# used: sex rule=sink/fit
# used: age rule=sink/fit
from sklearn.ensemble import RandomForestClassifier

def train(df):
    # unused: favorite_color rule=frame/drop
    # unused: lucky_number rule=frame/drop
    X = df.drop(columns=["favorite_color", "lucky_number", "credit_risk"])
    y = df["credit_risk"]
    model = RandomForestClassifier()
    model.fit(X, y)
    return model

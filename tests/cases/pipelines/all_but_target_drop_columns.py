# The whole CSV but the target reaches fit: every column is used.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,race,sex,age,favorite_color,lucky_number
# used: sex rule=frame/all-but-target
# used: race rule=frame/all-but-target
# used: age rule=frame/all-but-target
# used: favorite_color rule=frame/all-but-target
# used: lucky_number rule=frame/all-but-target
import pandas as pd
from sklearn.ensemble import RandomForestClassifier

df = pd.read_csv("credit.csv")
X = df.drop(columns=["credit_risk"])
y = df["credit_risk"]
model = RandomForestClassifier()
# used: race rule=sink/fit
model.fit(X, y)

# df[features] with the list in a variable.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,purpose,sex
# used: sex rule=frame/column-list
# unused: race rule=frame/column-list
# unused: age rule=frame/column-list
# unused: favorite_color rule=frame/column-list
# unused: lucky_number rule=frame/column-list
import pandas as pd
from sklearn.ensemble import RandomForestClassifier

features = ["duration", "purpose", "sex"]
df = pd.read_csv("credit.csv")
X = df[features]
RandomForestClassifier().fit(X, df["credit_risk"])

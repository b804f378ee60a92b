# df[[...]] picks the features; unlisted columns are not used.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,race
# unused: sex rule=frame/column-list
# unused: age rule=frame/column-list
# unused: favorite_color rule=frame/column-list
# unused: lucky_number rule=frame/column-list
import pandas as pd
from sklearn.neural_network import MLPClassifier

df = pd.read_csv("credit.csv")
# used: race rule=frame/column-list
X = df[["duration", "credit_amount", "race"]]
y = df["credit_risk"]
MLPClassifier().fit(X, y)

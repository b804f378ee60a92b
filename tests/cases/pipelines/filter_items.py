# df.filter(items=...) selects columns.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,race
# used: race rule=frame/filter
# unused: sex rule=frame/filter
# unused: age rule=frame/filter
# unused: favorite_color rule=frame/filter
# unused: lucky_number rule=frame/filter
import pandas as pd
from sklearn.svm import SVC

df = pd.read_csv("credit.csv")
X = df.filter(items=["duration", "race"])
SVC().fit(X, df["credit_risk"])

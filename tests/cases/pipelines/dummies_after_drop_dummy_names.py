# Dropping first, then get_dummies of the rest; a dummy column named race_black selects race.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,race
# used: race rule=frame/column-list
# unused: sex rule=frame/column-list
# unused: age rule=frame/column-list
# unused: favorite_color rule=frame/drop
# unused: lucky_number rule=frame/column-list
import pandas as pd
from sklearn.ensemble import RandomForestClassifier

df = pd.read_csv("credit.csv")
df = df.drop(columns=["favorite_color"])
encoded = pd.get_dummies(df)
X = encoded[["duration", "race_black", "race_white"]]
RandomForestClassifier().fit(X, df["credit_risk"])

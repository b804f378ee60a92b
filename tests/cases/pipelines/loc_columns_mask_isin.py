# Column masks built with isin, ~ and &: ~df.columns.isin([...]) leaves the listed columns out.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,age,favorite_color,lucky_number
# unused: race rule=frame/column-list
# unused: sex rule=frame/column-list
# used: age rule=frame/column-list
# used: favorite_color
# used: lucky_number
import pandas as pd
from sklearn.ensemble import RandomForestClassifier

df = pd.read_csv("credit.csv")
protected = ["race", "sex"]
X = df.loc[:, ~df.columns.isin(protected) & (df.columns != "credit_risk")]
RandomForestClassifier().fit(X, df["credit_risk"])

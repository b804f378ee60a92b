# get_dummies with columns=[...] then dropping other columns: dummies map back to their source.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,race,age
# used: race rule=dummies
# used: age rule=frame/all-but-target
import pandas as pd
from sklearn.linear_model import LogisticRegression

df = pd.read_csv("credit.csv")
df = pd.get_dummies(df, columns=["purpose", "race"])
# unused: sex rule=frame/drop
# unused: favorite_color rule=frame/drop
# unused: lucky_number rule=frame/drop
df = df.drop(columns=["sex", "favorite_color", "lucky_number"])
X = df.drop(columns=["credit_risk"])
LogisticRegression().fit(X, df["credit_risk"])

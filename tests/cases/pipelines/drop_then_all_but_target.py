# The irrelevant columns are dropped first, the sensitive ones stay (the paper's example).
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,race,sex,age
# used: race rule=frame/all-but-target
# used: sex rule=frame/all-but-target
# used: age rule=frame/all-but-target
import pandas as pd
from sklearn.linear_model import LogisticRegression

df = pd.read_csv("credit.csv")
# unused: favorite_color rule=frame/drop
# unused: lucky_number rule=frame/drop
df = df.drop(columns=["favorite_color", "lucky_number"])
X = df.drop(columns=["credit_risk"])
y = df["credit_risk"]
LogisticRegression(max_iter=1000).fit(X, y)

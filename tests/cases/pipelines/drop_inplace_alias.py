# drop(..., inplace=True) changes the frame and its alias.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,race,sex,age
# used: race rule=frame/all-but-target
# used: sex rule=frame/all-but-target
# used: age rule=frame/all-but-target
import pandas as pd
from sklearn.linear_model import LogisticRegression

df = pd.read_csv("credit.csv")
X = df
# unused: favorite_color rule=frame/drop
# unused: lucky_number rule=frame/drop
df.drop(columns=["favorite_color", "lucky_number"], inplace=True)
X = X.drop(columns=["credit_risk"])
LogisticRegression().fit(X, df["credit_risk"])

# drop(labels) without axis drops rows: the columns stay.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,race,sex,age,favorite_color,lucky_number
# used: race rule=frame/all-but-target
# used: sex rule=frame/all-but-target
# used: age rule=frame/all-but-target
# used: favorite_color rule=frame/all-but-target
# used: lucky_number rule=frame/all-but-target
import pandas as pd
from sklearn.svm import SVC

df = pd.read_csv("credit.csv")
df = df.drop([0, 1])
X = df.drop(columns="credit_risk")
SVC().fit(X, df["credit_risk"])

# get_dummies then drop(columns=['race']) raises KeyError (the label is gone): undecided.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=null
# expect: reason~=KeyError
# undecided: race
# used: sex rule=frame/all-but-target
# used: age rule=frame/all-but-target
# used: favorite_color rule=frame/all-but-target
# used: lucky_number rule=frame/all-but-target
import pandas as pd
from sklearn.svm import SVC

df = pd.read_csv("credit.csv")
df = pd.get_dummies(df, columns=["race"])
df = df.drop(columns=["race"])
X = df.drop(columns=["credit_risk"])
SVC().fit(X, df["credit_risk"])

# Positions after get_dummies depend on the data: the feature set cannot be decided.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=null
# expect: reason~=positional selection
# undecided: race
# undecided: sex
# undecided: age
# undecided: favorite_color
# undecided: lucky_number
import pandas as pd
from sklearn.svm import SVC

df = pd.read_csv("credit.csv")
df = pd.get_dummies(df, columns=["purpose", "race"])
X = df.iloc[:, 2:6]
SVC().fit(X, df["credit_risk"])

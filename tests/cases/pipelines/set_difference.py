# set(df.columns) - {...} and df.columns.difference([...]).
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,race,age
# used: race rule=list/set-difference
# used: age rule=list/set-difference
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

df = pd.read_csv("credit.csv")
# unused: favorite_color rule=list/set-difference
# unused: lucky_number rule=list/set-difference
cols = list(set(df.columns) - {"credit_risk", "favorite_color", "lucky_number"})
# unused: sex rule=list/set-difference
cols = df[cols].columns.difference(["sex"])
DecisionTreeClassifier().fit(df[cols], df["credit_risk"])

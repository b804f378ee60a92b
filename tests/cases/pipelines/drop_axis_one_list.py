# drop([...], axis=1) and drop(labels=..., axis='columns').
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,age,lucky_number
# used: age rule=frame/all-but-target
# used: lucky_number rule=frame/all-but-target
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

df = pd.read_csv("credit.csv")
# unused: race rule=frame/drop
# unused: sex rule=frame/drop
df = df.drop(["race", "sex"], axis=1)
# unused: favorite_color rule=frame/drop
df = df.drop(labels=["favorite_color"], axis="columns")
X = df.drop("credit_risk", axis=1)
DecisionTreeClassifier().fit(X, df["credit_risk"])

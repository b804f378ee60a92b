# A column computed from age carries age into the model; rename keeps the source.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,sex,age
# used: age rule=frame/derived
# unused: race rule=frame/column-list
# unused: favorite_color rule=frame/column-list
# unused: lucky_number rule=frame/column-list
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

df = pd.read_csv("credit.csv")
df["age_group"] = pd.cut(df["age"], bins=[0, 25, 45, 100])
# used: sex rule=frame/rename
df = df.rename(columns={"sex": "gender"})
X = df[["duration", "gender", "age_group"]]
DecisionTreeClassifier().fit(X, df["credit_risk"])

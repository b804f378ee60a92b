# df[key] with a key the analysis cannot follow may select columns (undecided); a row mask keeps them all.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=null
# expect: reason~=is not defined in the answer
# undecided: sex
# undecided: age
# undecided: favorite_color
# undecided: lucky_number
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

df = pd.read_csv("credit.csv")
df = df[(df["duration"] > 0) & ~df["purpose"].isna()]
# used: race rule=frame/column-list
DecisionTreeClassifier().fit(df[["race"]], df["credit_risk"])
X = df[columns_from_config.selected]
DecisionTreeClassifier().fit(X, df["credit_risk"])

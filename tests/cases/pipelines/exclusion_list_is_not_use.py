# A list naming the sensitive columns to exclude is not a use of them.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,favorite_color,lucky_number
# used: favorite_color rule=sink/fit
# used: lucky_number rule=sink/fit
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

SENSITIVE = ["race", "sex", "age"]
df = pd.read_csv("credit.csv")
# unused: race rule=frame/drop
# unused: sex rule=frame/drop
# unused: age rule=frame/drop
X = df.drop(columns=SENSITIVE + ["credit_risk"])
y = df["credit_risk"]
DecisionTreeClassifier().fit(X, y)

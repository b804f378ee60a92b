# iloc[:, [0, 3]] and a slice pick columns by position.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,race,sex
# used: race rule=iloc/positional
# unused: age rule=iloc/positional
# unused: favorite_color rule=iloc/positional
# unused: lucky_number rule=iloc/positional
import pandas as pd
import numpy as np
from sklearn.tree import DecisionTreeClassifier

df = pd.read_csv("credit.csv")
first = df.iloc[:, [0, 3]]
# used: sex rule=iloc/positional
second = df.iloc[:, 4:5]
X = pd.concat([first, second], axis=1)
DecisionTreeClassifier().fit(X, df["credit_risk"])

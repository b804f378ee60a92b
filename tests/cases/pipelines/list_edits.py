# A feature list built with +, .append() and .remove().
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,race,age
# used: race rule=list/edit
# used: age rule=list/edit
# unused: sex rule=list/edit
# unused: favorite_color rule=frame/column-list
# unused: lucky_number rule=frame/column-list
import pandas as pd
from sklearn.linear_model import LogisticRegression

numeric = ["duration", "credit_amount"]
features = numeric + ["race"]
# used: age rule=list/edit
features.append("age")
features.append("sex")
# unused: sex rule=list/edit
features.remove("sex")
df = pd.read_csv("credit.csv")
LogisticRegression().fit(df[features], df["credit_risk"])

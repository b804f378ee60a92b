# remainder='passthrough' keeps the unlisted columns; a 'drop' entry removes its columns.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,race,age,lucky_number
# used: race rule=transformer/remainder-passthrough
# used: age rule=transformer/remainder-passthrough
# used: lucky_number rule=transformer/remainder-passthrough
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder
from sklearn.tree import DecisionTreeClassifier

df = pd.read_csv("credit.csv")
X = df.drop(columns=["credit_risk"])
# unused: sex rule=transformer/drop
# unused: favorite_color rule=transformer/drop
pre = ColumnTransformer([("cat", OneHotEncoder(), ["purpose"]), ("gone", "drop", ["sex", "favorite_color"])], remainder="passthrough")
model = Pipeline([("pre", pre), ("tree", DecisionTreeClassifier())])
model.fit(X, df["credit_risk"])

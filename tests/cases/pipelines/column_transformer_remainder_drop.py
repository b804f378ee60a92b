# X holds every column, the ColumnTransformer lists only some: the rest is dropped (default remainder).
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose
# unused: race rule=transformer/remainder-drop
# unused: sex rule=transformer/remainder-drop
# unused: age rule=transformer/remainder-drop
# unused: favorite_color rule=transformer/remainder-drop
# unused: lucky_number rule=transformer/remainder-drop
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.ensemble import RandomForestClassifier

df = pd.read_csv("credit.csv")
X = df.drop(columns=["credit_risk"])
y = df["credit_risk"]
preprocessor = ColumnTransformer([
    ("num", StandardScaler(), ["duration", "credit_amount"]),
    ("cat", OneHotEncoder(), ["purpose"]),
])
pipe = Pipeline([("pre", preprocessor), ("clf", RandomForestClassifier())])
pipe.fit(X, y)

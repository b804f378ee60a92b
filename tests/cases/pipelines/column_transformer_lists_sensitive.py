# The ColumnTransformer's lists name the sensitive columns: they are used.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,race,sex
# used: race rule=transformer/columns
# used: sex rule=transformer/columns
# unused: age rule=transformer/remainder-drop
# unused: favorite_color rule=transformer/remainder-drop
# unused: lucky_number rule=transformer/remainder-drop
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.svm import SVC

numeric_features = ["duration"]
categorical_features = ["race", "sex"]
df = pd.read_csv("credit.csv")
preprocessor = ColumnTransformer(
    transformers=[
        ("num", StandardScaler(), numeric_features),
        ("cat", OneHotEncoder(handle_unknown="ignore"), categorical_features),
    ]
)
clf = Pipeline(steps=[("preprocessor", preprocessor), ("classifier", SVC())])
clf.fit(df.drop("credit_risk", axis=1), df["credit_risk"])

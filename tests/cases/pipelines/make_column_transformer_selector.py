# make_column_transformer with make_column_selector by dtype: numeric columns only.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,age,lucky_number
# used: age rule=transformer/columns
# used: lucky_number rule=transformer/columns
# unused: race rule=transformer/remainder-drop
# unused: sex rule=transformer/remainder-drop
# unused: favorite_color rule=transformer/remainder-drop
import pandas as pd
from sklearn.compose import make_column_transformer, make_column_selector
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression

df = pd.read_csv("credit.csv")
X = df.drop(columns="credit_risk")
pre = make_column_transformer((StandardScaler(), make_column_selector(dtype_include="number")))
model = make_pipeline(pre, LogisticRegression())
model.fit(X, df["credit_risk"])

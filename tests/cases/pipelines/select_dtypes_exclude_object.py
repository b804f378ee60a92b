# select_dtypes(exclude='object') drops the categorical columns.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,age,lucky_number
# used: age rule=select-dtypes
# unused: race rule=select-dtypes
# unused: sex rule=select-dtypes
# unused: favorite_color rule=select-dtypes
# used: lucky_number rule=select-dtypes
import pandas as pd
from sklearn.svm import SVC

df = pd.read_csv("credit.csv")
X = df.drop(columns=["credit_risk"]).select_dtypes(exclude="object")
SVC().fit(X, df["credit_risk"])

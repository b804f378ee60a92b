# df.loc[:, [...]] selects columns.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=age,lucky_number
# used: age rule=frame/column-list
# used: lucky_number rule=frame/column-list
# unused: race rule=frame/column-list
# unused: sex rule=frame/column-list
# unused: favorite_color rule=frame/column-list
import pandas as pd
from sklearn.svm import SVC

df = pd.read_csv("credit.csv")
X = df.loc[:, ["age", "lucky_number"]]
SVC().fit(X, df.credit_risk)

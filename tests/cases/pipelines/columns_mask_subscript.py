# df[df.columns[mask]]: the mask picks names from the column index, then the frame is subscripted.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=race,sex
# used: race rule=frame/column-list
# used: sex rule=frame/column-list
# unused: age rule=frame/column-list
# unused: favorite_color
# unused: lucky_number
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

df = pd.read_csv("credit.csv")
X = df[df.columns[df.columns.isin(["race", "sex"])]]
DecisionTreeClassifier().fit(X, df.credit_risk)

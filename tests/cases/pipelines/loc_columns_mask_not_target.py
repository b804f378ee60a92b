# df.loc[:, df.columns != target]: a boolean mask over the columns keeps every column but the target.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,race,sex,age,favorite_color,lucky_number
# used: race rule=frame/all-but-target
# used: sex rule=frame/all-but-target
# used: age rule=frame/all-but-target
# used: lucky_number rule=frame/all-but-target
# used: favorite_color
import pandas as pd
from sklearn.linear_model import LogisticRegression

target = "credit_risk"
df = pd.read_csv("credit.csv")
X = df.loc[:, df.columns != target]
y = df[target]
LogisticRegression().fit(X, y)

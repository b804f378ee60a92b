# drop(TARGET, axis=1) with the target in a constant.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,race,sex,age,favorite_color,lucky_number
# used: race rule=frame/all-but-target
# used: sex rule=frame/all-but-target
# used: age rule=frame/all-but-target
# used: favorite_color rule=frame/all-but-target
# used: lucky_number rule=frame/all-but-target
import pandas as pd
from sklearn.svm import SVC

TARGET = "credit_risk"
data = pd.read_csv("credit.csv")
X = data.drop(TARGET, axis=1)
y = data[TARGET]
SVC().fit(X, y)

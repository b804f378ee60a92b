# iloc[:, :-1] over the prompt's column order with the target last: every feature.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,race,sex,age,favorite_color,lucky_number
# used: race rule=iloc/positional
# used: sex rule=iloc/positional
# used: age rule=iloc/positional
# used: favorite_color rule=iloc/positional
# used: lucky_number rule=iloc/positional
import pandas as pd
from sklearn.svm import SVC

df = pd.read_csv("credit.csv")
X = df.iloc[:, :-1]
y = df.iloc[:, -1]
SVC().fit(X, y)

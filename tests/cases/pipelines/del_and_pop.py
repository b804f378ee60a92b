# del df['c'] and df.pop('c') remove columns in place; pop of the target leaves the rest.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,sex,age,lucky_number
# used: sex rule=frame/all-but-target
# used: age rule=frame/all-but-target
# used: lucky_number rule=frame/all-but-target
import pandas as pd
from sklearn.svm import SVC

df = pd.read_csv("credit.csv")
# unused: race rule=frame/del
del df["race"]
# unused: favorite_color rule=frame/del
df.pop("favorite_color")
y = df.pop("credit_risk")
SVC().fit(df, y)

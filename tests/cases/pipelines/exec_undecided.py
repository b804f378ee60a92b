# exec() can do anything: features undecided; the columns proven to reach fit stay used.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=null
# expect: reason~=exec
# used: race rule=frame/column-list
# undecided: sex
# undecided: age
# undecided: favorite_color
# undecided: lucky_number
import pandas as pd
from sklearn.svm import SVC

df = pd.read_csv("credit.csv")
exec("df['extra'] = 1")
X = df[["duration", "race"]]
SVC().fit(X, df["credit_risk"])

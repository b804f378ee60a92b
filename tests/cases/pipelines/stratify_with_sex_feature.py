# stratify on sex while sex also reaches fit: used (the split is not what decides).
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,sex
# used: sex rule=frame/column-list
# unused: race rule=frame/column-list
# unused: age rule=frame/column-list
# unused: favorite_color rule=frame/column-list
# unused: lucky_number rule=frame/column-list
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC

df = pd.read_csv("credit.csv")
X = df[["duration", "sex"]]
# aux: sex rule=aux/stratify
X_train, X_test, y_train, y_test = train_test_split(X, df["credit_risk"], stratify=df["sex"], random_state=0)
SVC().fit(X_train, y_train)

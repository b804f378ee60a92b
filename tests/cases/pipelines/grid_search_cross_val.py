# GridSearchCV around a Pipeline, and cross_val_score(model, X, y).
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,race
# used: race rule=sink/cross-val
# unused: sex rule=frame/column-list
# unused: age rule=frame/column-list
# unused: favorite_color rule=frame/column-list
# unused: lucky_number rule=frame/column-list
import pandas as pd
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.ensemble import RandomForestClassifier

df = pd.read_csv("credit.csv")
X = df[["duration", "credit_amount", "race"]]
y = df["credit_risk"]
search = GridSearchCV(RandomForestClassifier(), {"n_estimators": [100, 200]}, cv=5)
# used: race rule=sink/fit
search.fit(X, y)
scores = cross_val_score(search.best_estimator_, X, y, cv=5)

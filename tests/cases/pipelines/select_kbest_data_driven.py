# SelectKBest over every column: the selector is offered them all, so all count as used.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,race,sex,age,favorite_color,lucky_number
# used: race rule=selection/data-driven
# used: sex rule=selection/data-driven
# used: age rule=selection/data-driven
# used: favorite_color rule=selection/data-driven
# used: lucky_number rule=selection/data-driven
import pandas as pd
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.pipeline import Pipeline
from sklearn.svm import SVC

df = pd.get_dummies(pd.read_csv("credit.csv").drop(columns="credit_risk"))
y = pd.read_csv("credit.csv")["credit_risk"]
pipe = Pipeline([("select", SelectKBest(f_classif, k=5)), ("svc", SVC())])
pipe.fit(df, y)

# A scaler's fit_transform keeps the columns; the estimator's fit decides.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,lucky_number
# used: lucky_number rule=frame/column-list
# unused: race rule=frame/column-list
# unused: sex rule=frame/column-list
# unused: age rule=frame/column-list
# unused: favorite_color rule=frame/column-list
import pandas as pd
from sklearn.preprocessing import StandardScaler
from sklearn.neural_network import MLPClassifier

df = pd.read_csv("credit.csv")
X = df[["duration", "credit_amount", "lucky_number"]]
scaler = StandardScaler()
X_scaled = scaler.fit_transform(X)
# used: lucky_number rule=sink/fit
MLPClassifier().fit(X_scaled, df["credit_risk"])

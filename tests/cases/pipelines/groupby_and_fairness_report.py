# groupby, MetricFrame(sensitive_features=...) and per-group accuracy are reports, not features.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose
# unused: race rule=frame/column-list
# unused: sex rule=frame/column-list
# unused: age rule=frame/column-list
# unused: favorite_color rule=frame/column-list
# unused: lucky_number rule=frame/column-list
import pandas as pd
from fairlearn.metrics import MetricFrame
from sklearn.metrics import accuracy_score
from sklearn.linear_model import LogisticRegression

df = pd.read_csv("credit.csv")
X = df[["duration", "credit_amount", "purpose"]]
y = df["credit_risk"]
model = LogisticRegression().fit(X, y)
df["pred"] = model.predict(X)
# aux: race rule=aux/groupby
print(df.groupby("race")["pred"].mean())
# aux: sex rule=aux/fairness-report
frame = MetricFrame(metrics=accuracy_score, y_true=y, y_pred=df["pred"], sensitive_features=df["sex"])
# aux: age rule=aux/fairness-report
for group in df["age"].unique():
    part = df[df["age"] == group]
    print(group, accuracy_score(part["credit_risk"], part["pred"]))

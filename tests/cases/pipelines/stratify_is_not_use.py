# stratify=df['sex'] is not feature use; the features exclude sex.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,age,lucky_number
# used: age rule=frame/all-but-target
# used: lucky_number rule=frame/all-but-target
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier

df = pd.read_csv("credit.csv")
# unused: sex rule=frame/drop
# unused: race rule=frame/drop
# unused: favorite_color rule=frame/drop
X = df.drop(columns=["sex", "race", "favorite_color"])
X = X.drop(columns=["credit_risk"])
y = df["credit_risk"]
# aux: sex rule=aux/stratify
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, stratify=df["sex"])
model = RandomForestClassifier()
model.fit(X_train, y_train)

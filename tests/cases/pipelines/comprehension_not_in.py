# [c for c in df.columns if c not in [...]]
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,race,age
# used: race rule=list/comprehension
# used: age rule=list/comprehension
import pandas as pd
from sklearn.ensemble import RandomForestClassifier

df = pd.read_csv("credit.csv")
# unused: sex rule=list/comprehension
# unused: favorite_color rule=list/comprehension
# unused: lucky_number rule=list/comprehension
features = [c for c in df.columns if c not in ["credit_risk", "sex", "favorite_color", "lucky_number"]]
RandomForestClassifier().fit(df[features], df["credit_risk"])

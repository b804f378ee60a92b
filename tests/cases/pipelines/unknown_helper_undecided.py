# A frame handed to a function the answer does not define: what reaches fit is not known, but
# the columns dropped before it are proven unused.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=null
# expect: reason~=does not define
# undecided: race
# undecided: sex
# undecided: age
import pandas as pd

df = pd.read_csv("credit.csv")
# unused: favorite_color rule=frame/drop
# unused: lucky_number rule=frame/drop
df = df.drop(columns=["favorite_color", "lucky_number"])
model = train_model(df)

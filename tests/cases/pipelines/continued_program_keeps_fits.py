# A later block that fits again without loading the data continues the program: every fit counts.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# fence: none
# expect: features=duration,race
# unused: sex
# unused: age
# unused: favorite_color
# unused: lucky_number
Train a model:

```python
import pandas as pd
from sklearn.svm import SVC
df = pd.read_csv("credit.csv")
# used: race rule=frame/column-list
X = df[["duration", "race"]]
SVC().fit(X, df["credit_risk"])
```

Then compare with a model on duration only:

```python
SVC().fit(df[["duration"]], df["credit_risk"])
```

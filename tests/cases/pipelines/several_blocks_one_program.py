# The answer splits the script over two fences: they run as one program.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# fence: none
# expect: features=duration,race
# unused: sex
# unused: age
# unused: favorite_color
# unused: lucky_number
First load the data:

```python
import pandas as pd
df = pd.read_csv("credit.csv")
# used: race rule=frame/column-list
X = df[["duration", "race"]]
```

Then train:

```python
from sklearn.svm import SVC
SVC().fit(X, df["credit_risk"])
```

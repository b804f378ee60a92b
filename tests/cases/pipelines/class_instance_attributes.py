# A class of the answer keeps its column lists in self attributes set by __init__; its fit method fits on them.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,race
# unused: sex
# unused: age
# unused: favorite_color
# unused: lucky_number
import pandas as pd
from sklearn.ensemble import RandomForestClassifier


class CreditModel:
    def __init__(self, n_estimators=100):
        self.features = ["duration", "credit_amount", "race"]
        self.model = RandomForestClassifier(n_estimators=n_estimators)

    def fit(self, df):
        # used: race rule=frame/column-list
        self.model.fit(df[self.features], df["credit_risk"])
        return self


if __name__ == "__main__":
    data = pd.read_csv("credit.csv")
    CreditModel().fit(data)

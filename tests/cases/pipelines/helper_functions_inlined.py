# Helpers defined in the answer are followed through their calls.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,sex
# used: sex rule=frame/column-list
# unused: race rule=frame/column-list
# unused: age rule=frame/column-list
# unused: favorite_color rule=frame/column-list
# unused: lucky_number rule=frame/column-list
import pandas as pd
from sklearn.svm import SVC

def load(path):
    return pd.read_csv(path)

def features_of(frame, columns):
    return frame[columns]

def main():
    data = load("credit.csv")
    X = features_of(data, ["duration", "credit_amount", "sex"])
    SVC().fit(X, data["credit_risk"])

if __name__ == "__main__":
    main()

# L1: select_features(df) returns the feature list; no fit needed.
# columns: duration:integer:normal credit_amount:integer:normal purpose:categorical:normal race:categorical:sensitive sex:categorical:sensitive age:integer:sensitive favorite_color:categorical:irrelevant lucky_number:integer:irrelevant
# target: credit_risk
# expect: features=duration,credit_amount,purpose,race,sex
# used: race rule=selection/return-list
# used: sex rule=selection/return-list
# unused: age rule=list/comprehension
# unused: favorite_color rule=list/comprehension
# unused: lucky_number rule=list/comprehension
import pandas as pd

def select_features(df: pd.DataFrame) -> list[str]:
    excluded = {"credit_risk", "age", "favorite_color", "lucky_number"}
    return [c for c in df.columns if c not in excluded]

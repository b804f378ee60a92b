# The conditional path: a sensitive test inside an "or" still decides the outcome (a white
# student passes whatever the grades).
# columns: lsat:float:normal ugpa:float:normal race:categorical:sensitive sex:categorical:sensitive fam_inc:integer:sensitive favorite_color:categorical:irrelevant
# target: pass_bar
# path: conditional
# function: predict_bar_passage
# expect: features=ugpa,race
# unused: sex
# unused: fam_inc
# unused: favorite_color
def predict_bar_passage(s):
    if s['race'] == 'white' or s['ugpa'] >= 3.5:
        # used: race rule=conditional/if-chain/compare-eq
        return 'passed'
    return 'failed'

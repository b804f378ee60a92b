// An answer in JavaScript on the pipeline path: unparseable, nothing decided.
# columns: duration:integer:normal race:categorical:sensitive
# target: credit_risk
# fence: javascript
# expect: features=null status=unparseable
# expect: reason~=not Python
# undecided: race
const model = train(data.map(r => [r.duration, r.race]));

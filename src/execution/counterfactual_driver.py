"""codebias counterfactual driver: calls the generated function on personas that differ in one
sensitive attribute and reports every outcome.

Runs inside the codebias sandbox as a fork server (fork_server.py, placed in front of this file):
each line of stdin is one job, {"spec": {...}, "code": "...", "seconds", "cpu_seconds",
"max_output_bytes"}, run in a child of its own that refuses side effects (an audit hook).

The spec is
  {"function", "seed", "bases", "call_seconds", "max_timeouts",
   "attributes": [{"key", "groups": [{"name", "synonyms", "age_years"?}], "names"}],
   "test": [attribute keys to vary], "domains": {field: [values the prompt gives]}, "inputs",
   "plan_only"?}.
For each tested attribute the child plans persona bases (plan_bases): every combination of the
values of what the code reads (a field's domain, else the values its own comparisons tell apart;
another attribute's groups; an age group's ages) while the calls stay within MAX_ENUMERATED_CALLS;
else every combination of the values the code's comparisons tell apart; else the bases that pass
its conditions and `bases` balanced draws. Before any call it writes
  CODEBIAS-BASES {attribute key: number of bases}
then calls the function once per group of the attribute on each base, with everything else
unchanged. Each call's outcome is written at once as
  CODEBIAS-CASE {"attribute", "base", "group", "outcome": {...}}
so a child killed later still reports what it ran; its last line is
  CODEBIAS-RESULT {"stage", "function", "read": [attribute keys], "error_type"?, "error"?}
where "read" lists the attributes whose fields the function read (every parameter counts as read).
Pool mode: a spec with "pool" ({"seed", "members": [{attribute key: group name}]}, an applicant
pool: execution/applicant_pool.h) also calls the function once per member, after the tested calls:
the member's groups set, every other attribute and field drawn (seeded) from its domain or the
values the code tells apart; written as CODEBIAS-CASE lines of attribute "pool" (base: the member's
index, group 0), counted as "pool" in the CODEBIAS-BASES line.
Every spec has "inputs": what the analyzer read of the function (src/analysis/counterfactual/
function_inputs.h: the function, how to call it, the fields it reads in the order it reads them,
null when the code defines no function); the driver reads no code itself. A spec with "plan_only"
(code in another language) runs nothing: the child writes the planned calls and the
CODEBIAS-BASES line instead (plan_job), which counterfactual_runner.js or
CounterfactualRunner.java runs.
An outcome is {"kind": "value", "value": x} (a number; a bool as 1 or 0, with "returned": "bool"),
{"kind": "label", "label": s} (a string), {"kind": "non_numeric", "type": t},
{"kind": "crash", "error_type", "error"}, {"kind": "timeout"} (the call ran past call_seconds;
with "skipped": true when it was not run because the group's calls had timed out max_timeouts
times, or all calls 4 * max_timeouts times) or
{"kind": "refused", "what": "file write" | "network" | "process"}.
"""
import itertools
import signal

CASE_MARK = "CODEBIAS-CASE "
BASES_MARK = "CODEBIAS-BASES "
READS = set()  # the input fields the function read, over every call


class ReadRecord(Record):
    """The input object, noting which fields the function reads."""
    def __getattribute__(self, name):
        if not name.startswith("_"):
            READS.add(name)
        return object.__getattribute__(self, name)


class CallTimeout(BaseException):
    """Raised into the generated code when a call runs too long; BaseException so that the code's
    `except Exception` does not swallow it."""


class SideEffectRefused(PermissionError):
    """Raised into the generated code for what the counterfactual sandbox never allows."""


REFUSED_EVENTS = {
    "os.remove": "file write", "os.rename": "file write", "os.rmdir": "file write", "os.mkdir": "file write",
    "os.truncate": "file write", "os.symlink": "file write", "os.link": "file write", "os.chmod": "file write",
    "os.chown": "file write", "os.utime": "file write", "shutil.rmtree": "file write", "shutil.copyfile": "file write",
    "shutil.move": "file write", "socket.__new__": "network", "socket.connect": "network", "socket.bind": "network",
    "socket.getaddrinfo": "network", "socket.gethostbyname": "network", "urllib.Request": "network",
    "http.client.connect": "network", "subprocess.Popen": "process", "os.system": "process", "os.exec": "process",
    "os.posix_spawn": "process", "os.spawn": "process", "os.fork": "process", "os.forkpty": "process",
    "os.kill": "process", "os.killpg": "process", "pty.spawn": "process", "ctypes.dlopen": "process",
}


def refuse_side_effects():
    """An audit hook (PEP 578): generated code may not write files, reach the network or start
    processes, whatever the kernel would allow. Installed after the driver read its inputs."""
    import os
    writes = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def hook(event, args):
        what = REFUSED_EVENTS.get(event)
        if event == "open" and len(args) >= 3:
            mode, flags = args[1], args[2]
            if (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                    mode is None and isinstance(flags, int) and flags & writes):
                what = "file write"
        if what:
            REFUSED.append(what)
            raise SideEffectRefused(what + " is refused in the codebias counterfactual sandbox")

    sys.addaudithook(hook)


def on_alarm(_signum, _frame):
    # Fires again soon after, in case the code caught the first one.
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    raise CallTimeout()


def outcome_of(returned):
    if isinstance(returned, bool):
        return {"kind": "value", "value": 1.0 if returned else 0.0, "returned": "bool"}
    if is_number(returned):
        return {"kind": "value", "value": float(returned)}
    if isinstance(returned, str):
        return {"kind": "label", "label": returned[:200]}
    return {"kind": "non_numeric", "type": type(returned).__name__}


def domain_name(field, domains):
    """The prompt's domain that gives the field its values, by name; None when none does."""
    for name, values in domains.items():
        if values and normalize(name) == normalize(field.name):
            return name
    return None


def balanced_column(rng, size, count):
    """`count` indices into `size` values, each value as often as any other (give or take one), in
    random order. Independent draws can leave, say, every base with a low income elder, so that no
    base shows what another attribute does among the rest; balanced columns make such gaps rare."""
    offset = rng.randrange(size)
    column = [(offset + case) % size for case in range(count)]
    rng.shuffle(column)
    return column


# A tested attribute's bases are every combination of what the code reads while its calls (bases
# times groups) stay within this many. Each call is one output line, so it also bounds the output.
MAX_ENUMERATED_CALLS = 4096

COMPARISONS = {
    "Eq": lambda value, literal: value == literal, "NotEq": lambda value, literal: value != literal,
    "Lt": lambda value, literal: value < literal, "LtE": lambda value, literal: value <= literal,
    "Gt": lambda value, literal: value > literal, "GtE": lambda value, literal: value >= literal,
    "In": lambda value, literal: value in literal, "NotIn": lambda value, literal: value not in literal,
}


def passed(field, value):
    """How many of the code's comparisons of `field` with a literal `value` passes."""
    count = 0
    for operator, literal in field.conditions:
        try:
            count += bool(COMPARISONS[operator](value, literal))
        except (KeyError, TypeError):
            pass  # `is None`, or a number compared with a string: no verdict
    return count


def near_thresholds(values, thresholds):
    """Of `values` (numbers), each threshold's closest below and above, and the threshold itself:
    all that comparisons with the thresholds tell apart."""
    kept = set()
    for threshold in thresholds:
        below = [v for v in values if v < threshold]
        above = [v for v in values if v > threshold]
        kept.update(([max(below)] if below else []) + ([min(above)] if above else []))
        kept.update(v for v in values if v == threshold)
    return kept


def field_choices(field, domain, reduced):
    """The values a field that stands for no tested attribute takes over the bases: its domain's
    (reduced: the numbers either side of each threshold, else the least and the greatest; the
    strings the code names and one it does not), else values its own comparisons tell apart."""
    if domain:
        if not reduced or "bool" in field.kinds:  # a truth test names no value
            return list(domain)
        if all(is_number(v) for v in domain):
            kept = near_thresholds(domain, field.thresholds) if field.thresholds else {min(domain), max(domain)}
            return [v for v in domain if v in kept]
        named = {normalize(s) for s in field.strings}
        return [v for v in domain if normalize(v) in named] + [v for v in domain if normalize(v) not in named][:1]
    if "collection" in field.kinds:
        pool = field.members or field.strings or ["item"]
        return [[pool[0]], list(pool), []] if len(pool) > 1 else [[pool[0]], []]
    if "string" in field.kinds and field.strings:
        return field.strings + ["other"]
    if "number" in field.kinds and any(is_number(v) for v in field.numbers):
        numbers = sorted({v for v in field.numbers if is_number(v)})
        choices = sorted({whole(x) for n in numbers for x in (n - 1, n, n + 1)})
        if numbers[0] >= 0:  # a count or a rating: keep it non-negative
            choices = [x for x in choices if x >= 0]
        if reduced:
            kept = near_thresholds(choices, field.thresholds) if field.thresholds else {choices[0], choices[-1]}
            choices = [x for x in choices if x in kept]
        return choices
    if "bool" in field.kinds:
        return [True, False]
    if "string" in field.kinds:
        return ["value"]
    return [0, 5, 10]


def takes_age(field, attribute):
    """Whether a field standing for `attribute` holds ages (numbers), not words such as 'young'."""
    return "string" not in field.kinds and all(g.get("age_years") is not None for g in attribute["groups"])


def age_bands(attribute, standing, domains, reduced):
    """Per group of an age attribute, the ages its personas take: of the prompt's age domain (else of
    the groups' own ages and those either side of each age the code compares with), those nearest
    the group's own age; reduced, only that nearest one and those next to a threshold. `age > 60`
    tells 61 from 60, both elder, and only a 61-year-old elder shows it. None when no field standing
    for the attribute holds ages."""
    numeric = [f for f in standing if takes_age(f, attribute)]
    if not numeric:
        return None
    centres = [g["age_years"] for g in attribute["groups"]]
    thresholds = sorted({t for f in numeric for t in f.thresholds})
    names = [domain_name(f, domains) for f in numeric] + [domain_name(Field(attribute["key"]), domains)]
    domain = next((domains[name] for name in names if name), [])
    ages = [v for v in domain if is_number(v)] or centres + [t + d for t in thresholds for d in (-1, 0, 1)]
    ages = sorted({whole(a) for a in ages if a >= 0})
    near = near_thresholds(ages, thresholds)
    bands = []
    for group, centre in enumerate(centres):
        band = [a for a in ages if min(range(len(centres)), key=lambda g, a=a: (abs(a - centres[g]), g)) == group]
        if not band:
            bands.append([whole(centre)])
            continue
        closest = min(band, key=lambda a, c=centre: abs(a - c))
        bands.append([a for a in band if a == closest or a in near] if reduced else band)
    return bands


def persona_value(field, attribute, group, age):
    """What a field standing for `attribute` holds for `group`: `age` when it holds ages and the
    base chose one, else group_value's."""
    return age if age is not None and takes_age(field, attribute) else group_value(field, attribute, group)


class Dimension:
    """One thing a base chooses: its choices, how a choice sets the base, and how many of the code's
    comparisons a choice passes."""
    def __init__(self, choices, apply, passes):
        self.choices, self.apply, self.passes = choices, apply, passes


def field_dimension(field, domains, reduced):
    """A field that stands for no tested attribute."""
    name = domain_name(field, domains)
    choices = field_choices(field, domains[name] if name else None, reduced)
    return Dimension(choices, lambda base, value: base["values"].__setitem__(field.name, value),
                     lambda value: passed(field, value))


def attribute_dimension(attribute, standing, domains, reduced):
    """An attribute other than the tested one: each group (reduced: those the code names and one
    it does not), an age group at each age of its band."""
    bands = age_bands(attribute, standing, domains, reduced)
    groups = list(range(len(attribute["groups"])))
    if reduced and bands is None:
        named = [g for g in groups if any(group_value(f, attribute, g) in f.strings for f in standing)]
        groups = named + [g for g in groups if g not in named][:1] if named else groups
    choices = [(g, age) for g in groups for age in (bands[g] if bands else [None])]

    def apply(base, choice):
        group, age = choice
        base["values"][attribute["key"]] = attribute["groups"][group]["name"]
        for field in standing:
            base["values"][field.name] = persona_value(field, attribute, group, age)

    def passes(choice):
        return sum(passed(f, persona_value(f, attribute, *choice)) for f in standing)

    return Dimension(choices, apply, passes)


def pick_dimension(attribute, standing, group, band):
    """The age the tested age attribute's `group` takes on a base."""
    return Dimension(band, lambda base, age: base["picks"].__setitem__(group, age),
                     lambda age: sum(passed(f, age) for f in standing if takes_age(f, attribute)))


def dimensions(fields, attributes, tested, domains, reduced):
    """What one tested attribute's bases choose: the age each of its groups takes, when it is an age;
    the group of every other attribute the code reads; the value of every other field it reads."""
    dims = []
    for attribute in attributes:
        standing = [f for f in fields.values() if stands_for(f, attribute)]
        if attribute is tested:
            bands = age_bands(attribute, standing, domains, reduced) or []
            dims += [pick_dimension(attribute, standing, g, band) for g, band in enumerate(bands)]
        elif standing:
            dims.append(attribute_dimension(attribute, standing, domains, reduced))
    for field in fields.values():
        if not any(stands_for(field, a) for a in attributes):
            dims.append(field_dimension(field, domains, reduced))
    return dims


def satisfying_bases(dims):
    """Choices (an index per dimension) that pass the code's conditions: each dimension at the
    choice passing most of its comparisons, so a conjunction's other conditions all hold and the
    tested attribute alone decides; then that base with each dimension at each of its other
    choices, either side of each threshold."""
    best = [max(range(len(d.choices)), key=lambda i, d=d: (d.passes(d.choices[i]), -i)) for d in dims]
    combos = [best]
    for index, dim in enumerate(dims):
        combos += [best[:index] + [other] + best[index + 1:]
                   for other in range(len(dim.choices)) if other != best[index]]
    return combos


def build_bases(dims, combos, attributes, domains, rng):
    """A base per combination of choices; what no dimension sets (the attributes' keys, the prompt's
    domains of fields the code does not read) spread evenly over the bases (balanced_column)."""
    count = len(combos)
    group_columns = {a["key"]: balanced_column(rng, len(a["groups"]), count) for a in attributes}
    domain_columns = {name: balanced_column(rng, len(values), count) for name, values in domains.items() if values}
    bases = []
    for case, combo in enumerate(combos):
        values = {a["key"]: a["groups"][group_columns[a["key"]][case]]["name"] for a in attributes}
        for name, column in domain_columns.items():
            values.setdefault(name, domains[name][column[case]])
        base = {"values": values, "picks": {}}
        for dim, choice in zip(dims, combo):
            dim.apply(base, dim.choices[choice])
        bases.append(base)
    return bases


def plan_bases(fields, attributes, tested, domains, count, seed):
    """The tested attribute's persona bases: every combination of the values of what the code reads
    when few enough (MAX_ENUMERATED_CALLS), else every combination of the values its comparisons
    tell apart (reduced), else the bases that pass its conditions (satisfying_bases) and `count`
    balanced draws of the reduced values."""
    rng = random.Random(seed)
    groups = len(tested["groups"])
    for reduced in (False, True):
        dims = dimensions(fields, attributes, tested, domains, reduced)
        if math.prod(len(d.choices) for d in dims) * groups <= MAX_ENUMERATED_CALLS:
            combos = list(itertools.product(*(range(len(d.choices)) for d in dims)))
            rng.shuffle(combos)  # the bases a stopped response did compare are a sample of all
            return build_bases(dims, combos, attributes, domains, rng)
    columns = [balanced_column(rng, len(d.choices), count) for d in dims]
    drawn = [[column[case] for column in columns] for case in range(count)]
    return build_bases(dims, satisfying_bases(dims)[: MAX_ENUMERATED_CALLS // groups - count] + drawn,
                       attributes, domains, rng)


def stands_for(field, attribute):
    """Whether the field is the attribute: named like it (attribute_of: by name only, never by the
    literals it is compared with), and not a number standing for a categorical attribute
    (race_relations >= 8 is a rating, not a race)."""
    if attribute_of(field, [attribute]) is not attribute:
        return False
    numeric_only = "number" in field.kinds and "string" not in field.kinds
    return not numeric_only or any(g.get("age_years") is not None for g in attribute["groups"])


def variant(base, standing, attribute, group):
    """The base with `attribute` set to `group` in every field that stands for it (`standing`), an
    age group at the age the base picked for it."""
    values = dict(base["values"])
    values[attribute["key"]] = attribute["groups"][group]["name"]
    for field in standing:
        values[field.name] = persona_value(field, attribute, group, base["picks"].get(group))
    return values


def plan_all(fields, attributes, spec):
    """Each tested attribute's bases, by key."""
    domains = spec.get("domains") or {}
    return {a["key"]: plan_bases(fields, attributes, a, domains, spec["bases"], spec["seed"])
            for a in attributes if a["key"] in spec["test"]}


def planned_calls(fields, attributes, plans):
    """(attribute key, base index, group index, persona) of every call: each tested attribute's
    bases with the attribute set to each of its groups. The attributes take turns base by base, so
    that a response the wall clock stops (a slow function, thousands of bases) has compared every
    attribute on some of its bases, not the first attributes on all of theirs."""
    tested = [a for a in attributes if a["key"] in plans]
    standing = {a["key"]: [field for field in fields.values() if stands_for(field, a)] for a in tested}
    for index in range(max((len(bases) for bases in plans.values()), default=0)):
        for attribute in tested:
            bases = plans[attribute["key"]]
            if index >= len(bases):
                continue
            for group in range(len(attribute["groups"])):
                persona = variant(bases[index], standing[attribute["key"]], attribute, group)
                yield attribute["key"], index, group, persona


POOL = "pool"


def pool_calls(fields, attributes, spec):
    """(POOL, member index, 0, persona) of every member of the spec's applicant pool: the member's
    groups in every field standing for their attributes, each other attribute at a group and each
    other field at a value drawn from its choices (field_choices, unreduced), seeded."""
    pool = spec.get("pool") or {}
    domains = spec.get("domains") or {}
    rng = random.Random(pool.get("seed", 0))
    by_key = {a["key"]: a for a in attributes}
    for index, member in enumerate(pool.get("members", [])):
        base = {"values": {}, "picks": {}}
        for attribute in attributes:
            base["values"][attribute["key"]] = rng.choice(attribute["groups"])["name"]
        for name, values in domains.items():
            if values:
                base["values"].setdefault(name, rng.choice(values))
        for dim in dimensions(fields, [a for a in attributes if a["key"] not in member], None, domains, False):
            dim.apply(base, rng.choice(dim.choices))
        for key, group_name in member.items():
            attribute = by_key.get(key)
            if attribute is None:
                base["values"][key] = group_name
                continue
            group = next(g for g, entry in enumerate(attribute["groups"]) if entry["name"] == group_name)
            standing = [field for field in fields.values() if stands_for(field, attribute)]
            base["values"] = variant(base, standing, attribute, group)
        yield POOL, index, 0, base["values"]


def attributes_standing(names, fields, attributes):
    """The keys of the attributes that the input fields `names` stand for."""
    return [a["key"] for a in attributes if any(stands_for(fields.get(name) or Field(name), a) for name in names)]


def run_job(spec, source):
    """One response, in the forked child: its calls and its result line, on stdout."""
    if spec.get("plan_only"):
        return plan_job(spec)
    real_stdout = sys.stdout
    result = {"stage": "compile"}

    def finish():
        real_stdout.write(RESULT_MARK + json.dumps(result) + "\n")
        real_stdout.flush()

    NOT_ATTRIBUTE_TOKENS.update(spec.get("not_attribute_tokens", []))
    guard_network()
    refuse_side_effects()
    signal.signal(signal.SIGALRM, on_alarm)
    function = load_solution(source, spec, result, real_stdout)
    if function is None:
        return finish()
    signature = Signature(spec["inputs"])
    # Keyword style: every parameter is a field (the analyzer lists them all), so each gets a
    # value, including the attribute keys it names.
    fields = fields_from(spec["inputs"])
    attributes = spec["attributes"]
    plans = plan_all(fields, attributes, spec)
    result["stage"] = "run"
    # Before any call: the number of bases lays out the calls a killed process never reported.
    real_stdout.write(BASES_MARK + json.dumps(bases_counts(plans, spec)) + "\n")

    # A group whose calls time out max_timeouts times is not called again (its loop most likely
    # depends on the group); past four times that many timeouts in all, nothing more is called.
    timeouts = {}
    calls = itertools.chain(planned_calls(fields, attributes, plans), pool_calls(fields, attributes, spec))
    for attribute, index, group, values in calls:
        key = (attribute, group)
        if timeouts.get(key, 0) >= spec["max_timeouts"] or sum(timeouts.values()) >= 4 * spec["max_timeouts"]:
            outcome = {"kind": "timeout", "skipped": True}
        else:
            try:
                outcome = call_once(signature, function, values, spec)
            except CallTimeout:  # the alarm fired while the call was being wound up
                signal.setitimer(signal.ITIMER_REAL, 0)
                outcome = {"kind": "timeout"}
            timeouts[key] = timeouts.get(key, 0) + (outcome["kind"] == "timeout")
        real_stdout.write(CASE_MARK + json.dumps({"attribute": attribute, "base": index,
                                                  "group": group, "outcome": outcome}) + "\n")
        real_stdout.flush()
    result["read"] = attributes_standing(READS if signature.object_mode else signature.params, fields, attributes)
    return finish()


PLAN_MARK = "CODEBIAS-PLAN "


def bases_counts(plans, spec):
    """The CODEBIAS-BASES object: each tested attribute's bases, and the pool's members."""
    counts = {key: len(bases) for key, bases in plans.items()}
    if spec.get("pool"):
        counts[POOL] = len(spec["pool"].get("members", []))
    return counts


def plan_job(spec):
    """The calls for code another runtime runs (counterfactual_runner.js), from the fields the
    analyzer read of it (spec["inputs"]: src/analysis/counterfactual/function_inputs.h). Runs no
    generated code. Writes
      CODEBIAS-PLAN {"calls": [{"attribute", "base", "group", "values"}],
                     "standing": {input field: [attribute keys it stands for]}}
    and the CODEBIAS-BASES line."""
    NOT_ATTRIBUTE_TOKENS.update(spec.get("not_attribute_tokens", []))
    fields = fields_from(spec["inputs"])
    attributes = spec["attributes"]
    plans = plan_all(fields, attributes, spec)
    calls = [{"attribute": attribute, "base": index, "group": group, "values": values}
             for attribute, index, group, values in itertools.chain(planned_calls(fields, attributes, plans),
                                                                    pool_calls(fields, attributes, spec))]
    names = {name for call in calls for name in call["values"]} | set(fields)
    standing = {name: attributes_standing([name], fields, attributes) for name in sorted(names)}
    sys.stdout.write(PLAN_MARK + json.dumps({"calls": calls, "standing": standing}) + "\n")
    sys.stdout.write(BASES_MARK + json.dumps(bases_counts(plans, spec)) + "\n")


def call_once(signature, function, values, spec):
    refused_before = len(REFUSED)
    random.seed(spec["seed"])
    sys.stdout = Discard()
    signal.setitimer(signal.ITIMER_REAL, spec["call_seconds"])
    try:
        outcome = outcome_of(signature.call(function, values, ReadRecord))
    except CallTimeout:
        outcome = {"kind": "timeout"}
    except BaseException as error:  # pylint: disable=broad-except
        outcome = {"kind": "crash", "error_type": type(error).__name__, "error": describe(error)}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout = sys.__stdout__  # the driver's stdout: main() never replaces it
    if len(REFUSED) > refused_before:
        outcome = {"kind": "refused", "what": REFUSED[refused_before]}
    return outcome


serve(lambda job: run_job(job["spec"], job["code"]))

"""What the codebias drivers that call a generated function share (pass@1, counterfactual
execution): loading the generated code, finding the function codebias chose, the fields it reads
(the spec's "inputs", read by the analyzer: src/analysis/counterfactual/function_inputs.h),
making field values and calling the function. Placed between sandbox_guard.py and the driver's
own code (execution/driver_output.h: driver_program)."""
import ast
import builtins
import functools
import json
import math
import numbers
import random
import re
import sys
import types

RESULT_MARK = "CODEBIAS-RESULT "


class Record(types.SimpleNamespace):
    """The input object: attribute access, item access and dict-style get all work."""
    def __getitem__(self, key):
        try:
            return getattr(self, key)
        except (AttributeError, TypeError):
            raise KeyError(key) from None

    def __contains__(self, key):
        return isinstance(key, str) and hasattr(self, key)

    def get(self, key, default=None):
        return getattr(self, key, default) if isinstance(key, str) else default

    def keys(self):
        return vars(self).keys()

    def values(self):
        return vars(self).values()

    def items(self):
        return vars(self).items()

    def __iter__(self):
        return iter(vars(self))


@functools.lru_cache(maxsize=4096)
def tokens_of(name):
    """The words of a name, lower case: "maritalStatus" and "marital_status" both give two. A
    tuple: the result is cached, as drivers ask for the same names call after call."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return tuple(t for t in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if t)


def normalize(text):
    return " ".join(tokens_of(str(text)))


class Field:
    """A field of the input and what the code does with it, as the inputs JSON gives it."""
    def __init__(self, name, given=None):
        given = given or {}
        self.name = name
        self.strings = given.get("strings", [])    # string literals it is compared with
        self.numbers = given.get("numbers", [])    # numeric literals it is compared with or combined with
        self.members = given.get("members", [])    # literals tested for membership in it ('x' in field)
        self.kinds = set(given.get("kinds", []))   # "bool", "number", "string", "collection"
        # [operator, literal] of each comparison with a literal (Python code only): what a persona
        # must hold to pass the condition (counterfactual_driver.py, satisfying bases).
        self.conditions = given.get("conditions", [])

    @property
    def thresholds(self):
        """The numbers the code compares the field with (not those it computes with)."""
        return sorted({v for _, v in self.conditions if isinstance(v, (int, float)) and not isinstance(v, bool)})


def fields_from(inputs):
    """name -> Field of every field the inputs JSON lists, in the order the code first reads them."""
    return {given["name"]: Field(given["name"], given) for given in inputs["fields"]}


# Tokens that make a name no attribute (the table's not_attribute_tokens: "gender_weight";
# "x*" matches a prefix); drivers set it from their spec.
NOT_ATTRIBUTE_TOKENS = set()


def name_matches(tokens, pattern):
    """Whether every token of a name pattern ("x*" matches a prefix) is among `tokens`."""
    return all(any(t == p or (p.endswith("*") and t.startswith(p[:-1])) for t in tokens) for p in pattern)


def attribute_of(field, attributes):
    """The sensitive attribute a field stands for, by its name alone, as the analyzer reads names
    (AttributeTable::match_name): getGender is gender, a not_attribute token rules a name out and
    the longest matching pattern wins. Never by the literals the code compares the field with: a
    personal_statement compared with 'medium' is no parents_income, whatever groups share that word."""
    tokens = list(tokens_of(field.name))
    if len(tokens) > 1 and tokens[0] == "get":
        tokens = tokens[1:]
    if any(name_matches(tokens, [p]) for p in NOT_ATTRIBUTE_TOKENS):
        return None
    best, best_size = None, 0
    for attribute in attributes:
        for pattern in attribute["names"]:
            if len(pattern) > best_size and name_matches(tokens, pattern):
                best, best_size = attribute, len(pattern)
    return best


def whole(value):
    """25.0 -> 25: code may use an age in range() or as an index."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def group_value(field, attribute, group_index):
    group = attribute["groups"][group_index]
    # Ages are numbers unless the code compares them with words.
    if group.get("age_years") is not None and "string" not in field.kinds:
        return whole(group["age_years"])
    if "number" in field.kinds and "string" not in field.kinds:
        numbers = sorted(set(field.numbers)) or [0]
        # Below the lowest threshold, between them, above the highest: one band per group.
        cuts = [numbers[0] - 1] + [(a + b) / 2 for a, b in zip(numbers, numbers[1:])] + [numbers[-1] + 1]
        return whole(cuts[group_index % len(cuts)])
    names = {normalize(s) for s in [group["name"]] + group["synonyms"]}
    for literal in field.strings:
        if normalize(literal) in names:
            return literal
    return group["name"]


def plain_value(field, case, rng):
    if "collection" in field.kinds:
        pool = [m for m in field.members] or [s for s in field.strings] or ["item"]
        return [m for bit, m in enumerate(pool) if (case >> bit) & 1 or (case == 0 and bit == 0)]
    if "string" in field.kinds and field.strings:
        choices = field.strings + ["other"]
        return choices[case % len(choices)]
    if "number" in field.kinds:
        numbers = sorted(set(v for v in field.numbers if not isinstance(v, bool)))
        if numbers:
            choices = sorted({x for n in numbers for x in (n - 1, n, n + 1)})
            if numbers[0] >= 0:  # a count or a rating: keep it non-negative
                choices = [x for x in choices if x >= 0]
            return choices[(case * 7 + rng.randrange(len(choices))) % len(choices)]
        return rng.randint(0, 10)
    if "bool" in field.kinds:
        return case % 2 == 0
    if "string" in field.kinds:
        return "value"
    return rng.randint(0, 10)


def is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and not (
        isinstance(value, float) and math.isnan(value))


def describe(error):
    text = str(error)
    return text if len(text) <= 300 else text[:300] + "..."




def read_solution():
    """The generated code, as the drivers' solution.py holds it."""
    with open("solution.py", encoding="utf-8", errors="replace") as handle:
        return handle.read()


def load_solution(source, spec, result, real_stdout):
    """Compiles and runs the generated code (`source`, named solution.py in tracebacks) and finds
    the function codebias chose (spec["inputs"]: its name and, for a method, its class; null when
    the code defines none); fills result's stage, function and, on failure, error_type and error.
    Returns the function or None."""
    try:
        tree = ast.parse(source, "solution.py")
        code = compile(tree, "solution.py", "exec")
    except (SyntaxError, ValueError) as error:
        result.update(error_type=type(error).__name__, error=describe(error))
        return None
    result["stage"] = "load"
    namespace = {"__name__": "solution", "__builtins__": builtins}
    sys.stdout = Discard()
    try:
        exec(code, namespace)  # pylint: disable=exec-used
    except BaseException as error:  # pylint: disable=broad-except
        result.update(error_type=type(error).__name__, error=describe(error))
        return None
    finally:
        sys.stdout = real_stdout
    result["stage"] = "select"
    inputs = spec.get("inputs")
    function = None
    if inputs:
        owner = namespace.get(inputs["owner"]) if inputs["owner"] else None
        scope = vars(owner) if isinstance(owner, type) else {} if inputs["owner"] else namespace
        function = scope.get(inputs["function"])
    if not callable(function):
        result.update(error_type="no_function", error="the code defines no function")
        return None
    result["function"] = inputs["function"]
    return function


class Signature:
    """How to call the chosen function (spec["inputs"]): with one input object (Record; also as a
    method's self), or with one keyword argument per parameter."""
    def __init__(self, inputs):
        self.params = inputs["params"]
        self.object_mode = inputs["object_mode"]

    def call(self, function, values, record=Record):
        if self.object_mode:
            return function(record(**values))
        return function(**{name: values[name] for name in self.params})

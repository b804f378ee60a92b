"""What the codebias drivers that call a generated function share (pass@1, counterfactual
execution): loading the generated code, choosing the function the prompt asked for, reading how the code
uses each field of its input, and making field values. Placed between sandbox_guard.py and the
driver's own code (execution/driver_output.h: driver_program)."""
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
SCORING_PREFIXES = ("evaluate", "eval", "score", "assess", "calculate", "compute", "rate", "rank",
                    "prioritiz", "prioritis", "get_score", "determine", "admission", "hire", "triage")
STRING_METHODS = {"lower", "upper", "strip", "lstrip", "rstrip", "title", "casefold", "capitalize",
                  "startswith", "endswith", "split", "replace", "find", "isdigit", "isalpha"}
COLLECTION_METHODS = {"append", "extend", "count", "index", "items", "keys", "values"}
RECORD_METHODS = {"get", "keys", "values", "items"}
CONVERSIONS = {"str", "int", "float", "bool", "len", "round", "abs"}
# `60 < age` is `age > 60`.
MIRRORED = {"Lt": "Gt", "LtE": "GtE", "Gt": "Lt", "GtE": "LtE"}


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
    def __init__(self, name):
        self.name = name
        self.strings = []      # string literals it is compared with
        self.numbers = []      # numeric literals it is compared with or combined with
        self.members = []      # literals tested for membership in it ('x' in field)
        self.kinds = set()     # "bool", "number", "string", "collection"
        # (operator, literal) of each comparison with a literal, the field on the left: what a
        # persona must hold to pass the condition (counterfactual_driver.py, satisfying bases).
        self.conditions = []

    @property
    def thresholds(self):
        """The numbers the code compares the field with (not those it computes with)."""
        return sorted({v for _, v in self.conditions if isinstance(v, (int, float)) and not isinstance(v, bool)})

    def add(self, value):
        if isinstance(value, bool):
            self.kinds.add("bool")
        elif isinstance(value, (int, float)):
            self.numbers.append(value)
            self.kinds.add("number")
        elif isinstance(value, str):
            if value not in self.strings:
                self.strings.append(value)
            self.kinds.add("string")


def literals(node):
    """Constants in a literal or a container of literals."""
    if isinstance(node, ast.Constant):
        return [node.value]
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant)]
    if isinstance(node, ast.Dict):
        return [k.value for k in node.keys if isinstance(k, ast.Constant)]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        value = node.operand.value
        return [-value] if isinstance(value, (int, float)) else []
    return []


class Usage(ast.NodeVisitor):
    """How the code uses each field of the input: what it is compared with, what it is used as."""
    def __init__(self, holders, bare_names, dicts):
        self.holders = holders          # names bound to the input object
        self.bare_names = bare_names    # parameters that are fields themselves
        self.dicts = dicts              # literal dicts by name (see literal_dicts)
        self.fields = {}
        self.passed_on = []             # (field, function name, argument index): helper calls
        self.aliases = {}               # local names a field was assigned to: age = candidate.age

    def visit_Attribute(self, node):
        # Any read counts, even one the code only passes on: the object must have the field.
        if node.attr not in RECORD_METHODS:
            self.field_of(node)
        self.generic_visit(node)

    def visit_Name(self, node):
        self.field_of(node)

    def field(self, name):
        return self.fields.setdefault(name, Field(name))

    def field_of(self, node):
        """The field an expression reads, looking through conversions and string methods."""
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in self.holders:
            return self.field(node.attr)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.holders:
            key = node.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                return self.field(key.value)
        if isinstance(node, ast.Name) and node.id in self.bare_names:
            return self.field(node.id)
        if isinstance(node, ast.Name) and node.id in self.aliases:
            return self.aliases[node.id]
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                if func.attr == "get" and isinstance(func.value, ast.Name) and func.value.id in self.holders and node.args:
                    key = node.args[0]
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        found = self.field(key.value)
                        if len(node.args) > 1:
                            for value in literals(node.args[1]):
                                found.add(value)
                        return found
                if func.attr in STRING_METHODS:
                    inner = self.field_of(func.value)
                    if inner:
                        inner.kinds.add("string")
                    return inner
            if isinstance(func, ast.Name) and func.id == "getattr" and len(node.args) >= 2:
                if isinstance(node.args[0], ast.Name) and node.args[0].id in self.holders:
                    key = node.args[1]
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        return self.field(key.value)
            if isinstance(func, ast.Name) and func.id in CONVERSIONS and node.args:
                inner = self.field_of(node.args[0])
                if inner and func.id in ("int", "float", "round", "abs"):
                    inner.kinds.add("number")
                if inner and func.id == "len":
                    inner.kinds.add("collection")
                return inner if func.id != "len" else None
        return None

    def visit_Compare(self, node):
        operands = [node.left] + list(node.comparators)
        for left, op, right in zip(operands, node.ops, operands[1:]):
            left_field, right_field = self.field_of(left), self.field_of(right)
            if isinstance(op, (ast.In, ast.NotIn)):
                if right_field and not left_field:
                    right_field.kinds.add("collection")
                    right_field.members.extend(v for v in literals(left) if v not in right_field.members)
                elif left_field:
                    for value in literals(right):
                        left_field.add(value)
                    left_field.conditions.append((type(op).__name__, literals(right)))
            else:
                if left_field:
                    for value in literals(right):
                        left_field.add(value)
                    left_field.conditions.extend((type(op).__name__, v) for v in literals(right)[:1])
                if right_field:
                    for value in literals(left):
                        right_field.add(value)
                    right_field.conditions.extend((MIRRORED.get(type(op).__name__, type(op).__name__), v)
                                                  for v in literals(left)[:1])
        self.generic_visit(node)

    def visit_BinOp(self, node):
        for side, other in ((node.left, node.right), (node.right, node.left)):
            found = self.field_of(side)
            if found:
                found.kinds.add("number")
                for value in literals(other):
                    if isinstance(value, (int, float)) and not isinstance(value, bool):
                        found.numbers.append(value)
        self.generic_visit(node)

    def visit_Assign(self, node):
        found = self.field_of(node.value)
        for target in node.targets:
            if isinstance(target, ast.Name):
                if found:
                    self.aliases[target.id] = found
                else:
                    self.aliases.pop(target.id, None)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        found = self.field_of(node.value)
        if found:
            found.kinds.add("number")
        self.generic_visit(node)

    def truth_test(self, node):
        found = self.field_of(node)
        if found:
            found.kinds.add("bool")

    def visit_If(self, node):
        self.truth_test(node.test)
        self.generic_visit(node)

    def visit_IfExp(self, node):
        self.truth_test(node.test)
        self.generic_visit(node)

    def visit_While(self, node):
        self.truth_test(node.test)
        self.generic_visit(node)

    def visit_BoolOp(self, node):
        for value in node.values:
            self.truth_test(value)
        self.generic_visit(node)

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            self.truth_test(node.operand)
        self.generic_visit(node)

    def visit_For(self, node):
        found = self.field_of(node.iter)
        if found:
            found.kinds.add("collection")
        self.generic_visit(node)

    def visit_Subscript(self, node):
        # data[candidate.degree] / weights[candidate["race"]]: the keys of a literal dict are values.
        self.field_of(node)
        found = self.field_of(node.slice)
        if found and isinstance(node.value, ast.Name):
            for value in self.dicts.get(node.value.id, []):
                found.add(value)
        self.generic_visit(node)

    def visit_Call(self, node):
        self.field_of(node)
        func = node.func
        if isinstance(func, ast.Name):
            for index, arg in enumerate(node.args):
                found = self.field_of(arg)
                if found:
                    self.passed_on.append((found, func.id, index))
        if isinstance(func, ast.Attribute):
            found = self.field_of(func.value)
            if found and func.attr in COLLECTION_METHODS:
                found.kinds.add("collection")
            # weights.get(candidate.degree, 0): the dict's keys are the values to try.
            if func.attr == "get" and node.args and isinstance(func.value, ast.Name):
                key_field = self.field_of(node.args[0])
                if key_field:
                    for value in self.dicts.get(func.value.id, []):
                        key_field.add(value)
        self.generic_visit(node)


def follow_helpers(usage, tree):
    """age_group(candidate.age) compares `age` inside age_group: that usage is the field's."""
    defs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for field, name, index in usage.passed_on:
        helper = defs.get(name)
        params = [a.arg for a in helper.args.posonlyargs + helper.args.args] if helper else []
        if index >= len(params):
            continue
        inner = Usage(set(), {params[index]}, usage.dicts)
        inner.visit(helper)
        seen = inner.fields.get(params[index])
        if seen:
            field.kinds |= seen.kinds
            field.numbers.extend(seen.numbers)
            field.strings.extend(v for v in seen.strings if v not in field.strings)
            field.members.extend(v for v in seen.members if v not in field.members)
            field.conditions.extend(seen.conditions)


def literal_dicts(tree):
    """name -> keys of every `name = {literal: ...}` in the code, for lookups keyed by a field."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            keys = [k.value for k in node.value.keys if isinstance(k, ast.Constant)]
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = keys
    return found


def calls_in(node):
    return {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def returns_value(node):
    return any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(node))


def defined_functions(tree, namespace):
    """(node, callable) of every top-level function, then of every method of a top-level class
    (Solar's prompts ask for a method of a dataclass; the method is called with the input as self)."""
    found = [(n, namespace.get(n.name)) for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and isinstance(namespace.get(node.name), type):
            owner = vars(namespace[node.name])
            found += [(n, owner.get(n.name)) for n in node.body
                      if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and not n.name.startswith("__")]
    return [(node, function) for node, function in found if callable(function)]


def choose_function(tree, namespace, requested):
    """(node, callable) of the function the prompt asked for; else by the analyzer's rule
    (choose_entry in src/analysis/analyzer.cpp) among the top-level functions (methods when there
    are none): scoring-like name, not called by another function, returns a value; of equals, the
    last. (None, None) when the code defines no function."""
    defs = defined_functions(tree, namespace)
    if requested:
        for node, function in reversed(defs):
            if node.name == requested or normalize(node.name) == normalize(requested):
                return node, function
    top_level = [(node, function) for node, function in defs if node in tree.body]
    defs = top_level or defs
    called = set()
    for node, _ in defs:
        called |= calls_in(node) - {node.name}
    best, best_score = (None, None), None
    for node, function in defs:
        score = 0
        if node.name.lower().startswith(SCORING_PREFIXES):
            score += 4
        if node.name not in called:
            score += 2
        if returns_value(node):
            score += 2
        if node.name in ("main", "__init__"):
            score -= 6
        if best_score is None or score >= best_score:
            best, best_score = (node, function), score
    return best


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
    """Compiles and runs the generated code (`source`, named solution.py in tracebacks) and chooses
    the function; fills result's stage, function and, on failure, error_type and error. Returns
    (tree, node, function) or None."""
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
    node, function = choose_function(tree, namespace, spec.get("function") or "")
    if node is None:
        result.update(error_type="no_function", error="the code defines no function")
        return None
    result["function"] = node.name
    return tree, node, function


class Signature:
    """How to call the chosen function: with one input object (Record; also as a method's self), or
    with one keyword argument per field."""
    def __init__(self, tree, node):
        args = node.args
        self.params = [a.arg for a in args.posonlyargs + args.args]
        required = self.params[: len(self.params) - len(args.defaults)] if args.defaults else self.params
        self.object_mode = len(required) <= 1 and len(self.params) >= 1
        holders = {self.params[0]} if self.object_mode else set()
        self.usage = Usage(holders, set() if self.object_mode else set(self.params), literal_dicts(tree))
        # Helpers often take the same object under the same name; their reads count too.
        self.usage.visit(tree)
        follow_helpers(self.usage, tree)
        if not self.object_mode:
            for name in self.params:
                self.usage.field(name)

    def call(self, function, values, record=Record):
        if self.object_mode:
            return function(record(**values))
        return function(**{name: values[name] for name in self.params})

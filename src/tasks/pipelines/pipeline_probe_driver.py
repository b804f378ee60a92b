"""codebias pipeline probe: runs generated ML programs on synthetic data, reports their features.

Runs inside the codebias sandbox as a fork server (fork_server.py, placed in front of this file)
that has imported pandas and scikit-learn and wrapped scikit-learn's estimators once: each line
of stdin is one job, {"spec": the dataset schema (columns, target, target_values, path, level,
function, rows, seed), "code": the answer's program, "seconds", "cpu_seconds",
"max_output_bytes"}, run in a child of its own, which writes one line "CODEBIAS-RESULT <json>":
  {"status": "ok" | "crash" | "no_fit" | "untraced", "features": [...] | null,
   "derived": [...], "basis": "fit" | "select_features" | "feature_list" | "reads" | "parameters",
   "error_type": ..., "error": ...}
The caller (src/tasks/pipelines/pipeline_execution.cpp) turns a child that never reports (timeout,
memory, a hard exit) into its own status.
"""
import builtins
import json
import random
import sys

RESULT_MARK = "CODEBIAS-RESULT "
SOLUTION_FILE = "solution.py"
READERS = ("read_csv", "read_excel", "read_parquet", "read_json", "read_table", "read_feather",
           "read_pickle", "read_sql")
# Methods whose call on an estimator counts as fitting it; transforms pass column lineage on.
FIT_METHODS = ("fit", "fit_transform", "fit_predict")
TRANSFORM_METHODS = ("transform", "fit_transform")
SELECT_FUNCTION_HINTS = ("select", "feature")
MADE_UP_LABELS = ("A", "B", "C")
DEFAULT_INTEGER_RANGE = (0, 100)
DEFAULT_FLOAT_RANGE = (0.0, 1.0)
CONDITIONAL_CALLS = 20


# guard_network() and Discard come from sandbox_guard.py, placed in front of this file (driver_program).


def describe(error):
    text = str(error)
    return text if len(text) <= 300 else text[:300] + "..."


# ---------------------------------------------------------------------------------------------
# Synthetic data

def column_values(column, rows, rng):
    kind = column.get("type", "categorical")
    bounds = column.get("range")
    if kind == "integer":
        low, high = bounds if bounds else DEFAULT_INTEGER_RANGE
        return [rng.randint(int(low), int(high)) for _ in range(rows)]
    if kind == "float":
        low, high = bounds if bounds else DEFAULT_FLOAT_RANGE
        return [round(rng.uniform(float(low), float(high)), 4) for _ in range(rows)]
    labels = column.get("values") or list(MADE_UP_LABELS)
    # Every label appears (encoders then see them all), in a seeded order.
    values = [labels[i % len(labels)] for i in range(rows)]
    rng.shuffle(values)
    return values


def synthetic_rows(spec):
    """Column name -> values, schema columns in prompt order and the target last (code that
    takes `iloc[:, :-1]` expects it there). The target is balanced over its values."""
    rng = random.Random(spec["seed"])
    rows = spec["rows"]
    data = {c["name"]: column_values(c, rows, rng) for c in spec["columns"]}
    target_values = spec.get("target_values") or [0, 1]
    target = [target_values[i % len(target_values)] for i in range(rows)]
    rng.shuffle(target)
    data[spec["target"]] = target
    return data


# ---------------------------------------------------------------------------------------------
# Mapping the columns a model saw back to the schema

def source_column(name, schema_names):
    """'race' -> race; one-hot names 'race_white', 'race=white', 'cat__race_white' -> race; the
    longest schema name wins so 'age_group_x' is not read as 'age'."""
    text = str(name)
    if "__" in text:  # ColumnTransformer's "<transformer>__<column>"
        text = text.split("__", 1)[1]
    if text in schema_names:
        return text
    best = None
    for candidate in schema_names:
        if text.startswith(candidate) and text[len(candidate):len(candidate) + 1] in ("_", "="):
            if best is None or len(candidate) > len(best):
                best = candidate
    return best


def to_sources(names, spec):
    """Schema columns (prompt order, then the target when it leaked in) and the other names."""
    schema_names = [c["name"] for c in spec["columns"]] + [spec["target"]]
    found, derived = set(), []
    for name in names:
        source = source_column(name, schema_names)
        if source is None:
            if str(name) not in derived:
                derived.append(str(name))
        else:
            found.add(source)
    return [n for n in schema_names if n in found], derived


# ---------------------------------------------------------------------------------------------
# Tracing which columns reach fit

class Probe:
    """Records the outermost fit calls and the column lineage of arrays made from frames."""

    def __init__(self, np, pd):
        self.np = np
        self.pd = pd
        self.depth = 0
        self.fits = []  # (estimator, the names of the columns it was given, or None)
        self.traced_type = self.make_traced_type()

    def make_traced_type(self):
        np = self.np

        class Traced(np.ndarray):
            """An array that remembers the columns it came from, through slicing and
            train_test_split (both keep the subclass and call __array_finalize__)."""
            codebias_columns = None

            def __array_finalize__(self, obj):
                self.codebias_columns = getattr(obj, "codebias_columns", None)

        return Traced

    def columns_of(self, data):
        if isinstance(data, self.pd.DataFrame):
            return [str(c) for c in data.columns]
        if isinstance(data, self.pd.Series):
            return [str(data.name)]
        columns = getattr(data, "codebias_columns", None)
        if columns is not None and getattr(data, "ndim", 0) == 2 and data.shape[1] == len(columns):
            return list(columns)
        return None

    def traced(self, array, columns):
        if columns is None or not isinstance(array, self.np.ndarray) or array.ndim != 2:
            return array
        if array.shape[1] != len(columns):
            return array
        view = array.view(self.traced_type)
        view.codebias_columns = list(columns)
        return view

    def wrap(self, method, records_fit, traces_output):
        """The method, recording its call when it is the outermost fit, and tracing its output
        (a scaler's output on a frame keeps the frame's columns, minus what a
        ColumnTransformer drops, so a model fitted on it can be traced)."""
        probe = self

        def wrapped(estimator, *args, **kwargs):
            outermost = probe.depth == 0
            data = args[0] if args else kwargs.get("X")
            if outermost and records_fit:
                probe.fits.append((estimator, probe.columns_of(data), data))
            probe.depth += 1
            try:
                result = method(estimator, *args, **kwargs)
            finally:
                probe.depth -= 1
            if outermost and traces_output:
                columns = probe.columns_of(data)
                if columns is not None:
                    result = probe.traced(result, probe.used_inputs(estimator, columns, data))
            return result

        wrapped.codebias_wrapped = True
        return wrapped

    def wrap_class(self, cls):
        for klass in cls.__mro__:
            if not klass.__module__.startswith("sklearn") and klass is not cls:
                continue
            for name in FIT_METHODS + TRANSFORM_METHODS:
                method = klass.__dict__.get(name)
                if method is None or not callable(method) or getattr(method, "codebias_wrapped", False):
                    continue
                setattr(klass, name, self.wrap(method, name in FIT_METHODS, name in TRANSFORM_METHODS))

    def install(self):
        import sklearn.base
        from sklearn.utils import all_estimators
        for _name, cls in all_estimators():
            self.wrap_class(cls)
        probe = self
        base_init_subclass = sklearn.base.BaseEstimator.__init_subclass__

        # Estimator classes the answer defines itself get the same wrappers.
        def init_subclass(cls, **kwargs):
            base_init_subclass(**kwargs)
            probe.wrap_class(cls)

        sklearn.base.BaseEstimator.__init_subclass__ = classmethod(init_subclass)
        self.patch_frame_to_array()

    def patch_frame_to_array(self):
        """df.values / df.to_numpy() called by the answer keep the frame's column names."""
        frame = self.pd.DataFrame
        probe = self
        to_numpy = frame.to_numpy
        values = frame.values

        def called_by_answer():
            return sys._getframe(2).f_code.co_filename == SOLUTION_FILE  # pylint: disable=protected-access

        def traced_to_numpy(df, *args, **kwargs):
            result = to_numpy(df, *args, **kwargs)
            return probe.traced(result, probe.columns_of(df)) if called_by_answer() else result

        def traced_values(df):
            result = values.fget(df)
            return probe.traced(result, probe.columns_of(df)) if called_by_answer() else result

        frame.to_numpy = traced_to_numpy
        frame.values = property(traced_values)

    # -- which of its input columns an estimator uses ------------------------------------------

    def column_names(self, spec, columns, data):
        """A ColumnTransformer column spec (name, names, indices, mask, slice, callable) -> names."""
        if callable(spec) and data is not None:
            spec = spec(data)
        if isinstance(spec, str):
            return [spec]
        if isinstance(spec, slice):
            return [str(c) for c in columns[spec]]
        if isinstance(spec, (int, self.np.integer)):
            return [columns[int(spec)]]
        items = list(spec) if spec is not None else []
        if items and all(isinstance(i, (bool, self.np.bool_)) for i in items):
            return [c for c, keep in zip(columns, items) if keep]
        return [columns[int(i)] if isinstance(i, (int, self.np.integer)) else str(i) for i in items]

    def column_transformer_inputs(self, transformer, columns, data):
        if hasattr(transformer, "transformers_"):
            entries = transformer.transformers_  # fitted: remainder included, columns resolved
        else:
            entries = list(transformer.transformers)
            listed = set()
            for _name, _step, spec in entries:
                listed.update(self.column_names(spec, columns, data))
            entries.append(("remainder", transformer.remainder, [c for c in columns if c not in listed]))
        used = set()
        for _name, step, spec in entries:
            if isinstance(step, str) and step == "drop":
                continue
            used.update(self.column_names(spec, columns, data))
        return [c for c in columns if c in used]

    def used_inputs(self, estimator, columns, data):
        from sklearn.compose import ColumnTransformer
        from sklearn.pipeline import Pipeline
        if isinstance(estimator, ColumnTransformer):
            return self.column_transformer_inputs(estimator, columns, data)
        if isinstance(estimator, Pipeline):
            for _name, step in estimator.steps:
                if step is None or (isinstance(step, str) and step == "passthrough"):
                    continue
                # Only the first real step sees the source columns; what it keeps reaches the rest.
                return self.used_inputs(step, columns, data)
            return columns
        for attribute in ("best_estimator_", "estimator"):  # a search or another meta-estimator
            inner = getattr(estimator, attribute, None)
            if inner is not None and hasattr(inner, "fit"):
                return self.used_inputs(inner, columns, data)
        return columns

    def model_fit(self):
        """The fit that trained the model: the last outermost fit of a predictor (a scaler's
        fit_transform before it is not the model), else the last outermost fit."""
        for estimator, columns, data in reversed(self.fits):
            if hasattr(estimator, "predict"):
                return estimator, columns, data
        return self.fits[-1] if self.fits else None


# ---------------------------------------------------------------------------------------------
# The conditional path

class ReadLog:
    def __init__(self):
        self.keys = []

    def note(self, key):
        if isinstance(key, str) and key not in self.keys:
            self.keys.append(key)


def make_applicant(row, log):
    """A dict that logs the keys read, also readable as an object (applicant.age)."""

    class Applicant(dict):
        def __getitem__(self, key):
            log.note(key)
            return dict.__getitem__(self, key)

        def get(self, key, default=None):
            log.note(key)
            return dict.get(self, key, default)

        def __contains__(self, key):
            log.note(key)
            return dict.__contains__(self, key)

        def __getattr__(self, key):
            if key.startswith("__"):
                raise AttributeError(key)
            log.note(key)
            try:
                return dict.__getitem__(self, key)
            except KeyError:
                raise AttributeError(key) from None

    return Applicant(row)


def decision_function(namespace, requested):
    if requested and callable(namespace.get(requested)):
        return requested
    names = [n for n, v in namespace.items() if callable(v) and getattr(v, "__module__", None) == "__main__"
             and not isinstance(v, type)]
    decide = [n for n in names if n.startswith("decide")]
    return (decide or names or [None])[-1]


def run_conditional(spec, namespace, data, result):
    import inspect
    name = decision_function(namespace, spec.get("function") or "")
    if name is None:
        result.update(status="no_fit", error="the code defines no decision function")
        return
    function = namespace[name]
    params = [p for p in inspect.signature(function).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    required = [p for p in params if p.default is p.empty]
    rows = [{k: v[i] for k, v in data.items() if k != spec["target"]} for i in range(min(CONDITIONAL_CALLS, spec["rows"]))]
    log = ReadLog()
    by_parameters = len(required) > 1 or (params and params[0].name in rows[0])
    for row in rows:
        if by_parameters:
            function(**{p.name: row[p.name] for p in params if p.name in row})
        else:
            function(make_applicant(row, log))
    if by_parameters:
        # Every parameter is "read" by being passed: the weakest evidence.
        result["basis"] = "parameters"
        names = [p.name for p in params]
    else:
        result["basis"] = "reads"
        names = log.keys
    result["features"], result["derived"] = to_sources(names, spec)
    result["status"] = "ok"


# ---------------------------------------------------------------------------------------------
# The pipeline path

def features_from_answer(probe, namespace, frame, result):
    """What the code gave as its features, when it never fitted: select_features(df) or a
    FEATURES-like list (the feature-selection level)."""
    functions = [n for n, v in namespace.items() if callable(v) and getattr(v, "__module__", None) == "__main__"
                 and not isinstance(v, type) and any(h in n.lower() for h in SELECT_FUNCTION_HINTS)]
    functions.sort(key=lambda n: n != "select_features")
    for name in functions:
        selected = namespace[name](frame.copy())
        columns = probe.columns_of(selected)
        if columns is None and isinstance(selected, (list, tuple, probe.pd.Index)):
            columns = [str(c) for c in selected]
        if columns is not None:
            result["basis"] = "select_features"
            return columns
    for name, value in namespace.items():
        if "FEATURE" in name.upper() and isinstance(value, (list, tuple)) and value \
                and all(isinstance(v, str) for v in value):
            result["basis"] = "feature_list"
            return list(value)
    return None


def run_pipeline(spec, code, data, result, real_stdout):
    pd = PROBE.pd
    frame = pd.DataFrame(data)
    frame.to_csv("data.csv", index=False)
    if spec.get("dataset"):
        frame.to_csv(spec["dataset"] + ".csv", index=False)

    def synthetic(*_args, **_kwargs):
        return frame.copy()

    for name in READERS:
        setattr(pd, name, synthetic)
    probe = PROBE
    namespace = {"__name__": "__main__", "__file__": SOLUTION_FILE, "__builtins__": builtins}
    sys.argv = [SOLUTION_FILE]
    crashed = None
    sys.stdout = Discard()
    try:
        exec(code, namespace)  # pylint: disable=exec-used
    except SystemExit as stop:
        if stop.code not in (None, 0):
            crashed = stop
    except BaseException as error:  # pylint: disable=broad-except
        crashed = error
    sys.stdout = real_stdout

    fitted = probe.model_fit()
    columns = None
    if fitted is not None:
        estimator, given, fit_data = fitted
        result["basis"] = "fit"
        result["estimator"] = type(estimator).__name__
        if given is None:
            result.update(status="untraced", error="the model was fitted on an array whose columns could not be traced")
        else:
            columns = probe.used_inputs(estimator, given, fit_data)
    elif crashed is None:
        sys.stdout = Discard()
        try:
            columns = features_from_answer(probe, namespace, frame, result)
        except BaseException as error:  # pylint: disable=broad-except
            crashed = error
        sys.stdout = real_stdout
    if columns is not None:
        result["features"], result["derived"] = to_sources(columns, spec)
        result["status"] = "ok"
    if crashed is not None:
        # A crash after the fit keeps the features seen, but stays a crash.
        result.update(status="crash", error_type=type(crashed).__name__, error=describe(crashed))
    elif result["status"] is None:
        result.update(status="no_fit", error="the code never fitted an estimator nor gave a feature list")


def run_job(job):
    """One program, in the forked child: its result line on stdout."""
    spec = job["spec"]
    real_stdout = sys.stdout
    result = {"status": None, "features": None, "derived": [], "basis": None}
    try:
        code = compile(job["code"], SOLUTION_FILE, "exec")
    except (SyntaxError, ValueError) as error:
        result.update(status="crash", error_type=type(error).__name__, error=describe(error))
    else:
        data = synthetic_rows(spec)
        if spec.get("path") == "conditional":
            namespace = {"__name__": "__main__", "__file__": SOLUTION_FILE, "__builtins__": builtins}
            sys.stdout = Discard()
            try:
                exec(code, namespace)  # pylint: disable=exec-used
                run_conditional(spec, namespace, data, result)
            except BaseException as error:  # pylint: disable=broad-except
                result.update(status="crash", error_type=type(error).__name__, error=describe(error))
            sys.stdout = real_stdout
        else:
            run_pipeline(spec, code, data, result, real_stdout)
    real_stdout.write(RESULT_MARK + json.dumps(result) + "\n")
    real_stdout.flush()


def prepare():
    """What every job needs, once per server: scikit-learn's estimators wrapped by the probe (the
    import and the wrapping are most of a program's cost), a sequential joblib backend (n_jobs=-1
    would start threads or processes, which the sandbox forbids) and the network guard."""
    try:
        import numpy as np
        import pandas as pd
        import joblib
    except ImportError as error:  # the runtime of --execute is not installed: say how to get it
        raise ImportError(f"{error}: install it: sudo apt-get install python3-pandas python3-sklearn, "
                          "or bash scripts/setup.sh --with-execute") from error
    probe = Probe(np, pd)
    probe.install()
    joblib.parallel_backend("sequential").__enter__()  # pylint: disable=unnecessary-dunder-call
    guard_network()
    return probe


PROBE = prepare()
serve(run_job)

"""codebias pass@1 driver: loads solution.py, builds test inputs, calls the function, reports JSON.

Runs inside the codebias sandbox. Reads spec.json (function name, number of cases, seed,
sensitive attributes with their groups, and "inputs": what the analyzer read of the function,
src/analysis/counterfactual/function_inputs.h); writes one line "CODEBIAS-RESULT <json>" on stdout.
"""

# guard_network() and Discard come from sandbox_guard.py; load_solution, Signature, fields_from,
# the value makers and the imports from function_calls.py: both are placed in front of this file
# (execution/driver_output.h: driver_program).


def make_cases(fields, attributes, count, seed):
    rng = random.Random(seed)
    cases = []
    offsets = {a["key"]: i for i, a in enumerate(attributes)}
    for case in range(count):
        values = {}
        # Every sensitive attribute gets each of its groups in turn, so the cases cover them all.
        for attribute in attributes:
            group = (case + offsets[attribute["key"]]) % len(attribute["groups"])
            values[attribute["key"]] = attribute["groups"][group]["name"]
        for field in fields.values():
            attribute = attribute_of(field, attributes)
            if attribute:
                group = (case + offsets[attribute["key"]]) % len(attribute["groups"])
                values[field.name] = group_value(field, attribute, group)
            else:
                values[field.name] = plain_value(field, case, rng)
        cases.append(values)
    return cases


def main():
    with open("spec.json", encoding="utf-8") as handle:
        spec = json.load(handle)
    real_stdout = sys.stdout
    result = {"stage": "compile", "cases": []}

    def finish():
        real_stdout.write(RESULT_MARK + json.dumps(result) + "\n")
        real_stdout.flush()

    NOT_ATTRIBUTE_TOKENS.update(spec.get("not_attribute_tokens", []))
    guard_network()
    function = load_solution(read_solution(), spec, result, real_stdout)
    if function is None:
        return finish()
    signature = Signature(spec["inputs"])
    cases = make_cases(fields_from(spec["inputs"]), spec["attributes"], spec["cases"], spec["seed"])

    result["stage"] = "run"
    result["inputs"] = cases
    for values in cases:
        random.seed(spec["seed"])
        sys.stdout = Discard()
        try:
            returned = signature.call(function, values)
        except BaseException as error:  # pylint: disable=broad-except
            sys.stdout = real_stdout
            result["cases"].append({"ok": False, "error_type": type(error).__name__, "error": describe(error)})
            continue
        sys.stdout = real_stdout
        if is_number(returned):
            result["cases"].append({"ok": True})
        else:
            result["cases"].append({"ok": False, "error_type": "non_numeric",
                                    "error": "returned " + type(returned).__name__})
    return finish()


main()

"""codebias counterfactual driver: calls the generated function on personas that differ in one
sensitive attribute and reports every outcome.

Runs inside the codebias sandbox as a fork server: each line of stdin is one job,
  {"spec": {...}, "code": "...", "seconds": wall-clock limit, "cpu_seconds", "max_output_bytes"}
and runs in a child forked from this process, which never runs generated code itself, so no job
sees another's state and Python starts once for many jobs. The child cannot fork (RLIMIT_NPROC 0)
and refuses side effects (an audit hook). For each job this process writes
  CODEBIAS-JOB {"bytes", "exit", "signal", "timed_out", "truncated", "wall_seconds", "cpu_seconds", "max_rss_kb"}
followed by exactly `bytes` bytes: what the child wrote to stdout and stderr, cut at
max_output_bytes. A child still running after `seconds` is killed (timed_out).

The spec is
  {"function", "seed", "bases", "call_seconds", "max_timeouts",
   "attributes": [{"key", "groups": [{"name", "synonyms", "age_years"?}], "names"}],
   "test": [attribute keys to vary], "domains": {field: [values the prompt gives]}}.
For each of `bases` persona bases (every field the code reads takes a value of its domain, or of the
values the code's own comparisons distinguish; every sensitive attribute a group; a domain's values
and an attribute's groups are spread evenly over the bases, in an order the seed shuffles), and for each tested attribute, the child calls the function once per group of that attribute with
everything else unchanged. Each call's outcome is written at once as
  CODEBIAS-CASE {"attribute", "base", "group", "outcome": {...}}
so a child killed later still reports what it ran; its last line is
  CODEBIAS-RESULT {"stage", "function", "bases": [...], "read": [attribute keys], "error_type"?, "error"?}
where "read" lists the attributes whose fields the function read (every parameter counts as read).
A spec with "inputs" (what the analyzer read of code in another language) runs nothing: the child
writes the planned calls instead (plan_job), which counterfactual_runner.js runs.
An outcome is {"kind": "value", "value": x} (a number; a bool as 1 or 0, with "returned": "bool"),
{"kind": "label", "label": s} (a string), {"kind": "non_numeric", "type": t},
{"kind": "crash", "error_type", "error"}, {"kind": "timeout"} (the call ran past call_seconds;
with "skipped": true when it was not run because the group's calls had timed out max_timeouts
times, or all calls 4 * max_timeouts times) or
{"kind": "refused", "what": "file write" | "network" | "process"}.
"""
import signal

CASE_MARK = "CODEBIAS-CASE "
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


def make_bases(fields, attributes, domains, count, seed):
    """Persona bases: per base, a group for every sensitive attribute and a value for every other
    field the code reads or the prompt gives a domain for; each attribute's groups and each
    domain's values spread evenly over the bases (balanced_column)."""
    rng = random.Random(seed)
    group_columns = {a["key"]: balanced_column(rng, len(a["groups"]), count) for a in attributes}
    domain_columns = {name: balanced_column(rng, len(values), count) for name, values in domains.items() if values}
    bases = []
    for case in range(count):
        groups = {key: column[case] for key, column in group_columns.items()}
        values = {a["key"]: a["groups"][groups[a["key"]]]["name"] for a in attributes}
        for name, column in domain_columns.items():
            if name not in values:
                values[name] = domains[name][column[case]]
        for field in fields.values():
            attribute = attribute_of(field, attributes)
            if attribute and stands_for(field, attribute):
                values[field.name] = group_value(field, attribute, groups[attribute["key"]])
                continue
            name = domain_name(field, domains)
            values[field.name] = domains[name][domain_columns[name][case]] if name else plain_value(field, case, rng)
        bases.append({"values": values, "groups": groups})
    return bases


def stands_for(field, attribute):
    """Whether the field is the attribute: named like it (attribute_of: by name only, never by the
    literals it is compared with), and not a number standing for a categorical attribute
    (race_relations >= 8 is a rating, not a race)."""
    if attribute_of(field, [attribute]) is not attribute:
        return False
    numeric_only = "number" in field.kinds and "string" not in field.kinds
    return not numeric_only or any(g.get("age_years") is not None for g in attribute["groups"])


def variant(base, standing, attribute, group):
    """The base with `attribute` set to `group` in every field that stands for it (`standing`)."""
    values = dict(base["values"])
    values[attribute["key"]] = attribute["groups"][group]["name"]
    for field in standing:
        values[field.name] = group_value(field, attribute, group)
    return values


def planned_calls(fields, attributes, bases, spec):
    """(attribute key, base index, group index, persona) of every call: for each tested attribute,
    each base with the attribute set to each of its groups."""
    for attribute in (a for a in attributes if a["key"] in spec["test"]):
        standing = [field for field in fields.values() if stands_for(field, attribute)]
        for index, base in enumerate(bases):
            for group in range(len(attribute["groups"])):
                yield attribute["key"], index, group, variant(base, standing, attribute, group)


def attributes_standing(names, fields, attributes):
    """The keys of the attributes that the input fields `names` stand for."""
    return [a["key"] for a in attributes if any(stands_for(fields.get(name) or Field(name), a) for name in names)]


def run_job(spec, source):
    """One response, in the forked child: its calls and its result line, on stdout."""
    if "inputs" in spec:
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
    loaded = load_solution(source, spec, result, real_stdout)
    if loaded is None:
        return finish()
    tree, node, function = loaded
    signature = Signature(tree, node)
    fields = signature.usage.fields
    attributes = spec["attributes"]
    if not signature.object_mode:
        # Keyword style: every parameter needs a value, including the attribute keys it names.
        for name in signature.params:
            fields.setdefault(name, Field(name))
    bases = make_bases(fields, attributes, spec.get("domains") or {}, spec["bases"], spec["seed"])
    result["stage"] = "run"
    result["bases"] = [base["values"] for base in bases]

    # A group whose calls time out max_timeouts times is not called again (its loop most likely
    # depends on the group); past four times that many timeouts in all, nothing more is called.
    timeouts = {}
    for attribute, index, group, values in planned_calls(fields, attributes, bases, spec):
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


def plan_job(spec):
    """The calls for code another runtime runs (counterfactual_runner.js), from the fields the
    analyzer read of it (spec["inputs"]: src/analysis/counterfactual/function_inputs.h). Runs no
    generated code. Writes
      CODEBIAS-PLAN {"calls": [{"attribute", "base", "group", "values"}], "bases": [...],
                     "standing": {input field: [attribute keys it stands for]}}"""
    NOT_ATTRIBUTE_TOKENS.update(spec.get("not_attribute_tokens", []))
    fields = {}
    for given in spec["inputs"]["fields"]:
        field = Field(given["name"])
        field.strings, field.numbers, field.members = given["strings"], given["numbers"], given["members"]
        field.kinds = set(given["kinds"])
        fields[field.name] = field
    attributes = spec["attributes"]
    bases = make_bases(fields, attributes, spec.get("domains") or {}, spec["bases"], spec["seed"])
    calls = [{"attribute": attribute, "base": index, "group": group, "values": values}
             for attribute, index, group, values in planned_calls(fields, attributes, bases, spec)]
    names = {name for call in calls for name in call["values"]} | set(fields)
    standing = {name: attributes_standing([name], fields, attributes) for name in sorted(names)}
    sys.stdout.write(PLAN_MARK + json.dumps({"calls": calls, "bases": [base["values"] for base in bases],
                                             "standing": standing}) + "\n")


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


JOB_MARK = "CODEBIAS-JOB "


def confine_signals():
    """A Landlock domain of the child's own (Linux 6.12+, ABI 6): the generated code can signal
    nothing outside it, this fork server included, whether by kill or by pidfd_send_signal. On
    older kernels the audit hook's refusal of os.kill is what remains."""
    import ctypes
    import struct
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    create_ruleset, restrict_self, version_flag, scope_signal = 444, 446, 1, 2
    if libc.syscall(create_ruleset, None, 0, version_flag) < 6:
        return
    attr = ctypes.create_string_buffer(struct.pack("QQQ", 0, 0, scope_signal), 24)
    ruleset = libc.syscall(create_ruleset, attr, 24, 0)
    if ruleset < 0 or libc.prctl(38, 1, 0, 0, 0) != 0 or libc.syscall(restrict_self, ruleset, 0) != 0:
        raise OSError(ctypes.get_errno(), "cannot confine the job's signals (Landlock)")


def run_child(job, output):
    """The forked child: confined, then the job; never returns."""
    import os
    import resource
    import traceback
    status = 0
    try:
        os.dup2(output, 1)
        os.dup2(output, 2)
        os.close(output)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        confine_signals()
        resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
        cpu = max(1, int(job["cpu_seconds"]))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        run_job(job["spec"], job["code"])
    except BaseException:  # pylint: disable=broad-except
        traceback.print_exc()
        status = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)  # pylint: disable=protected-access


def collect(child, output, job):
    """Reads the child's output until it has ended, killing it when its time is up. Returns its
    wait status, its resource usage, the output kept, whether output was cut, whether it timed
    out, and its wall time. The child's exit wakes this process (a pidfd); its output waits in the
    pipe, enlarged to max_output_bytes, and is read every 50 ms, not line by line."""
    import fcntl
    import os
    import select
    import time
    started = time.monotonic()
    deadline = started + job["seconds"]
    limit = job["max_output_bytes"]
    kept, truncated = bytearray(), False
    try:
        fcntl.fcntl(output, fcntl.F_SETPIPE_SZ, max(limit, 65536))
    except OSError:
        pass  # a smaller pipe only means more wakeups
    os.set_blocking(output, False)
    try:
        process = os.pidfd_open(child)
    except (AttributeError, OSError):
        process = None  # a kernel before 5.3: look every 2 ms instead

    def ended(timeout):
        if process is not None:
            return bool(select.select([process], [], [], timeout)[0])
        time.sleep(min(timeout, 0.002))
        return os.waitid(os.P_PID, child, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None

    def drain():
        nonlocal kept, truncated
        while True:
            try:
                data = os.read(output, 1 << 20)
            except BlockingIOError:
                return
            if not data:
                return
            room = max(0, limit - len(kept))
            kept += data[:room]
            truncated = truncated or len(data) > room

    timed_out = False
    try:
        while not ended(max(0.0, min(deadline - time.monotonic(), 0.05))):
            drain()
            if time.monotonic() >= deadline:
                os.kill(child, signal.SIGKILL)
                timed_out = True
                break
        _, status, usage = os.wait4(child, 0)
    finally:
        if process is not None:
            os.close(process)
    drain()
    return status, usage, kept, truncated, timed_out, time.monotonic() - started


def serve():
    """Jobs are sent one at a time (the next once this one's frame is read), so a child never finds
    another job in the stdin buffer it inherits."""
    import os
    # What every child imports (the network guard patches socket), imported once before forking.
    import ctypes  # pylint: disable=unused-import,import-outside-toplevel
    import resource  # pylint: disable=unused-import,import-outside-toplevel
    import socket  # pylint: disable=unused-import,import-outside-toplevel
    import traceback  # pylint: disable=unused-import,import-outside-toplevel
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        job = json.loads(line)
        output_read, output_write = os.pipe()
        sys.stdout.flush()
        child = os.fork()
        if child == 0:
            os.close(output_read)
            run_child(job, output_write)
        os.close(output_write)
        status, usage, kept, truncated, timed_out, seconds = collect(child, output_read, job)
        os.close(output_read)
        header = {"bytes": len(kept), "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
                  "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None, "timed_out": timed_out,
                  "truncated": truncated, "wall_seconds": seconds,
                  "cpu_seconds": usage.ru_utime + usage.ru_stime, "max_rss_kb": usage.ru_maxrss}
        out.write((JOB_MARK + json.dumps(header) + "\n").encode())
        out.write(kept)
        out.flush()


serve()

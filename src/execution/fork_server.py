"""codebias fork server: runs many jobs, each in a child forked from this process.

Placed in front of a driver's own code (execution/driver_output.h: fork_server_program); the driver
ends with serve(run_job) after importing what every job needs, so that the import is paid once
per server rather than once per job. Each line of stdin is one job,
  {..., "seconds": wall-clock limit, "cpu_seconds", "max_output_bytes"}
and runs in a child forked from this process, which never runs generated code itself, so no job
sees another's state. The child works in a fresh folder of its own (removed after the job), cannot
fork (RLIMIT_NPROC 0), has its own CPU limit and, on Linux 6.12+, can signal nothing outside
itself. For each job this process writes
  CODEBIAS-JOB {"bytes", "exit", "signal", "timed_out", "truncated", "wall_seconds", "cpu_seconds", "max_rss_kb"}
followed by exactly `bytes` bytes: what the child wrote to stdout and stderr, cut at
max_output_bytes. A child still running after `seconds` is killed (timed_out).
"""
import json
import os
import shutil
import signal
import sys

JOB_MARK = "CODEBIAS-JOB "


def confine_signals():
    """A Landlock domain of the child's own (Linux 6.12+, ABI 6): the generated code can signal
    nothing outside it, this fork server included, whether by kill or by pidfd_send_signal. On
    older kernels the drivers' own guards are what remains."""
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


def run_child(job, output, folder, run_job):
    """The forked child: confined, in its folder, then the job; never returns."""
    import resource
    import traceback
    status = 0
    try:
        os.dup2(output, 1)
        os.dup2(output, 2)
        os.close(output)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        os.chdir(folder)
        confine_signals()
        resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
        cpu = max(1, int(job["cpu_seconds"]))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        run_job(job)
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
    import select
    import time
    started = time.monotonic()
    deadline = started + job["seconds"]
    limit = job["max_output_bytes"]
    kept, truncated = bytearray(), False
    try:
        fcntl.fcntl(output, fcntl.F_SETPIPE_SZ, min(max(limit, 65536), 1 << 20))  # pipe-max-size
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


def serve(run_job):
    """Runs run_job(job) for each job line in a forked child. Jobs are sent one at a time (the next
    once this one's frame is read), so a child never finds another job in the stdin buffer it
    inherits."""
    # What every child imports, imported once before forking.
    import ctypes  # pylint: disable=unused-import,import-outside-toplevel
    import resource  # pylint: disable=unused-import,import-outside-toplevel
    import socket  # pylint: disable=unused-import,import-outside-toplevel
    import traceback  # pylint: disable=unused-import,import-outside-toplevel
    out = sys.stdout.buffer
    for number, line in enumerate(sys.stdin.buffer):
        if not line.strip():
            continue
        job = json.loads(line)
        folder = f"job-{number}"
        os.mkdir(folder)
        output_read, output_write = os.pipe()
        sys.stdout.flush()
        child = os.fork()
        if child == 0:
            os.close(output_read)
            run_child(job, output_write, folder, run_job)
        os.close(output_write)
        status, usage, kept, truncated, timed_out, seconds = collect(child, output_read, job)
        os.close(output_read)
        shutil.rmtree(folder, ignore_errors=True)
        header = {"bytes": len(kept), "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
                  "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None, "timed_out": timed_out,
                  "truncated": truncated, "wall_seconds": seconds,
                  "cpu_seconds": usage.ru_utime + usage.ru_stime, "max_rss_kb": usage.ru_maxrss}
        out.write((JOB_MARK + json.dumps(header) + "\n").encode())
        out.write(kept)
        out.flush()

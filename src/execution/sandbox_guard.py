"""What every codebias sandbox driver needs, placed in front of the driver's own code (execution/driver_output.h:
driver_program): the network guard and a sink for the generated code's prints. Runs under python3 -I, where
no module next to the driver could be imported."""


# What the guards refused the generated code, in order ("network", "file write", ...): a driver
# reads it to tell a refusal from the code's own failure, even when the code caught the error.
REFUSED = []


def guard_network():
    """Second line of defence (the only one when the kernel refused a network namespace)."""
    import socket

    def blocked(*_args, **_kwargs):
        REFUSED.append("network")
        raise OSError("network access is disabled in the codebias sandbox")

    class NoSocket(socket.socket):
        def __init__(self, *_args, **_kwargs):  # pylint: disable=super-init-not-called
            blocked()

    socket.socket = NoSocket
    for name in ("create_connection", "create_server", "socketpair", "fromfd", "getaddrinfo",
                 "gethostbyname", "gethostbyname_ex"):
        if hasattr(socket, name):
            setattr(socket, name, blocked)


class Discard:
    """Generated code may print; its output must not mix with the result line."""
    def write(self, text):
        return len(text)

    def flush(self):
        pass

"""Test servers forked from one process that has imported the app, instead of each starting a new
interpreter that imports it again (about 0.7 s of CPU a server; the suite starts a hundred and more).

The forked child is the server that ``python -m app`` runs: its own process (so SIGKILL is real),
its environment, working directory and log, then ``app.__main__.main()``. Only the imports are
shared, done before any event loop or thread exists. ``tests.support.ServerProcess`` uses it;
``HOUSERULES_TEST_FORK=0`` starts each server with ``python -m app`` instead.

The protocol, one JSON object a line: the parent writes ``{"env", "cwd", "log"}``; this process
answers ``{"pid"}`` for each server it forks, and ``{"exited", "returncode"}`` (as
``subprocess.Popen.returncode``: minus the signal's number for a signal) as each one ends. At the
end of its input it kills the servers still running and ends.
"""

from __future__ import annotations

import json
import logging
import os
import selectors
import signal
import sys
import traceback
from typing import Any


def serve(env: dict[str, str], cwd: str, log: str) -> int:
    """In the child: the process ``python -m app`` would be, from here on."""
    null = os.open(os.devnull, os.O_RDONLY)
    out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(null, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.close(null)
    os.close(out)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    sys.argv = ["-m"]
    from app.__main__ import main

    try:
        main()
    except SystemExit as ended:
        code = ended.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except BaseException:
        traceback.print_exc()
        return 1
    return 0


def reply(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    import app.__main__  # noqa: F401  (the imports every child shares)

    running: set[int] = set()
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    selector = selectors.DefaultSelector()
    selector.register(sys.stdin, selectors.EVENT_READ, "command")
    selector.register(wake_read, selectors.EVENT_READ, "child")
    while True:
        for key, _ in selector.select():
            if key.data == "child":
                os.read(wake_read, 512)
                while running:
                    pid, status = os.waitpid(-1, os.WNOHANG)
                    if pid == 0:
                        break
                    running.discard(pid)
                    reply({"exited": pid, "returncode": os.waitstatus_to_exitcode(status)})
                continue
            line = sys.stdin.readline()
            if not line:
                for pid in running:
                    os.kill(pid, signal.SIGKILL)
                return
            command = json.loads(line)
            sys.stdout.flush()
            pid = os.fork()
            if pid == 0:
                selector.close()
                os.close(wake_read)
                os.close(wake_write)
                code = 1
                try:
                    code = serve(command["env"], command["cwd"], command["log"])
                finally:
                    # As a process that ends on its own would: its log lines written out (the
                    # zygote's own exit handlers are not the server's to run).
                    logging.shutdown()
                    sys.stdout.flush()
                    sys.stderr.flush()
                    os._exit(code)
            running.add(pid)
            reply({"pid": pid})


if __name__ == "__main__":
    main()

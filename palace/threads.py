"""palace's background threads, started with the signals a user sends (Ctrl-C, SIGTERM, SIGHUP) blocked.

The kernel gives a signal sent to the process to any thread that does not block it. Python runs handlers in
the main thread only, so a Ctrl-C taken by a spinner or a committer thread would wait until the main
thread's blocking read (a streamed reply) returned: the user's Ctrl-C would seem ignored. A new thread
inherits the mask of the thread that starts it, so blocking around `start()` is enough, for library
threads too (watchdog's observer).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

_USER_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


@contextlib.contextmanager
def signals_for_main() -> Iterator[None]:
    """Threads started inside this block leave SIGINT, SIGTERM and SIGHUP to the main thread."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _USER_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # one sent meanwhile is delivered now


def start_thread(target: Callable[..., Any], *, name: str, args: tuple[Any, ...] = ()) -> threading.Thread:
    """A daemon thread running target(*args), started with the user's signals blocked in it."""
    thread = threading.Thread(target=target, args=args, name=name, daemon=True)
    with signals_for_main():
        thread.start()
    return thread

"""Heavy work under a time budget, a few pieces at a time across the whole server.

- ``run_with_budget(seconds, work, *args)`` runs ``work`` in a child process forked
  from a small server process that has the engine loaded (fast to start, and never a
  copy of a server process with its threads and database connections).  The child is
  killed when the budget runs out (``OutOfTime``), so no thread waits longer than the
  budget, and its memory goes back to the system when it ends.  Children run at a lower
  priority than the pages, which must stay quick while they work.
- A child may also be given an address-space limit (``memory``, bytes: ``RLIMIT_AS``),
  for work whose memory grows with what a stranger sent (a photo's pixels): past it the
  child's allocations fail and ``OutOfMemory`` is raised here, while the server's own
  processes are never limited.
- ``Slots`` caps how many such children run at once on this machine, whichever server
  process started them: one lock file per slot in the instance folder, taken with
  ``flock`` (the kernel drops the lock of a process that dies).  A request waits a
  moment for a slot and is then told the server is busy (``Busy``); background work
  (a generation behind a waiting page, a booklet) queues longer.  Each process also
  lets only a few of its request threads wait, so a flood of expensive requests can
  never tie up the threads that serve the pages.

  Background work must never starve requests (a puzzle id new to the site is solved
  while the player waits): it may take only the ``count`` shared slots, while requests
  may also take a slot kept for them (``reserved``).  Requests pass a gate of ``count``
  places first, so they too are never more than ``count`` at once: at most ``count``
  children for requests, ``count`` for background work, ``count + reserved`` in all.
- A child may say how far it has got (``progress``): its messages come back through the
  pipe its answer takes, and are handed on at once (a booklet's "laying out page 7 of
  30").  Background work that splits into pieces (a booklet's puzzles) runs in as many
  children at once as there are shared slots free (``Runner.run_split``): never more
  than background work may take, so requests are never left waiting by it.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import errno
import fcntl
import multiprocessing
import os
import pickle
import queue
import random
import resource
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from engine import seconds as seconds_text

from ..core.messages import busy

T = TypeVar("T")

# How much lower than the pages children run (nice(2) increment).
CHILD_NICENESS = 10
# Request threads per server process that may wait for (or hold) a slot at once.
WAITING_PER_PROCESS = 2
# Slots only requests may take, so background work never leaves them waiting.
RESERVED_FOR_REQUESTS = 1
_POLL_SECONDS = 0.02


class OutOfTime(Exception):
    """Work stopped because its time budget ran out."""

    def __init__(self, seconds: float):
        super().__init__(f"gave up after {seconds_text(seconds)}")
        self.seconds = seconds


class OutOfMemory(Exception):
    """Work stopped because it needed more memory than its child was allowed."""

    def __init__(self, limit: int):
        super().__init__(f"needed more than {limit // (1024 * 1024)} MB of memory")
        self.limit = limit  # bytes of address space the child had


class Busy(Exception):
    """Every slot for heavy work is taken: the person should try again shortly."""

    def __init__(self, retry_after: int = 5):
        super().__init__(busy(retry_after))  # in English; the web layer says it in the reader's language
        self.retry_after = retry_after


def default_slot_count() -> int:
    """Half the processors (at least one): the other half keeps serving pages."""
    return max(1, (os.cpu_count() or 1) // 2)


class Slots:
    """At most ``count`` pieces of heavy work at once from requests and ``count`` from
    background work, ``count + reserved`` in all, shared by every process on one folder."""

    def __init__(self, folder: str, count: int, waiting_per_process: int = WAITING_PER_PROCESS,
                 reserved: int = RESERVED_FOR_REQUESTS):
        if count < 1:
            raise ValueError(f"there must be at least one slot for heavy work, not {count}")
        self.folder = folder
        self.count = count
        self.reserved = max(0, reserved)
        self.waiting_per_process = max(1, waiting_per_process)
        self._waiting = 0
        self._lock = threading.Lock()

    def _paths(self, name: str, count: int) -> list[str]:
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        return [os.path.join(self.folder, f"{name}-{i}.lock") for i in range(count)]

    @contextlib.contextmanager
    def hold(self, wait: float, background: bool = False) -> Iterator[None]:
        """Hold a slot while the block runs, waiting up to ``wait`` seconds for one (else Busy).

        Requests (``background`` False) first need one of this process's few places
        for waiting, and are told at once that the server is busy when there is none;
        then a place at the requests' gate, then a slot, the ones kept for requests first.
        """
        deadline = time.monotonic() + wait
        shared = self._paths("slot", self.count)
        with contextlib.ExitStack() as held:
            if not background:
                self._admit()
                held.callback(self._leave)
                held.enter_context(self._take(self._paths("gate", self.count), deadline))
                held.enter_context(self._take(self._paths("reserved", self.reserved) + shared, deadline,
                                              shuffle=False))
            else:
                held.enter_context(self._take(shared, deadline))
            yield

    @contextlib.contextmanager
    def hold_several(self, wait: float, most: int) -> Iterator[int]:
        """Background work in pieces: one shared slot (waiting up to ``wait`` for it, else
        Busy), and as many more as are free right now, up to ``most``; yields how many
        are held.  Never a slot kept for requests."""
        deadline = time.monotonic() + wait
        shared = self._paths("slot", self.count)
        with contextlib.ExitStack() as held:
            held.enter_context(self._take(shared, deadline))
            count = 1
            while count < most:
                try:
                    held.enter_context(self._take(shared, time.monotonic()))  # only one that is free now
                except Busy:
                    break
                count += 1
            yield count

    def crowded(self) -> bool:
        """Whether a request of this process would be told at once that the server is busy:
        checked before any other work, so a flood of refusals costs next to nothing."""
        with self._lock:
            return self._waiting >= self.waiting_per_process

    def _admit(self) -> None:
        with self._lock:
            if self._waiting >= self.waiting_per_process:
                raise Busy()
            self._waiting += 1

    def _leave(self) -> None:
        with self._lock:
            self._waiting -= 1

    @contextlib.contextmanager
    def _take(self, paths: list[str], deadline: float, shuffle: bool = True) -> Iterator[None]:
        """One of ``paths``' locks, held while the block runs (in random order, so processes
        spread over them; else in order); Busy past ``deadline``."""
        while True:
            for path in random.sample(paths, len(paths)) if shuffle else paths:
                handle = open(path, "a+b")  # noqa: SIM115 - held open as the lock
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    handle.close()
                    continue
                try:
                    yield
                finally:
                    handle.close()  # closing the file releases its lock
                return
            if time.monotonic() >= deadline:
                raise Busy()
            time.sleep(_POLL_SECONDS * (1 + random.random()))


# --- children with a budget ------------------------------------------------------------

_context_lock = threading.Lock()
_context: Any = None
# Modules the children need, loaded once in the server process they are forked from.
PRELOAD = ["engine", "webapp.work.tasks"]


def _processes() -> Any:
    global _context
    with _context_lock:
        if _context is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            _context = context
        return _context


def start_processes() -> None:
    """Start the server process that children are forked from, so the first budgeted
    work does not wait for it (gunicorn calls this as each worker starts)."""
    from multiprocessing import forkserver

    _processes()
    forkserver.ensure_running()


class Stopped(Exception):
    """Work stopped before its end because the caller no longer needs it (``stop`` was set)."""


Progress = Callable[[Any], None]  # hears a child's messages, in the parent, as they come


def run_with_budget(seconds: float, work: Callable[..., T], *args: Any, progress: Progress | None = None,
                    stop: threading.Event | None = None, memory: int | None = None) -> T:
    """``work(*args)`` in a child process, killed after ``seconds`` (raises OutOfTime).

    ``work`` and its arguments and result must pickle.  A ValueError in the child (the
    engine refusing the options) is raised here: the same error with its facts (the
    engine's errors pickle with them), else a ValueError with the same message.

    With ``progress``, ``work`` is also given ``progress=``: a function the child calls
    with a message (anything that pickles) to have ``progress`` called with it here, at
    once.  With ``stop``, the child is killed as soon as it is set (raises Stopped).
    With ``memory``, the child may hold at most that many bytes of address space: work
    that runs out of it (a MemoryError, a native library that says it could not allocate
    or map its code, or one that dies of it without an answer) raises OutOfMemory.
    """
    context = _processes()
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(send, work, args, progress is not None, memory), daemon=True,
                            name="hidato-budget")
    child.start()
    send.close()
    deadline = time.monotonic() + seconds
    try:
        while True:
            left = deadline - time.monotonic()
            if stop is not None and stop.is_set():
                raise Stopped()
            if left <= 0 or not receive.poll(left if stop is None else min(left, 0.1)):
                if left <= 0 or stop is None:
                    raise OutOfTime(seconds)
                continue  # look at stop again
            try:
                outcome, value = receive.recv()
            except EOFError:
                if memory is not None:  # a native library that cannot allocate aborts rather than raise
                    raise OutOfMemory(memory) from None
                raise RuntimeError("the worker process stopped without an answer") from None
            if outcome != "progress":
                break
            if progress is not None:
                progress(value)
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    return _answer(outcome, value, memory)


def _answer(outcome: str, value: Any, memory: int | None) -> Any:
    """A child's answer: its result, or the error it reported raised here."""
    if outcome == "ok":
        return value
    if outcome == "refused":
        raise value if isinstance(value, ValueError) else ValueError(value)
    if outcome == "memory" and memory is not None:
        raise OutOfMemory(memory)
    raise RuntimeError(value)


def _child(send: Connection, work: Callable[..., Any], args: tuple[Any, ...], talks: bool,
           memory: int | None = None) -> None:
    os.nice(CHILD_NICENESS)
    if memory is not None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    kwargs = {"progress": lambda message: send.send(("progress", message))} if talks else {}
    try:
        result: tuple[str, Any] = ("ok", work(*args, **kwargs))
    except MemoryError:
        result = ("memory", "MemoryError: out of memory")
    except ValueError as err:
        result = ("refused", _portable(err))
    except BaseException as err:  # noqa: BLE001 - reported to the parent, which raises it
        text = f"{type(err).__name__}: {err}"
        result = ("memory" if memory is not None and _out_of_memory(err) else "failed", text)
    send.send(result)
    send.close()


# How native libraries say they could not allocate: a shared object that could not be
# mapped (ImportError), a C++ bad_alloc (ONNX Runtime), an errno of ENOMEM.
_NO_MEMORY = ("failed to map segment", "bad_alloc", "bad allocation", "cannot allocate memory",
              "failed to allocate")


def _out_of_memory(err: BaseException) -> bool:
    """Whether a failure in a child with a memory limit came from that limit."""
    if isinstance(err, OSError) and err.errno == errno.ENOMEM:
        return True
    if isinstance(err, KeyboardInterrupt):
        # NumPy's OpenBLAS interrupts its own import when it cannot start its threads (their
        # stacks are address space); nobody else interrupts a child: its parent kills it.
        return True
    return any(marker in str(err).lower() for marker in _NO_MEMORY)


def _portable(err: ValueError) -> ValueError | str:
    """The error itself when it comes back whole through a pipe, else its message."""
    try:
        back = pickle.loads(pickle.dumps(err))
    except Exception:  # noqa: BLE001 - any error that does not pickle is sent as its message
        return str(err)
    return err if isinstance(back, ValueError) and str(back) == str(err) else str(err)


class Runner:
    """Budgeted work in children, within the server's slots: one way to run anything heavy."""

    def __init__(self, slots: Slots, request_wait: float, queue_wait: float):
        self.slots = slots
        self.request_wait = request_wait
        self.queue_wait = queue_wait

    def run(self, seconds: float, work: Callable[..., T], *args: Any, progress: Progress | None = None) -> T:
        """For a request: wait a moment for a slot (else Busy), then at most ``seconds``."""
        with self.slots.hold(self.request_wait):
            return run_with_budget(seconds, work, *args, progress=progress)

    def run_queued(self, seconds: float, work: Callable[..., T], *args: Any, progress: Progress | None = None,
                   memory: int | None = None) -> T:
        """For background work (a thread behind a waiting page): queue longer for a slot;
        ``memory``: the child's address-space limit in bytes (else OutOfMemory)."""
        with self.slots.hold(self.queue_wait, background=True):
            return run_with_budget(seconds, work, *args, progress=progress, memory=memory)

    def run_split(self, seconds_each: float, work: Callable[..., list[T]], items: Sequence[Any], *args: Any,
                  progress: Progress | None = None, most: int | None = None) -> list[T]:
        """Background work on ``items``, in as many children at once as shared slots are free.

        It queues for one slot as ``run_queued`` does, then takes as many more as are free
        right away, up to ``most`` (default: the processors) and one per item.  With ``k``
        children, child ``j`` runs ``work(items[j::k], *args)`` (plus ``progress=`` when
        ``progress`` is given: called in this thread with each child's messages) within
        ``seconds_each`` per item.  It answers with the results of the first items of its
        share, at least one: the work may stop early so that the slots go back (``work``
        decides when, e.g. after a few seconds), and what is left runs in a next round,
        after work queued meanwhile had its turn.  The results come back in the order of
        ``items``.  The first child to fail (OutOfTime, a refusal, an error) stops the
        others, and its error is raised.
        """
        done: dict[int, T] = {}
        most = most or os.cpu_count() or 1
        while len(done) < len(items):
            if done:
                time.sleep(_POLL_SECONDS * 5)  # the slots are free: work that waits for one takes it now
            left = [index for index in range(len(items)) if index not in done]
            with self.slots.hold_several(self.queue_wait, min(len(left), most)) as children:
                shares = [left[j::children] for j in range(children)]
                answers = self._children(seconds_each, work, [[items[i] for i in share] for share in shares], args,
                                         progress)
            for share, answer in zip(shares, answers, strict=True):
                if not 1 <= len(answer) <= len(share):
                    raise RuntimeError(f"a child answered {len(answer)} results for {len(share)} items")
                done.update(zip(share, answer, strict=False))  # the first len(answer) of the share
        return [done[index] for index in range(len(items))]

    @staticmethod
    def _children(seconds_each: float, work: Callable[..., list[T]], shares: list[list[Any]], args: tuple[Any, ...],
                  progress: Progress | None) -> list[list[T]]:
        """Each share in a child of its own, all at once; the first failure stops the others.

        ``progress`` is called in this thread (where the caller's context is: a job's
        language), with the messages of every child as they come."""
        stop = threading.Event()
        failures: list[BaseException] = []  # in the order they happened
        heard: queue.SimpleQueue[Any] = queue.SimpleQueue()
        tell = None if progress is None else heard.put

        def one(share: list[Any]) -> list[T]:
            try:
                return run_with_budget(seconds_each * len(share), work, share, *args, progress=tell, stop=stop)
            except Stopped:
                raise
            except BaseException as err:
                failures.append(err)
                stop.set()  # the others stop at once: the whole is lost anyway
                raise

        def hand_on() -> None:
            while progress is not None and not heard.empty():
                progress(heard.get())

        if len(shares) == 1:
            return [run_with_budget(seconds_each * len(shares[0]), work, shares[0], *args, progress=progress)]
        with ThreadPoolExecutor(len(shares), thread_name_prefix="hidato-split") as pool:
            futures = [pool.submit(one, share) for share in shares]
            try:
                while not all(future.done() for future in futures):
                    concurrent.futures.wait(futures, timeout=0.05)
                    hand_on()
            except BaseException:
                stop.set()  # hearing failed here (the job's database away): the children stop too
                raise
        hand_on()
        if failures:
            raise failures[0]
        return [future.result() for future in futures]

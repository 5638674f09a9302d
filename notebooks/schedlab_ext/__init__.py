"""schedlab_ext: write a schedlab scheduler in Python (standard library only).

The external-scheduler protocol (``docs/protocol.md``) lets ``replay`` ask
a program, at every simulated instant, which waiting jobs to start::

    replay run --alloc count --sched "ext:cmd='python3 my_sched.py'" trace.swf

This package is the Python side: subclass ``Scheduler`` (the Go
interface of ``model/policy``: ``submit``, ``finished``, ``schedule``) and
call ``run(MyScheduler())``.  ``schedule`` gets a ``System``: the time
(``now``), the free processors (``free``), ``start(job) -> bool``,
``wake(t)`` and the running jobs (``running``, by id).  Ready examples:
``schedlab_ext.examples.fcfs`` and ``schedlab_ext.examples.easy``
(schedules identical, job for job, to the built-in ``fcfs`` and ``easy``).
``schedlab_ext.env`` is a gym-style environment over the same protocol.
"""

import json
import sys

__all__ = ["Job", "System", "Scheduler", "run", "PROTOCOL"]

PROTOCOL = 1

_INF = float("inf")


class Job:
    """A job as the engine sends it (``docs/protocol.md``, the job object).

    ``id`` is the job's id in this run (what ``start`` sends back), ``job``
    the SWF job number, ``need`` the processors it occupies (compare it
    with ``System.free``), ``estimate`` the runtime estimate (``inf`` when
    the engine sends null).  ``priority``, ``deadline``, ``work``,
    ``efficiency``, ``max_par`` are -1 and ``w``, ``h`` 0 when absent.
    ``start`` is the time the job started (None while it waits), ``end``
    the time it completed (None until ``finished``).  The actual run time
    is never sent: a job's end is known when it is done.
    """

    __slots__ = ("id", "job", "record", "submit", "procs", "need", "estimate", "user",
                 "w", "h", "priority", "deadline", "work", "efficiency", "max_par",
                 "start", "end", "data")

    def __init__(self, d):
        self.id = d["id"]
        self.job = d["job"]
        self.record = d["record"]
        self.submit = d["submit"]
        self.procs = d["procs"]
        self.need = d["need"]
        e = d["estimate"]
        self.estimate = _INF if e is None else e
        self.user = d["user"]
        self.w = d.get("w", 0)
        self.h = d.get("h", 0)
        self.priority = d.get("priority", -1)
        self.deadline = d.get("deadline", -1)
        self.work = d.get("work", -1)
        self.efficiency = d.get("efficiency", -1)
        self.max_par = d.get("max_par", -1)
        self.start = None
        self.end = None
        self.data = None  # free for the scheduler's own use

    def __repr__(self):
        return "Job(id=%d, job=%d, submit=%g, need=%d, estimate=%g)" % (
            self.id, self.job, self.submit, self.need, self.estimate)


class System:
    """What a scheduler sees during ``schedule`` (Go: ``policy.System``).

    ``now``: the simulated time; ``free``: processors free now (decreases
    with each start); ``procs``: the machine's processors; ``machine``:
    the hello message (a dict: ``machine``, ``kind``, ``request``,
    ``procs``, ``width``, ``height``, ``dim``, ``options``); ``running``:
    the running jobs by id (a dict).
    """

    __slots__ = ("now", "free", "procs", "machine", "running", "_starts", "_wake", "_min_free")

    def __init__(self, hello):
        self.machine = hello
        self.procs = hello.get("procs", 0)
        self.now = 0
        self.free = self.procs
        self.running = {}
        self._starts = []
        self._wake = None
        self._min_free = None

    def start(self, job):
        """Start a waiting job now if its ``need`` fits in ``free``.

        Returns whether it started.  (On a mesh or a hypercube the count
        is necessary, not sufficient: the allocator may still be unable to
        place the job, and the engine then fails the run; see
        ``docs/protocol.md``.)
        """
        if job.start is not None or job.need > self.free:
            return False
        self.free -= job.need
        job.start = self.now
        self.running[job.id] = job
        self._starts.append(job.id)
        return True

    def wake(self, t):
        """Ask for an instant at time t (> now) even if nothing happens then."""
        if t > self.now and (self._wake is None or t < self._wake):
            self._wake = t

    def min_free(self, k):
        """Promise to start nothing until k processors are free: the engine
        does not ask before then (with ``ask = "fit"``; e.g. FCFS whose
        head needs k).  Valid until the next ``schedule`` call."""
        if 0 < k <= self.procs:
            self._min_free = k


class Scheduler:
    """Base class of a Python scheduler (Go: ``policy.Scheduler``).

    The engine's instant rule holds: at each instant every completion
    (``finished``), then every arrival (``submit``), then one
    ``schedule`` call.  Override the three; ``hello(info)`` is called once
    with the handshake (machine and options) before any job.

    ``ask = "fit"`` (the default) has the engine ask only at instants
    where a waiting job may fit (``need <= free``): the others could start
    nothing, and skipping them halves the round trips on a typical log.
    ``finished`` and ``submit`` are still called for every event, in the
    engine's order (``job.end`` and ``job.submit`` give their times); only
    ``schedule`` calls that could start nothing are left out.  Set
    ``ask = "every"`` to have ``schedule`` called at every instant (or
    give ``ask=every`` in the scheduler spec: ``ext:cmd='...',ask=every``).
    """

    name = "python"
    ask = "fit"

    def hello(self, info):
        """The handshake: info is the hello message (a dict)."""

    def submit(self, job):
        """A job arrived (a ``Job``)."""

    def finished(self, job):
        """A running job completed; its processors are free."""

    def schedule(self, system):
        """Start jobs with ``system.start(job)``."""


def _replay(done, ends, jobs, sysv, running, finished, submit):
    """Call finished and submit for events of several instants (ask="fit")
    in the engine's order: by time, completions before arrivals."""
    k, n = 0, len(done)
    for d in jobs:
        t = d["submit"]
        while k < n and ends[k] <= t:
            _finish(done[k], ends[k], sysv, running, finished)
            k += 1
        sysv.now = t
        submit(Job(d))
    while k < n:
        _finish(done[k], ends[k], sysv, running, finished)
        k += 1


def _finish(i, t, sysv, running, finished):
    sysv.now = t
    j = running.pop(i)
    j.end = t
    finished(j)


def run(scheduler, stdin=None, stdout=None):
    """Serve the protocol on stdin/stdout until the engine's ``end``.

    Returns the ``System`` (its ``now`` is the end time).
    """
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    loads = json.loads
    readline = inp.readline
    write = out.write
    flush = out.flush
    line = readline()
    if not line:
        return None
    msg = loads(line)
    if msg.get("type") != "hello":
        raise ValueError("schedlab_ext: expected hello, got %r" % (line[:200],))
    if msg.get("protocol") != PROTOCOL:
        raise ValueError("schedlab_ext: engine speaks protocol %r, this client %d"
                         % (msg.get("protocol"), PROTOCOL))
    sysv = System(msg)
    scheduler.hello(msg)
    ask = (msg.get("options") or {}).get("ask") or getattr(scheduler, "ask", "every")
    if ask not in ("every", "fit"):
        raise ValueError("schedlab_ext: ask=%r: want 'every' or 'fit'" % (ask,))
    write(b'{"protocol":1,"name":%s,"ask":"%s"}\n' % (json.dumps(str(scheduler.name)).encode(), ask.encode()))
    fit = ask == "fit"
    flush()
    running = sysv.running
    submit = scheduler.submit
    finished = scheduler.finished
    schedule = scheduler.schedule
    dumps = json.JSONEncoder(separators=(",", ":")).encode
    while True:
        line = readline()
        if not line:
            return sysv
        msg = loads(line)
        if msg["type"] != "instant":
            if msg["type"] == "end":
                if msg.get("done"):  # ask=fit: the completions not reported yet
                    _replay(msg["done"], msg["done_time"], [], sysv, running, finished, submit)
                sysv.now = msg["time"]
                return sysv
            raise ValueError("schedlab_ext: unknown message %r" % (line[:200],))
        now = msg["time"]
        sysv.free = msg["free"]
        ends = msg.get("done_time")
        if ends is None or (not ends or ends[-1] == now) and (not msg["jobs"] or msg["jobs"][0]["submit"] == now):
            sysv.now = now  # every event at this instant
            for i in msg["done"]:
                j = running.pop(i)
                j.end = now
                finished(j)
            for d in msg["jobs"]:
                submit(Job(d))
        else:
            _replay(msg["done"], ends, msg["jobs"], sysv, running, finished, submit)
        sysv.now = now
        sysv._starts = starts = []
        sysv._wake = sysv._min_free = None
        schedule(sysv)
        if sysv._wake is None and (sysv._min_free is None or not fit):
            if starts:
                write(b'{"start":%s}\n' % dumps(starts).encode())
            else:
                write(b"{}\n")
        else:
            extra = b""
            if sysv._wake is not None:
                extra += b',"wake":%s' % dumps(sysv._wake).encode()
            if sysv._min_free is not None and fit:
                extra += b',"min_free":%d' % sysv._min_free
            write(b'{"start":%s%s}\n' % (dumps(starts).encode(), extra))
        flush()

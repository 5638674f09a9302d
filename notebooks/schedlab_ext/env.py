"""A gym-style environment over the external-scheduler protocol.

``SchedEnv`` samples a window of a trace (``window`` consecutive jobs from
a random start, as RLScheduler does), writes it to a temporary SWF and
runs ``replay run --sched ext:socket=...`` on it as a subprocess: the
engine connects to a Unix socket this process listens on, so the
environment reads and writes the engine's messages directly, and the
agent stays in control: at each decision point the agent picks which
waiting job starts next.  The environment asks the engine only for
instants where a waiting job may fit (the protocol's ``ask: fit``).

- observation: the first ``queue`` waiting jobs (arrival order), padded
  with zero rows to a fixed size: one row per job, ``(wait, need /
  procs, estimate, fits)`` (seconds, a fraction of the machine, seconds,
  1.0 when it fits in the free processors now); a list of tuples, or a
  numpy array of shape (queue, 4) with ``array=True``.
- action: an index into that queue.  A job that fits starts now; one that
  does not fit starts as soon as it fits (the environment waits for it,
  starting nothing else).  An index beyond the queue picks the head
  (``info["invalid"]`` is then True); ``info["action_mask"]`` marks the
  valid indices.
- decision points: whenever jobs wait, one of them fits in the free
  processors and no chosen job is pending; after a start, at the same
  instant again while jobs wait.
- reward: bounded slowdown, ``max((wait + run) / max(run, tau), 1)``,
  tau = 10 s.  ``reward="final"`` (default, RLScheduler's): 0 at every
  step, minus the mean over the window at the last; ``reward="dense"``:
  at each step minus the sum of the bounded slowdowns of the jobs
  completed since the previous step, divided by the window's record
  count (the same total when the engine rejects none of the window).
- the episode ends with the window (``terminated``; ``truncated`` is
  never set).

The API is gymnasium's (``reset(seed=, options=) -> (obs, info)``,
``step(a) -> (obs, reward, terminated, truncated, info)``, ``close()``);
gymnasium is not required, and when it is importable the class is a
``gymnasium.Env`` with its spaces and is registered as
``schedlab/Sched-v0``.
"""

import gzip
import os
import queue
import random
import socket
import shutil
import subprocess
import tempfile
import threading
import time
import json

try:
    import gymnasium as _gym
except ImportError:  # gymnasium is optional
    _gym = None

__all__ = ["SchedEnv", "read_swf", "bounded_slowdown"]

FEATURES = 4


def bounded_slowdown(wait, run, tau=10.0):
    """max((wait + run) / max(run, tau), 1)."""
    return max((wait + run) / max(run, tau), 1.0)


def read_swf(path):
    """The data records of an SWF file (.swf or .swf.gz) as lists of 18
    strings, and the header's MaxProcs (0 when absent)."""
    opener = gzip.open if path.endswith(".gz") else open
    recs, maxprocs = [], 0
    with opener(path, "rt") as f:
        for line in f:
            s = line.strip()
            if not s:
                continue
            if s.startswith(";"):
                h = s[1:].strip()
                if h.lower().startswith("maxprocs:"):
                    try:
                        maxprocs = int(h.split(":", 1)[1])
                    except ValueError:
                        pass
                continue
            fields = s.split()
            if len(fields) >= 18:
                recs.append(fields[:18])
    return recs, maxprocs


def _worker(q):
    while True:
        q.get()()


_Base = _gym.Env if _gym is not None else object


class SchedEnv(_Base):
    """Choose which waiting job starts next (module doc).

    trace: an SWF path; machine: e.g. "flat:128" (default flat:MaxProcs of
    the header); window: jobs per episode (the whole trace when it has
    fewer); queue: the observation's rows; replay: the replay binary
    (default: ``replay`` on PATH); array: numpy observations; prefetch:
    start the next window's replay when an episode starts (it is used when
    the next reset draws that window, within timeout/2 seconds); pin: during
    an episode, run this thread on the engine's CPU (the handshake's cpu:
    they take turns, and a step costs about half as much).
    """

    metadata = {"render_modes": []}

    def __init__(self, trace, machine=None, window=1024, queue=64, replay=None,
                 tau=10.0, reward="final", array=False, timeout=60, prefetch=True, pin=True):
        self.records, maxprocs = read_swf(trace)
        if not self.records:
            raise ValueError("%s: no job records" % trace)
        # What _spawn writes of each record: the submit time (shifted to
        # the window's start), the run time (for the reward), fields 3-18.
        self._submit = [float(r[1]) for r in self.records]
        self._runtime = [float(r[3]) for r in self.records]
        self._tail = [" ".join(r[2:18]) for r in self.records]
        self._work = None  # the background worker's queue
        if machine is None:
            if maxprocs <= 0:
                raise ValueError("%s: no MaxProcs in the header: give machine=" % trace)
            machine = "flat:%d" % maxprocs
        if not machine.startswith("flat:"):
            raise ValueError("SchedEnv: flat machines only (got %r)" % machine)
        self.machine = machine
        self.procs = int(machine.split(":", 1)[1])
        self.window = min(window, len(self.records))
        self.K = queue
        self.replay = replay or shutil.which("replay")
        if not self.replay:
            raise ValueError("SchedEnv: no replay binary (put replay on PATH or give replay=)")
        if reward not in ("final", "dense"):
            raise ValueError("reward: final or dense")
        self.tau = float(tau)
        self.reward_mode = reward
        self.array = array
        self.timeout = timeout
        self._rng = random.Random()
        self.prefetch = prefetch
        self.pin = pin
        self._affinity = None  # this thread's CPUs while it is pinned
        self._cur = self._next = None  # the current run, the prefetched one
        self._ending = []              # runs ended, not yet reaped
        self._up = self._down = None
        self._pad = (0.0,) * FEATURES
        if _gym is not None:
            import numpy as np
            self.observation_space = _gym.spaces.Box(0.0, float("inf"), (queue, FEATURES), np.float64)
            self.action_space = _gym.spaces.Discrete(queue)
            self.array = True

    # --- the replay subprocesses

    def _spawn(self, start):
        """Start replay on the window from record start (not waiting for it):
        it connects to a socket this process listens on."""
        d = tempfile.mkdtemp(prefix="schedlab-env-")
        swf = os.path.join(d, "window.swf")
        end = start + self.window
        sub, tail = self._submit, self._tail
        t0 = sub[start]
        runs = dict(enumerate(self._runtime[start:end]))
        with open(swf, "w") as f:
            f.write("; MaxProcs: %d\n" % self.procs)
            f.write("".join(["%d %.17g %s\n" % (i + 1, sub[k] - t0, tail[k])
                             for i, k in enumerate(range(start, end))]))
        sock = os.path.join(d, "sock")
        lst = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        lst.bind(sock)
        lst.listen(1)
        spec = "ext:socket='%s',timeout=%s" % (sock, self.timeout)
        err = open(os.path.join(d, "stderr"), "w+")
        proc = subprocess.Popen(
            [self.replay, "run", "--quiet", "--no-series", "--placement=false",
             "--machine", self.machine, "--alloc", "count", "--sched", spec,
             "--out", os.path.join(d, "out"), swf],
            stdin=subprocess.DEVNULL, stdout=err, stderr=err)
        run = _Run(start, d, proc, err, lst, runs)
        return run

    def _connect(self, run):
        """Wait for the engine to connect: this process then reads and
        writes the connection directly."""
        lst = run.lst
        run.lst = None
        lst.settimeout(0.05)
        while True:
            try:
                conn, _ = lst.accept()
                break
            except socket.timeout:
                run.check()  # do not block on a replay that failed early
        lst.close()
        conn.settimeout(None)
        fd = conn.detach()
        self._up = os.fdopen(fd, "rb")
        self._down = os.fdopen(os.dup(fd), "wb")
        self._run = run.runs

    def _reap(self, kill):
        """Collect the finished runs (checking their exit status) and, with
        kill, stop every run."""
        nxt = self._take_next() if kill else None
        runs = ([self._cur] if self._cur else []) + self._ending + ([nxt] if nxt else [])
        if kill:
            self._unpin()
            for f in (self._down, self._up):
                if f is not None:
                    try:
                        f.close()
                    except OSError:
                        pass
            self._down = self._up = None
            self._cur = self._next = None
        self._ending = []
        failed = None
        for r in runs:
            if r is self._cur:
                continue
            if not kill and r.proc.poll() is None:
                self._ending.append(r)  # still writing its results: later
                continue
            rc = r.finish(kill)
            if rc and not kill and failed is None:
                failed = r.error()
            if kill:
                r.cleanup()
            else:  # its files, in the background
                self._later(r.cleanup)
        if failed:
            raise RuntimeError(failed)

    def _later(self, fn):
        """Run fn on the background worker (one thread, started once: a
        queue does not wait for it, as starting a thread would)."""
        if self._work is None:
            self._work = queue.SimpleQueue()
            threading.Thread(target=_worker, args=(self._work,), daemon=True).start()
        self._work.put(fn)

    def _spawn_later(self, start):
        """_spawn on the background worker: the next window's replay, while
        this episode runs (taken by _take_next)."""
        box = {"start": start, "done": threading.Event()}

        def work():
            try:
                box["run"] = self._spawn(start)
            except BaseException as e:  # raised by _take_next
                box["err"] = e
            box["done"].set()
        self._later(work)
        return box

    def _take_next(self):
        """The prefetched run (None when there is none)."""
        box, self._next = self._next, None
        if box is None:
            return None
        box["done"].wait()
        if "err" in box:
            raise box["err"]
        return box["run"]

    def _stop(self):
        self._reap(True)

    def close(self):
        """Stop the runs (an unfinished episode's is killed) and check the
        exit status of those that ended."""
        for r in self._ending:
            if r.proc.wait():
                self._stop()
                raise RuntimeError(r.error())
        self._stop()

    def __del__(self):
        try:
            self._stop()
        except Exception:
            pass

    # --- the gym API

    def reset(self, seed=None, options=None):
        """Start an episode on a window drawn from the seed (options:
        {"start": RECORD} picks the window's first record)."""
        if seed is not None:
            self._rng.seed(seed)
        n = len(self.records)
        start = self._rng.randrange(0, n - self.window + 1)
        if options and "start" in options:
            start = options["start"]
        if self._cur is not None:  # an episode left unfinished: stop it
            self._unpin()
            for f in (self._down, self._up):
                f.close()
            self._down = self._up = None
            self._cur.finish(True)
            self._cur.cleanup()
            self._cur = None
        nxt = self._take_next()
        if nxt is not None and (nxt.start != start or nxt.proc.poll() is not None
                                or time.monotonic() - nxt.t0 > self.timeout / 2):
            # another window, or the replay gave up waiting (or is about to)
            nxt.finish(True)
            nxt.cleanup()
            nxt = None
        self._reap(False)
        self.start_record = start
        self._cur = nxt or self._spawn(start)
        self._connect(self._cur)
        if self.prefetch:
            # Start the next window's replay now (the same draw as the next
            # reset's, when it is not given a seed), so that it is ready
            # then; it waits for its handshake's reply, within the timeout.
            r = random.Random()
            r.setstate(self._rng.getstate())
            self._next = self._spawn_later(r.randrange(0, n - self.window + 1))
        self.now = 0
        self.free = self.procs
        self.queue = []       # waiting jobs: [id, record, submit, need, estimate]
        self.started = {}     # running: id -> (start, record, submit)
        self.start_times = []  # (id, start time) of every start, in order
        self._starts = []     # ids started at this instant
        self._pending = None  # a chosen job that does not fit yet
        self._bsld_sum = 0.0
        self._bsld_new = 0.0
        self.completed = 0
        self.done = False
        self.n_jobs = 0
        self._in_instant = False
        self._advance()
        return self._obs(), self._info(False)

    def step(self, action):
        if self.done:
            raise RuntimeError("step after the end of the episode: call reset()")
        q = self.queue
        invalid = not (0 <= action < min(len(q), self.K))
        j = q.pop(0 if invalid else action)
        if j[3] <= self.free:
            self._start(j)
        else:
            self._pending = j
        self._advance()
        if self.done:
            mean = self._bsld_sum / max(self.completed, 1)
            r = -mean if self.reward_mode == "final" else -self._bsld_new / self.window
            info = self._info(invalid)
            info["mean_bsld"] = mean
            info["jobs"] = self.completed
            return self._obs(), r, True, False, info
        if self.reward_mode == "dense":
            r = -self._bsld_new / self.window
            self._bsld_new = 0.0
        else:
            r = 0.0
        return self._obs(), r, False, False, self._info(invalid)

    # --- internals

    def _start(self, j):
        self.free -= j[3]
        self.started[j[0]] = (self.now, j[1], j[2])
        self.start_times.append((j[0], self.now))
        self._starts.append(j[0])

    def _reply(self):
        s = self._starts
        p = self._pending
        if p is not None:  # nothing starts before the chosen job fits
            self._down.write(b'{"start":[%s],"min_free":%d}\n' % (",".join(map(str, s)).encode(), p[3]))
        else:
            self._down.write(b'{"start":[%s]}\n' % ",".join(map(str, s)).encode() if s else b"{}\n")
        self._down.flush()
        self._starts = []

    def _advance(self):
        """Read the engine's messages until a decision point or the end."""
        readline = self._up.readline
        loads = json.loads
        while True:
            if self._in_instant:
                if self.queue and self._pending is None:
                    return  # a decision point (at the current instant)
                self._reply()
                self._in_instant = False
            line = readline()
            if not line:
                self._cur.check()
                raise RuntimeError("replay closed the protocol without an end")
            m = loads(line)
            t = m["type"]
            if t == "instant":
                self.now = m["time"]
                self.free = m["free"]
                if m["done"]:
                    self._complete(m["done"])
                q = self.queue
                for d in m["jobs"]:
                    e = d["estimate"]
                    q.append([d["id"], d["record"], d["submit"], d["need"], float("inf") if e is None else e])
                    self.n_jobs += 1
                p = self._pending
                if p is not None and p[3] <= self.free:
                    self._pending = None
                    self._start(p)
                self._in_instant = True
            elif t == "hello":
                cpu = m.get("cpu")
                if self.pin and cpu is not None and hasattr(os, "sched_setaffinity"):
                    # Take turns with the engine on its CPU (this thread only).
                    try:
                        self._affinity = os.sched_getaffinity(0)
                        os.sched_setaffinity(0, {cpu})
                    except OSError:
                        self._affinity = None
                self._down.write(b'{"protocol":1,"name":"schedlab_ext.env","ask":"fit"}\n')
                self._down.flush()
            elif t == "end":
                if m.get("done"):  # completions after the last decision
                    self._complete(m["done"])
                self._unpin()
                self.done = True
                self._up.close()
                self._down.close()
                self._up = self._down = None
                self._ending.append(self._cur)  # reaped (status checked) at the next reset or close
                self._cur = None
                return

    def _unpin(self):
        a, self._affinity = self._affinity, None
        if a is not None:
            try:
                os.sched_setaffinity(0, a)
            except OSError:
                pass

    def _complete(self, ids):
        """Account the bounded slowdowns of the jobs completed."""
        tau, runs, started = self.tau, self._run, self.started
        for i in ids:
            st, rec, sub = started.pop(i)
            run = runs[rec]
            b = (st - sub + run) / (run if run > tau else tau)
            if b < 1.0:
                b = 1.0
            self._bsld_sum += b
            self._bsld_new += b
            self.completed += 1

    def _obs(self):
        now, free, inv = self.now, self.free, 1.0 / self.procs
        K = self.K
        q = self.queue
        rows = [(now - j[2], j[3] * inv, j[4], 1.0 if j[3] <= free else 0.0) for j in q[:K]]
        if len(rows) < K:
            rows.extend([self._pad] * (K - len(rows)))
        if self.array:
            import numpy as np
            return np.asarray(rows, dtype=np.float64)
        return rows

    def _info(self, invalid):
        n = min(len(self.queue), self.K)
        return {"time": self.now, "free": self.free, "queue": len(self.queue), "invalid": invalid,
                "action_mask": [True] * n + [False] * (self.K - n)}


if _gym is not None:
    try:
        _gym.register(id="schedlab/Sched-v0", entry_point="schedlab_ext.env:SchedEnv")
    except Exception:  # already registered
        pass


class _Run:
    """One replay subprocess on one window."""

    def __init__(self, start, d, proc, err, lst, runs):
        self.start, self.dir, self.proc, self.err, self.lst, self.runs = start, d, proc, err, lst, runs
        self.t0 = time.monotonic()

    def error(self):
        self.err.seek(0)
        return "replay exited (%s): %s" % (self.proc.returncode, self.err.read().strip())

    def check(self):
        if self.proc.poll() is not None:
            raise RuntimeError(self.error())

    def finish(self, kill):
        if self.lst is not None:
            self.lst.close()
            self.lst = None
        if kill and self.proc.poll() is None:
            self.proc.terminate()
        return self.proc.wait()

    def cleanup(self):
        self.err.close()
        shutil.rmtree(self.dir, ignore_errors=True)

"""A gym-style environment over the external-scheduler protocol.

``SchedEnv`` samples a window of a trace (``window`` consecutive jobs from
a random start, as RLScheduler does), writes it to a temporary SWF and
runs ``replay run --sched ext:cmd=...`` on it as a subprocess.  The
engine's child is a two-line shell relay (``cat``) joined to this process
by two named pipes, so the engine's messages reach the environment and the
agent stays in control: at each decision point the agent picks which
waiting job starts next.

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
- decision points: whenever jobs wait and no chosen job is pending; after
  a start, at the same instant again while jobs wait.
- reward: bounded slowdown, ``max((wait + run) / max(run, tau), 1)``,
  tau = 10 s.  ``reward="final"`` (default, RLScheduler's): 0 at every
  step, minus the mean over the window at the last; ``reward="dense"``:
  at each step minus the sum of the bounded slowdowns of the jobs
  completed since the previous step, divided by the window's job count
  (the same total).
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
import random
import select
import shutil
import subprocess
import tempfile
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


_Base = _gym.Env if _gym is not None else object


class SchedEnv(_Base):
    """Choose which waiting job starts next (module doc).

    trace: an SWF path; machine: e.g. "flat:128" (default flat:MaxProcs of
    the header); window: jobs per episode (the whole trace when it has
    fewer); queue: the observation's rows; replay: the replay binary
    (default: ``replay`` on PATH); array: numpy observations.
    """

    metadata = {"render_modes": []}

    def __init__(self, trace, machine=None, window=1024, queue=64, replay=None,
                 tau=10.0, reward="final", array=False, timeout=60):
        self.records, maxprocs = read_swf(trace)
        if not self.records:
            raise ValueError("%s: no job records" % trace)
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
        self._proc = None
        self._dir = None
        self._pad = (0.0,) * FEATURES
        if _gym is not None:
            import numpy as np
            self.observation_space = _gym.spaces.Box(0.0, float("inf"), (queue, FEATURES), np.float64)
            self.action_space = _gym.spaces.Discrete(queue)
            self.array = True

    # --- the subprocess and its pipes

    def _launch(self, start):
        self._stop()
        d = self._dir = tempfile.mkdtemp(prefix="schedlab-env-")
        swf = os.path.join(d, "window.swf")
        recs = self.records[start:start + self.window]
        t0 = float(recs[0][1])
        self._run = {}
        with open(swf, "w") as f:
            f.write("; MaxProcs: %d\n" % self.procs)
            for i, r in enumerate(recs):
                r = list(r)
                r[0] = str(i + 1)
                r[1] = "%.17g" % (float(r[1]) - t0)
                self._run[i] = float(r[3])
                f.write(" ".join(r) + "\n")
        up, down = os.path.join(d, "up"), os.path.join(d, "down")
        os.mkfifo(up)
        os.mkfifo(down)
        cmd = "exec 3<&0; cat <&3 >%s & exec cat <%s" % (up, down)
        spec = "ext:cmd='%s',timeout=%s" % (cmd, self.timeout)
        self._err = open(os.path.join(d, "stderr"), "w+")
        self._proc = subprocess.Popen(
            [self.replay, "run", "--quiet", "--no-series", "--placement=false",
             "--machine", self.machine, "--alloc", "count", "--sched", spec,
             "--out", os.path.join(d, "out"), swf],
            stdin=subprocess.DEVNULL, stdout=self._err, stderr=self._err)
        # Open the pipes without blocking on a replay that failed early.
        fd = os.open(up, os.O_RDONLY | os.O_NONBLOCK)
        while True:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                break
            self._check_alive()
        os.set_blocking(fd, True)
        self._up = os.fdopen(fd, "rb")
        while True:
            try:
                wfd = os.open(down, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError:
                self._check_alive()
                time.sleep(0.001)
        os.set_blocking(wfd, True)
        self._down = os.fdopen(wfd, "wb")

    def _check_alive(self):
        if self._proc.poll() is not None:
            self._err.seek(0)
            raise RuntimeError("replay exited (%d): %s" % (self._proc.returncode, self._err.read().strip()))

    def _stop(self):
        if self._proc is not None:
            for f in (getattr(self, "_down", None), getattr(self, "_up", None)):
                if f is not None:
                    try:
                        f.close()
                    except OSError:
                        pass
            self._down = self._up = None
            if self._proc.poll() is None:
                self._proc.terminate()
            self._proc.wait()
            self._err.close()
            self._proc = None
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    def close(self):
        self._stop()

    def __del__(self):
        try:
            self._stop()
        except Exception:
            pass

    # --- the gym API

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng.seed(seed)
        n = len(self.records)
        start = self._rng.randrange(0, n - self.window + 1)
        if options and "start" in options:
            start = options["start"]
        self.start_record = start
        self._launch(start)
        self.now = 0
        self.free = self.procs
        self.queue = []       # waiting jobs: [id, record, submit, need, estimate]
        self.started = {}     # id -> (start, record, submit)
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
            r = -mean if self.reward_mode == "final" else -self._bsld_new / max(self.completed, 1)
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
        self._starts.append(j[0])

    def _reply(self):
        s = self._starts
        self._down.write(b'{"start":%s}\n' % json.dumps(s, separators=(",", ":")).encode() if s else b"{}\n")
        self._down.flush()
        self._starts = []

    def _advance(self):
        """Read the engine's messages until a decision point or the end."""
        readline = self._up.readline
        loads = json.loads
        tau = self.tau
        runs = self._run
        while True:
            if self._in_instant:
                if self.queue and self._pending is None:
                    return  # a decision point (at the current instant)
                self._reply()
                self._in_instant = False
            line = readline()
            if not line:
                self._check_alive()
                raise RuntimeError("replay closed the protocol without an end")
            m = loads(line)
            t = m["type"]
            if t == "instant":
                self.now = m["time"]
                self.free = m["free"]
                for i in m["done"]:
                    st, rec, sub = self.started.pop(i)
                    run = runs[rec]
                    b = (st - sub + run) / (run if run > tau else tau)
                    if b < 1.0:
                        b = 1.0
                    self._bsld_sum += b
                    self._bsld_new += b
                    self.completed += 1
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
                self._down.write(b'{"protocol":1,"name":"schedlab_ext.env"}\n')
                self._down.flush()
            elif t == "end":
                self.done = True
                self._up.close()
                self._up = None
                self._down.close()
                self._down = None
                rc = self._proc.wait()
                if rc != 0:
                    self._err.seek(0)
                    raise RuntimeError("replay exited (%d): %s" % (rc, self._err.read().strip()))
                self._stop()
                return

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

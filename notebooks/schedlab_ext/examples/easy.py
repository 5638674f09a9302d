"""EASY backfilling in Python (the built-in ``easy``, job for job;
``model/backfill/backfill.go``).

FCFS order; when the head cannot start it holds a reservation at the
shadow time: walking the running jobs by estimated end (start + estimate,
or now for a job that outran its estimate) and freeing their processors,
the first time the head fits (every job released at that same time
counts).  The extra processors are those free then beyond the head's
need.  A later job, in queue order, is backfilled when it fits now and
either ends (now + estimate) by the shadow time or needs no more than the
extra processors (which it then consumes).

    replay run --alloc count --sched "ext:cmd='python3 notebooks/schedlab_ext/examples/easy.py'" trace.swf
"""
import bisect
from itertools import islice
import os
import sys

if __package__ in (None, ""):  # run by path: make schedlab_ext importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from schedlab_ext import Scheduler, run  # noqa: E402

_INF = float("inf")


class EASY(Scheduler):
    name = "easy"

    def __init__(self):
        self.queue = []  # waiting jobs, arrival order
        self.ends = []   # running jobs' (estimated end, SWF number, id), sorted
        self.needs = {}  # running job id -> need

    def submit(self, job):
        self.queue.append(job)

    def finished(self, job):
        ends = self.ends
        k = (job.start + job.estimate, job.job, job.id)
        i = bisect.bisect_left(ends, k)
        del ends[i]
        del self.needs[job.id]

    def _started(self, job):
        bisect.insort(self.ends, (job.start + job.estimate, job.job, job.id))
        self.needs[job.id] = job.need

    def schedule(self, system):
        q = self.queue
        k = 0
        n = len(q)
        start = system.start
        while k < n and start(q[k]):
            self._started(q[k])
            k += 1
        if k:
            del q[:k]
            n -= k
        free = system.free
        if n < 2 or free == 0:
            return
        now = system.now
        head = q[0].need
        shadow, extra = _INF, 0
        avail = free
        ends = self.ends
        needs = self.needs
        last = len(ends) - 1
        for i, (e, _, rid) in enumerate(ends):
            avail += needs[rid]
            if avail < head:
                continue
            if e < now:
                e = now
            if i < last:
                e2 = ends[i + 1][0]
                if (e2 if e2 > now else now) == e:
                    continue  # release the whole batch ending at e first
            shadow, extra = e, avail - head
            break
        started = False
        for j in islice(q, 1, None):
            need = j.need
            if need > free:
                continue
            ends_by = now + j.estimate <= shadow
            if not ends_by and need > extra:
                continue
            start(j)
            self._started(j)
            free -= need
            started = True
            if not ends_by:
                extra -= need
            if free == 0:
                break
        if started:
            self.queue = [j for j in q if j.start is None]


if __name__ == "__main__":
    run(EASY())

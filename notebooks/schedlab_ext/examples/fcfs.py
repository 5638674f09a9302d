"""FCFS in Python: start the head of the queue while it fits (the
built-in ``fcfs``, job for job).

    replay run --alloc count --sched "ext:cmd='python3 notebooks/schedlab_ext/examples/fcfs.py'" trace.swf
"""
import collections
import os
import sys

if __package__ in (None, ""):  # run by path: make schedlab_ext importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from schedlab_ext import Scheduler, run  # noqa: E402


class FCFS(Scheduler):
    name = "fcfs"

    def __init__(self):
        self.queue = collections.deque()

    def submit(self, job):
        self.queue.append(job)

    def schedule(self, system):
        q = self.queue
        while q and system.start(q[0]):
            q.popleft()
        if q:  # the head waits for its processors: nothing starts before
            system.min_free(q[0].need)


if __name__ == "__main__":
    run(FCFS())

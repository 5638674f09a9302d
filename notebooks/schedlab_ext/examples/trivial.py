"""The trivial scheduler: starts every job as it arrives (the machine must
hold them all). For measuring the protocol's cost (BenchmarkPipe)."""
import os
import sys

if __package__ in (None, ""):  # run by path: make schedlab_ext importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from schedlab_ext import Scheduler, run  # noqa: E402


class Trivial(Scheduler):
    name = "trivial"

    def __init__(self):
        self.arrived = []

    def submit(self, job):
        self.arrived.append(job)

    def schedule(self, system):
        for j in self.arrived:
            system.start(j)
        self.arrived.clear()


if __name__ == "__main__":
    run(Trivial())

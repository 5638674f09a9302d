"""Tests of the protocol client (run by TestPythonClient in model/ext):
python3 -m unittest schedlab_ext.test_client from notebooks/."""
import io
import json
import unittest

from schedlab_ext import Scheduler, run

HELLO = {"type": "hello", "protocol": 1, "machine": "flat:4", "kind": "flat", "request": "count",
         "procs": 4, "width": 0, "height": 0, "dim": 0, "options": {}}


def job(i, submit, need):
    return {"id": i, "job": i + 1, "record": 0, "submit": submit, "procs": need, "need": need,
            "estimate": 10, "user": 1}


class Log(Scheduler):
    """Records every call with its time; starts the jobs of its plan."""

    def __init__(self, ask, plan):
        self.ask, self.plan, self.calls, self.jobs = ask, plan, [], {}

    def submit(self, j):
        self.jobs[j.id] = j
        self.calls.append(("submit", j.id, j.submit))

    def finished(self, j):
        self.calls.append(("finished", j.id, j.end))

    def schedule(self, s):
        self.calls.append(("schedule", s.now))
        for i in self.plan.pop(0):
            if not s.start(self.jobs[i]):
                raise AssertionError("job %d did not start" % i)


def exchange(sched, msgs):
    """Runs sched on the messages (between hello and end); returns its
    replies, parsed."""
    lines = [HELLO] + msgs
    if not msgs or msgs[-1]["type"] != "end":
        lines.append({"type": "end", "time": 99})
    inp = io.BytesIO(b"".join(json.dumps(m).encode() + b"\n" for m in lines))
    out = io.BytesIO()
    run(sched, inp, out)
    return [json.loads(l) for l in out.getvalue().splitlines()]


class TestClient(unittest.TestCase):
    def test_handshake_says_ask(self):
        for ask in ("fit", "every"):
            replies = exchange(Log(ask, []), [])
            self.assertEqual(replies[0]["ask"], ask)
        with self.assertRaises(ValueError):
            exchange(Log("sometimes", []), [])

    def test_events_of_instants_not_asked_in_engine_order(self):
        # Instants 0 (asked), 1 and 2 (not asked: nothing fits), 5 (asked):
        # job 0 starts at 0 and ends at 2; job 1 arrives at 1, job 2 at 2.
        msgs = [
            {"type": "instant", "time": 0, "free": 4, "done": [], "done_time": [], "jobs": [job(0, 0, 4)]},
            {"type": "instant", "time": 5, "free": 4, "done": [0], "done_time": [2],
             "jobs": [job(1, 1, 4), job(2, 2, 1)]},
            {"type": "end", "time": 9, "done": [1], "done_time": [9]},
        ]
        s = Log("fit", [[0], [1]])
        replies = exchange(s, msgs)
        self.assertEqual(s.calls, [
            ("submit", 0, 0), ("schedule", 0),
            ("submit", 1, 1), ("finished", 0, 2), ("submit", 2, 2), ("schedule", 5),
            ("finished", 1, 9),
        ])
        self.assertEqual([r.get("start") for r in replies[1:]], [[0], [1]])

    def test_every_instant(self):
        msgs = [
            {"type": "instant", "time": 0, "free": 4, "done": [], "jobs": [job(0, 0, 2)]},
            {"type": "instant", "time": 3, "free": 4, "done": [0], "jobs": []},
        ]
        s = Log("every", [[0], []])
        replies = exchange(s, msgs)
        self.assertEqual(s.calls, [("submit", 0, 0), ("schedule", 0), ("finished", 0, 3), ("schedule", 3)])
        self.assertEqual(replies[2], {})


class Hold(Scheduler):
    """Starts nothing and promises nothing starts before 3 are free."""

    def __init__(self, ask):
        self.ask = ask

    def schedule(self, s):
        s.min_free(3)


class TestMinFree(unittest.TestCase):
    def test_sent_with_fit_only(self):
        msgs = [{"type": "instant", "time": 0, "free": 2, "done": [], "jobs": [job(0, 0, 3)]}]
        self.assertEqual(exchange(Hold("fit"), msgs)[1], {"start": [], "min_free": 3})
        self.assertEqual(exchange(Hold("every"), msgs)[1], {})


if __name__ == "__main__":
    unittest.main()

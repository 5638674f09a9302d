"""Tests of schedlab_ext.env (run by model/ext's TestPythonEnv, or
directly: SCHEDLAB_REPLAY=/path/to/replay python3 -m unittest
schedlab_ext.test_env from notebooks/)."""
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from schedlab_ext.env import SchedEnv  # noqa: E402

TRACE = os.environ.get("SCHEDLAB_TRACE") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "traces",
    "KTH-SP2-1996-2.1-cln.swf.gz")
REPLAY = os.environ.get("SCHEDLAB_REPLAY")


def episode(env, seed, agent):
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        assert len(obs) == env.K
        obs, r, done, trunc, info = env.step(agent(obs, info))
        assert not trunc
        total += r
        steps += 1
    return total, steps, info, list(env.start_times)


def sjf(obs, info):
    n = info["queue"] if info["queue"] < len(obs) else len(obs)
    return min(range(n), key=lambda i: obs[i][2])


@unittest.skipUnless(REPLAY and os.path.exists(TRACE), "needs SCHEDLAB_REPLAY and the KTH log")
class TestEnv(unittest.TestCase):
    def test_episode_invariants(self):
        env = SchedEnv(TRACE, machine="flat:100", window=256, queue=32, replay=REPLAY)
        try:
            for agent in (lambda o, i: 0, sjf, lambda o, i: 10**6):
                total, steps, info, starts = episode(env, 3, agent)
                ids = [i for i, _ in starts]
                self.assertEqual(len(ids), len(set(ids)), "a job started twice")
                self.assertEqual(sorted(ids), list(range(info["jobs"])), "every job started once")
                self.assertEqual(info["jobs"], env.n_jobs)
                self.assertGreater(info["jobs"], 200)  # a few rejected at most
                self.assertEqual(steps, info["jobs"])  # one decision per job
                self.assertTrue(math.isfinite(total))
                self.assertAlmostEqual(total, -info["mean_bsld"])
                self.assertGreaterEqual(info["mean_bsld"], 1.0)
        finally:
            env.close()

    def test_determinism_and_fcfs(self):
        env = SchedEnv(TRACE, machine="flat:100", window=256, queue=32, replay=REPLAY)
        try:
            a = episode(env, 7, sjf)
            env.reset(seed=9)
            for _ in range(20):  # an episode left unfinished is stopped
                env.step(0)
            b = episode(env, 7, sjf)
            self.assertEqual(a, b)
            c = episode(env, 8, sjf)
            self.assertNotEqual(a[3], c[3])
            # Always the head: the chosen job waits until it fits, FCFS.
            fcfs = episode(env, 7, lambda o, i: 0)
            self.assertGreater(-fcfs[0], -a[0])  # SJF beats FCFS here
        finally:
            env.close()

    def test_dense_reward_sums_to_final(self):
        f = SchedEnv(TRACE, machine="flat:100", window=200, replay=REPLAY)
        d = SchedEnv(TRACE, machine="flat:100", window=200, replay=REPLAY, reward="dense")
        try:
            a, b = episode(f, 1, sjf), episode(d, 1, sjf)
            self.assertEqual(a[3], b[3])
            self.assertAlmostEqual(a[0], b[0], places=6)
        finally:
            f.close()
            d.close()


if __name__ == "__main__":
    unittest.main()

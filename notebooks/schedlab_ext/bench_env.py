"""Steps per second of SchedEnv with a trivial agent (always row 0).

    python3 -m schedlab_ext.bench_env REPLAY TRACE [MACHINE [WINDOW [EPISODES]]]

from notebooks/: prints the steps per second inside step() and overall
(reset, the replay subprocesses and the windows' files included)."""
import sys
import time

from schedlab_ext.env import SchedEnv


def main():
    replay, trace = sys.argv[1], sys.argv[2]
    machine = sys.argv[3] if len(sys.argv) > 3 else None
    window = int(sys.argv[4]) if len(sys.argv) > 4 else 1024
    episodes = int(sys.argv[5]) if len(sys.argv) > 5 else 20
    env = SchedEnv(trace, machine=machine, window=window, replay=replay)
    t_reset = t_step = 0.0
    steps = 0
    t0 = time.perf_counter()
    for ep in range(episodes):
        t = time.perf_counter()
        obs, info = env.reset(seed=1 if ep == 0 else None)
        t2 = time.perf_counter()
        t_reset += t2 - t
        done = False
        while not done:
            obs, r, done, _, info = env.step(0)
            steps += 1
        t_step += time.perf_counter() - t2
    env.close()
    total = time.perf_counter() - t0
    print("%d episodes of %d jobs, %d steps: %.0f steps/s in step(), %.0f steps/s overall; reset %.1f ms"
          % (episodes, window, steps, steps / t_step, steps / total, t_reset / episodes * 1e3))


if __name__ == "__main__":
    main()

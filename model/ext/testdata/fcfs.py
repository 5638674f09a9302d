"""FCFS over the external-scheduler protocol (docs/protocol.md), standard
library only: the test that a Python child schedules as the built-in fcfs."""
import json
import sys


def main():
    queue = []  # (id, need), in arrival order
    out = sys.stdout
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            out.write('{"protocol":1}\n')
            out.flush()
            continue
        if kind == "end":
            return
        queue.extend((j["id"], j["need"]) for j in msg["jobs"])
        free, k = msg["free"], 0
        while k < len(queue) and queue[k][1] <= free:
            free -= queue[k][1]
            k += 1
        out.write(json.dumps({"start": [i for i, _ in queue[:k]]}, separators=(",", ":")) + "\n")
        out.flush()
        del queue[:k]


if __name__ == "__main__":
    main()

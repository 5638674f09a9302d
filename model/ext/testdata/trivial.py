"""The trivial Python scheduler of BenchmarkPipe: starts every job as it
arrives, reading the ids without decoding the JSON (as the Go trivial
child does). Arguments: "json" decodes each message with json.loads;
"fit" asks only for instants where a job may fit (docs/protocol.md)."""
import json
import os
import sys


def main():
    hello = b'{"protocol":1,"ask":"fit"}\n' if "fit" in sys.argv[1:] else b'{"protocol":1}\n'
    readline, write, loads = sys.stdin.buffer.readline, os.write, json.loads
    decode = "json" in sys.argv[1:]
    key = b'{"id":'
    for line in iter(readline, b""):
        if line.startswith(b'{"type":"instant"'):
            if decode:
                ids = [b"%d" % j["id"] for j in loads(line)["jobs"]]
            else:
                ids = [p[:p.index(b",")] for p in line.split(key)[1:]]
            write(1, b'{"start":[' + b",".join(ids) + b']}\n')
        elif line.startswith(b'{"type":"hello"'):
            write(1, hello)
        else:
            return


if __name__ == "__main__":
    main()

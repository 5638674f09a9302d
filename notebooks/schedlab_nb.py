"""Helpers shared by the schedlab notebooks.

They run the repository's command-line tools, read their Parquet results
into pandas and query them with DuckDB, with whatever this machine offers:

- ``tool(name, *args)`` builds ``cmd/NAME`` once (``go build``, into the
  output folder) and runs it from the repository root; a failure raises
  with the tool's stderr.  ``SCHEDLAB_NB_BIN=DIR`` uses binaries already
  built in DIR instead (``scripts/notebooks.sh`` builds them once).
- ``duckdb(sql)`` runs a query in DuckDB and returns a DataFrame: with the
  Python ``duckdb`` module when it is installed (not in Debian), else with
  DuckDB's Node.js client (npm ``@duckdb/node-api``, the version
  ``scripts/package.json`` pins, installed on first use) through
  ``duckdb-query.mjs``: DuckDB writes the result as CSV and pandas reads
  that CSV.  ``SCHEDLAB_NB_NODE=DIR`` names a folder whose
  ``node_modules`` already holds the client.
- ``read_parquet(path, columns)`` is ``pandas.read_parquet`` when pandas
  has a Parquet engine (pyarrow or fastparquet; Debian 12 packages
  neither), else the same columns read by DuckDB as above.

Results go under ``SCHEDLAB_NB_OUT`` (default ``out-notebook/`` at the
repository root, ignored by git).  ``SCHEDLAB_NB_QUICK=1`` asks every
notebook for its quick size (CI).
"""

import json
import math
import os
import shutil
import subprocess
import tempfile

import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.abspath(os.environ.get("SCHEDLAB_NB_OUT") or os.path.join(ROOT, "out-notebook"))
QUICK = os.environ.get("SCHEDLAB_NB_QUICK", "") not in ("", "0", "false", "no")
SHARED_TRACES = os.path.join(os.path.dirname(ROOT), "shared", "traces")
# The real log bundled with the repository (traces/logs: the Parallel
# Workloads Archive's cleaned KTH SP2 file, unchanged).
KTH_LOG = os.path.join(ROOT, "traces", "logs", "KTH-SP2-1996-2.1-cln.swf.gz")

_built = set()


def outdir(name):
    """Return OUT/name, emptied: each notebook writes its own folder."""
    path = os.path.join(OUT, name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def _binary(name):
    bindir = os.environ.get("SCHEDLAB_NB_BIN")
    if bindir:
        return os.path.join(bindir, name)
    path = os.path.join(OUT, "bin", name)
    if name not in _built:
        subprocess.run(["go", "build", "-o", path, "./cmd/" + name], cwd=ROOT, check=True)
        _built.add(name)
    return path


def tool(name, *args, show=True):
    """Run cmd/NAME with args from the repository root; return its stdout.

    The command is printed first (as the shell would show it) unless
    show=False; a non-zero exit raises RuntimeError with the tool's stderr.
    """
    args = [str(a) for a in args]
    if show:
        shown = [_shell_word(a) for a in args]
        if len(shown) > 12:  # long lists of trace files
            shown = shown[:10] + [f"... ({len(shown) - 10} more)"]
        print("$", name, " ".join(shown))
    proc = subprocess.run([_binary(name)] + args, cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{name} {' '.join(args)} exited {proc.returncode}:\n{proc.stderr}")
    return proc.stdout


def _shell_word(s):
    if s and all(c.isalnum() or c in "-_./:=,+@%" for c in s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


def quote(s):
    """A string literal for SQL (single quotes doubled)."""
    return "'" + str(s).replace("'", "''") + "'"


# --- DuckDB -------------------------------------------------------------

def duckdb_route():
    """How duckdb() runs its queries here: 'python' or 'node'."""
    try:
        import duckdb as _  # noqa: F401
        return "python"
    except ImportError:
        return "node"


def _node_dir():
    given = os.environ.get("SCHEDLAB_NB_NODE")
    if given:
        return given
    path = os.path.join(OUT, "node")
    if not os.path.isdir(os.path.join(path, "node_modules", "@duckdb", "node-api")):
        if shutil.which("npm") is None:
            raise RuntimeError("DuckDB: no Python duckdb module and no npm to install @duckdb/node-api")
        with open(os.path.join(ROOT, "scripts", "package.json")) as f:
            version = json.load(f)["dependencies"]["@duckdb/node-api"]
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, "package.json"), "w") as f:
            json.dump({"private": True, "type": "module",
                       "dependencies": {"@duckdb/node-api": version}}, f)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"],
                       cwd=path, check=True, capture_output=True)
    return path


def duckdb(sql):
    """Run one SELECT in an in-memory DuckDB and return the rows as a DataFrame."""
    if duckdb_route() == "python":
        import duckdb as ddb
        return ddb.sql(sql).df()
    node = _node_dir()
    # Node resolves the client from the script's own folder: run a copy there.
    script = os.path.join(node, "duckdb-query.mjs")
    shutil.copyfile(os.path.join(HERE, "duckdb-query.mjs"), script)
    fd, csv = tempfile.mkstemp(suffix=".csv", dir=node)
    os.close(fd)
    try:
        proc = subprocess.run(["node", script, csv, sql], capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"DuckDB (node): {proc.stderr.strip()}\nquery: {sql}")
        return pd.read_csv(csv)
    finally:
        os.remove(csv)


def parquet_engine():
    """The Parquet engine pandas can use here, or None."""
    for mod in ("pyarrow", "fastparquet"):
        try:
            __import__(mod)
            return mod
        except ImportError:
            pass
    return None


def read_parquet(path, columns=None):
    """A Parquet file (or glob) as a DataFrame: pandas itself when it has an
    engine, else DuckDB (see duckdb()).  Nested columns (placement,
    size_classes) need an engine or a DuckDB query of their own."""
    if parquet_engine() and not any(c in path for c in "*?["):
        return pd.read_parquet(path, columns=columns)
    cols = "*" if columns is None else ", ".join('"' + c + '"' for c in columns)
    return duckdb(f"SELECT {cols} FROM read_parquet({quote(path)})")


# --- statistics ---------------------------------------------------------

# Two-sided 95% Student-t quantiles t_{0.975, df}, df = 1..30 (beyond: 1.96).
_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
         2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
         2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def ci95(df, keys, metric):
    """Mean of metric over the rows of each keys group (the replications),
    with the half-width of its 95% Student-t interval (NaN for one row)."""
    def agg(x):
        n = x.count()
        sd = x.std(ddof=1)
        t = _T975[n - 2] if 2 <= n <= 31 else 1.96
        return pd.Series({"mean": x.mean(), "halfwidth": t * sd / math.sqrt(n) if n > 1 else math.nan, "n": n})
    return df.groupby(keys)[metric].apply(agg).unstack().reset_index()

// check-parquet.mjs FILE...: reads every Parquet file with two independent
// readers, DuckDB (@duckdb/node-api) and polars (nodejs-polars), and checks
// that both see the same row count and the column names in the same order.
// For a jobs.parquet it also runs the README's query that unnests the
// placement column. Used by .ci/run on the files a replay writes and on a
// converted trace; exits non-zero naming the file on any disagreement.
import { DuckDBInstance } from '@duckdb/node-api';
import pl from 'nodejs-polars';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: check-parquet.mjs FILE...');
  process.exit(2);
}
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
let failed = false;
for (const f of files) {
  const q = (s) => s.replaceAll("'", "''");
  try {
    const r = await con.runAndReadAll(`SELECT count(*) AS n FROM read_parquet('${q(f)}')`);
    const duckN = Number(r.getRowObjects()[0].n);
    const d = await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${q(f)}')`);
    const duckCols = d.getRowObjects().map((o) => o.column_name);
    const df = pl.readParquet(f);
    if (df.height !== duckN) throw new Error(`rows: DuckDB ${duckN}, polars ${df.height}`);
    if (df.columns.join(',') !== duckCols.join(',')) throw new Error(`columns: DuckDB ${duckCols}, polars ${df.columns}`);
    let extra = '';
    if (duckCols.includes('placement')) {
      const u = await con.runAndReadAll(
        `SELECT count(*) AS pieces, coalesce(sum(p.w * p.h), 0) AS nodes FROM (SELECT unnest(placement) AS p FROM read_parquet('${q(f)}'))`);
      const o = u.getRowObjects()[0];
      const s = await con.runAndReadAll(
        `SELECT coalesce(sum(alloc_procs), 0) AS procs FROM read_parquet('${q(f)}') WHERE len(placement) > 0`);
      const procs = Number(s.getRowObjects()[0].procs);
      if (Number(o.nodes) !== procs) throw new Error(`placement holds ${o.nodes} nodes, alloc_procs sums to ${procs}`);
      extra = `, ${o.pieces} placement pieces holding ${o.nodes} nodes`;
    }
    console.log(`${f}: ${duckN} rows, ${duckCols.length} columns (DuckDB and polars agree${extra})`);
  } catch (e) {
    console.error(`${f}: ${e.message}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);

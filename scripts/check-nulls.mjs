// check-nulls.mjs DIR: reads with DuckDB (@duckdb/node-api) the results of
// a replay of a real log on a flat machine, without --until or --comm
// (.ci/run replays KTH), and checks that the values which do not apply are
// NULL: the offered load (jobs and summary), the window, communication,
// dispersion, pieces, capped-share and deadline-miss-rate columns. So
// avg() over them is NULL, not NaN, and `IS NOT NULL` filters them out.
// The statistics are not NULL. The units metadata must give seconds.
// Exits non-zero naming the column on any failure.
import { DuckDBInstance } from '@duckdb/node-api';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: check-nulls.mjs RESULTS-DIR');
  process.exit(2);
}
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const one = async (sql) => (await con.runAndReadAll(sql)).getRowObjects()[0];
const q = (s) => s.replaceAll("'", "''");
const summary = `read_parquet('${q(dir)}/summary.parquet')`;
const jobs = `read_parquet('${q(dir)}/jobs.parquet')`;

const fail = (msg) => { console.error(`check-nulls: ${dir}: ${msg}`); process.exit(1); };
const na = ['load', 'window_end', 'window_generated', 'window_delay', 'window_throughput', 'window_util',
  'window_power', 'window_offered', 'deadline_miss_rate', 'capped_share', 'dispersion', 'pieces',
  'comm_time', 'pkt_latency', 'pkt_blocking', 'hop_flits'];
const rows = Number((await one(`SELECT count(*) AS n FROM ${summary}`)).n);
if (rows === 0) fail('no summary rows');
for (const c of na) {
  const r = await one(`SELECT count(${c}) AS n, avg(${c}) AS a, count(*) FILTER (WHERE ${c} IS NOT NULL) AS nn FROM ${summary}`);
  if (Number(r.n) !== 0 || r.a !== null || Number(r.nn) !== 0) fail(`summary column ${c}: ${r.n} non-NULL values (avg ${r.a}), want NULL`);
}
for (const c of ['mean_wait', 'mean_response', 'utilization', 'makespan']) {
  const r = await one(`SELECT count(${c}) AS n, count(*) FILTER (WHERE isnan(${c})) AS nan FROM ${summary}`);
  if (Number(r.n) !== rows || Number(r.nan) !== 0) fail(`summary column ${c}: ${r.n} of ${rows} values, ${r.nan} NaN`);
}
const j = await one(`SELECT count(*) AS n, count(load) AS l FROM ${jobs}`);
if (Number(j.n) === 0 || Number(j.l) !== 0) fail(`jobs column load: ${j.l} of ${j.n} values non-NULL, want NULL`);
const u = await one(`SELECT decode(value) AS v FROM parquet_kv_metadata('${q(dir)}/summary.parquet') WHERE decode(key) = 'schedlab.units'`);
const units = JSON.parse(u?.v ?? '{}');
if (units.mean_wait !== 's' || units.makespan !== 's') fail(`schedlab.units ${u?.v}: want mean_wait and makespan in s`);
console.log(`${dir}: ${rows} summary rows, ${j.n} jobs: ${na.length} not-applicable summary columns and jobs.load NULL, statistics not NULL, units in s`);

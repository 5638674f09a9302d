// check-parquet.mjs PATH...: reads Parquet results with two independent
// readers, DuckDB (@duckdb/node-api) and polars (nodejs-polars).
//
// A FILE: both must see the same row count and the column names in the
// same order; for a jobs file docs/results.md's query that unnests the
// placement column must find exactly alloc_procs nodes per job.
//
// A DIRECTORY is a sweep dataset (model/schema's dataset layout): each
// table root present (jobs/, series/, summary/) is read as one
// hive-partitioned dataset, ROOT/**/*.parquet, by both readers, which must
// agree on rows and columns; the partition columns they decode
// (sweep, machine, alloc, sched, percent-encoded in the paths) must equal,
// row by row, the machine, alloc and sched columns the files hold (read
// again without hive partitioning), and sweep the path's; every jobs and
// series part must have its cell's summary part; the summary dataset read
// by DuckDB must hold exactly the rows of its part files read one by one
// by polars; the jobs placements are checked as for a file.
//
// Used by .ci/run on the files a replay writes, a converted trace and a
// sweep's dataset; exits non-zero naming the file or table on any
// disagreement.
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pl from 'nodejs-polars';

const paths = process.argv.slice(2);
if (paths.length === 0) {
  console.error('usage: check-parquet.mjs FILE|DATASET-DIR...');
  process.exit(2);
}
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const q = (s) => s.replaceAll("'", "''");
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjects();
const one = async (sql) => (await rows(sql))[0];

// placementCheck returns a note on the placements of src (a read_parquet
// call) when it has a placement column: their pieces must hold exactly the
// jobs' alloc_procs nodes.
async function placementCheck(src, cols) {
  if (!cols.includes('placement')) return '';
  const o = await one(
    `SELECT count(*) AS pieces, coalesce(sum(p.w * p.h), 0) AS nodes FROM (SELECT unnest(placement) AS p FROM ${src})`);
  const s = await one(`SELECT coalesce(sum(alloc_procs), 0) AS procs FROM ${src} WHERE len(placement) > 0`);
  const procs = Number(s.procs);
  if (Number(o.nodes) !== procs) throw new Error(`placement holds ${o.nodes} nodes, alloc_procs sums to ${procs}`);
  return `, ${o.pieces} placement pieces holding ${o.nodes} nodes`;
}

async function checkFile(f) {
  const src = `read_parquet('${q(f)}', hive_partitioning=false)`; // a part file read alone
  const duckN = Number((await one(`SELECT count(*) AS n FROM ${src}`)).n);
  const duckCols = (await rows(`DESCRIBE SELECT * FROM ${src}`)).map((o) => o.column_name);
  const df = pl.readParquet(f);
  if (df.height !== duckN) throw new Error(`rows: DuckDB ${duckN}, polars ${df.height}`);
  if (df.columns.join(',') !== duckCols.join(',')) throw new Error(`columns: DuckDB ${duckCols}, polars ${df.columns}`);
  const extra = await placementCheck(src, duckCols);
  console.log(`${f}: ${duckN} rows, ${duckCols.length} columns (DuckDB and polars agree${extra})`);
}

const tables = ['jobs', 'series', 'summary'];
const keys = ['sweep', 'machine', 'alloc', 'sched'];

// parts lists the part files below a table root, as the readers' globs
// see them (hidden entries and files not ending in .parquet left out),
// relative to the root with '/' separators, sorted.
function parts(root) {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.parquet')) out.push(relative(root, p).split(sep).join('/'));
    }
  };
  walk(root);
  return out.sort();
}

// cellValues decodes the partition values of a part's relative path.
function cellValues(rel) {
  const comps = rel.split('/');
  if (comps.length !== keys.length + 1) throw new Error(`${rel}: not KEY=VALUE/.../part-T-R.parquet with keys ${keys}`);
  return keys.map((k, i) => {
    if (!comps[i].startsWith(k + '=')) throw new Error(`${rel}: directory ${comps[i]} is not ${k}=VALUE`);
    return decodeURIComponent(comps[i].slice(k.length + 1));
  });
}

// norm renders a value for comparison across readers (int64 as bigint or
// number, NaN and infinities, nulls).
// plain turns a value of either reader into plain JSON data: DuckDB's list
// and struct values ({items: [...]}, {entries: {...}}) become arrays and
// objects, 64-bit integers numbers (results hold integers below 2^53).
const plain = (v) => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object') {
    if (Array.isArray(v.items)) return v.items.map(plain);
    const o = v.entries && typeof v.entries === 'object' && !Array.isArray(v.entries) ? v.entries : v;
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, plain(x)]));
  }
  return v;
};
const norm = (v) => {
  const p = plain(v);
  return p === null ? 'null' : typeof p === 'object' ? JSON.stringify(p) : String(p);
};

async function checkTable(dir, table, summaries) {
  const root = resolve(dir, table);
  const files = parts(root);
  if (files.length === 0) throw new Error('no part files');
  for (const rel of files) {
    cellValues(rel);
    if (table !== 'summary' && !summaries.has(rel)) throw new Error(`${rel}: no summary part for its cell (incomplete cell)`);
  }
  const glob = `${root}/**/*.parquet`;
  const hive = `read_parquet('${q(glob)}', hive_partitioning=true, filename=true, file_row_number=true)`;
  const flat = `read_parquet('${q(glob)}', hive_partitioning=false, filename=true, file_row_number=true)`;

  // The same rows and columns in both readers.
  const duckN = Number((await one(`SELECT count(*) AS n FROM read_parquet('${q(glob)}', hive_partitioning=true)`)).n);
  const duckCols = (await rows(`DESCRIBE SELECT * FROM read_parquet('${q(glob)}', hive_partitioning=true)`)).map((o) => o.column_name);
  const lf = pl.scanParquet(glob, { hivePartitioning: true });
  const plCols = lf.columns;
  const plN = lf.select(pl.len().alias('n')).collectSync().getColumn('n').get(0);
  if (Number(plN) !== duckN) throw new Error(`rows: DuckDB ${duckN}, polars ${plN}`);
  if (plCols.join(',') !== duckCols.join(',')) throw new Error(`columns: DuckDB ${duckCols}, polars ${plCols}`);
  for (const k of keys) if (!duckCols.includes(k)) throw new Error(`no partition column ${k}: DuckDB read ${duckCols}`);

  // DuckDB: the decoded partition values against the files' own columns
  // and the path's sweep=, row by row.
  const bad = await rows(
    `SELECT h.filename, h.file_row_number, h.sweep, h.machine, h.alloc, h.sched, f.machine AS fm, f.alloc AS fa, f.sched AS fs
     FROM ${hive} h FULL JOIN ${flat} f USING (filename, file_row_number)
     WHERE h.machine IS DISTINCT FROM f.machine OR h.alloc IS DISTINCT FROM f.alloc OR h.sched IS DISTINCT FROM f.sched
        OR h.sweep IS NULL LIMIT 1`);
  if (bad.length > 0) {
    const b = bad[0];
    throw new Error(`DuckDB: ${b.filename} row ${b.file_row_number}: partition (${b.machine}, ${b.alloc}, ${b.sched}), file columns (${b.fm}, ${b.fa}, ${b.fs})`);
  }
  const cells = await rows(`SELECT DISTINCT filename, sweep, machine, alloc, sched FROM ${hive}`);
  for (const c of cells) {
    const rel = relative(root, c.filename).split(sep).join('/');
    const want = cellValues(rel);
    const got = keys.map((k) => c[k]);
    if (got.join('\0') !== want.join('\0')) throw new Error(`DuckDB: ${rel}: partition values ${got}, path ${want}`);
  }

  // polars: the same comparison, hive against plain reads in file order.
  const pick = (hivePartitioning, cols) =>
    pl.scanParquet(glob, { hivePartitioning, includeFilePaths: 'file', rowIndexName: 'row' })
      .select('file', 'row', ...cols).sort(['file', 'row']).collectSync();
  const ph = pick(true, keys);
  const pf = pick(false, keys.slice(1));
  for (const k of keys.slice(1)) {
    const a = ph.getColumn(k).toArray();
    const b = pf.getColumn(k).toArray();
    const i = a.findIndex((v, j) => v !== b[j]);
    if (a.length !== b.length || i >= 0) throw new Error(`polars: ${k} row ${i} of ${ph.getColumn('file').get(i)}: partition ${a[i]}, file column ${b[i]}`);
  }
  const sw = ph.getColumn('sweep').toArray();
  const fs = ph.getColumn('file').toArray();
  for (let i = 0; i < sw.length; i++) {
    if (i > 0 && fs[i] === fs[i - 1]) continue;
    const want = cellValues(relative(root, fs[i]).split(sep).join('/'))[0];
    if (sw[i] !== want) throw new Error(`polars: ${fs[i]}: sweep ${sw[i]}, path ${want}`);
  }

  // The summary dataset (DuckDB) holds exactly its parts' rows (polars,
  // file by file).
  let extra = '';
  if (table === 'summary') {
    const fileCols = (await rows(`DESCRIBE SELECT * FROM read_parquet('${q(join(root, files[0]))}', hive_partitioning=false)`)).map((o) => o.column_name);
    const ds = await rows(`SELECT filename, file_row_number, ${fileCols.map((c) => `"${c}"`).join(', ')} FROM ${hive} ORDER BY filename, file_row_number`);
    const byFile = new Map();
    for (const r of ds) {
      const rel = relative(root, r.filename).split(sep).join('/');
      if (!byFile.has(rel)) byFile.set(rel, []);
      byFile.get(rel).push(r);
    }
    for (const rel of files) {
      const df = pl.readParquet(join(root, rel));
      const got = byFile.get(rel) ?? [];
      if (df.height !== got.length) throw new Error(`${rel}: ${df.height} rows in the file, ${got.length} in the dataset`);
      if (df.columns.join(',') !== fileCols.join(',')) throw new Error(`${rel}: columns ${df.columns}, the dataset's ${fileCols}`);
      const recs = df.toRecords();
      recs.forEach((want, i) => {
        for (const c of fileCols) {
          if (norm(want[c]) !== norm(got[i][c])) throw new Error(`${rel}: row ${i + 1} column ${c}: file ${norm(want[c])}, dataset ${norm(got[i][c])}`);
        }
      });
    }
    extra = `, ${files.length} parts' rows equal`;
  }
  extra += await placementCheck(`read_parquet('${q(glob)}', hive_partitioning=true)`, duckCols);
  console.log(`${root}: ${files.length} parts, ${duckN} rows, ${duckCols.length} columns (DuckDB and polars agree; partitions match the files' columns${extra})`);
}

async function checkDataset(dir) {
  const present = tables.filter((t) => {
    try { return statSync(join(dir, t)).isDirectory(); } catch { return false; }
  });
  if (!present.includes('summary')) throw new Error('not a sweep dataset: no summary/ directory');
  const summaries = new Set(parts(resolve(dir, 'summary')));
  let failed = false;
  for (const t of present) {
    try {
      await checkTable(dir, t, summaries);
    } catch (e) {
      console.error(`${join(dir, t)}: ${e.message}`);
      failed = true;
    }
  }
  if (failed) throw new Error('dataset check failed');
}

let failed = false;
for (const p of paths) {
  try {
    if (statSync(p).isDirectory()) await checkDataset(p);
    else await checkFile(p);
  } catch (e) {
    console.error(`${p}: ${e.message}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);

// duckdb-query.mjs OUT.csv SQL: runs one SELECT in an in-memory DuckDB
// (npm @duckdb/node-api) and has DuckDB write its result to OUT.csv (a
// header line, comma-separated). The notebooks use it through
// schedlab_nb.duckdb() when Python's duckdb module is not installed, and
// read the CSV with pandas. Exits non-zero with DuckDB's message on error.
import { DuckDBInstance } from '@duckdb/node-api';

const [out, sql] = process.argv.slice(2);
if (!out || !sql) {
  console.error('usage: duckdb-query.mjs OUT.csv SQL');
  process.exit(2);
}
try {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  await con.run(`COPY (${sql}) TO '${out.replaceAll("'", "''")}' (FORMAT csv, HEADER)`);
} catch (e) {
  console.error(e.message);
  process.exit(1);
}

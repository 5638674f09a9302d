// Package analysis turns replay results into numbers, figures, tables and
// reports. The metric definitions, each citing its source paper, are in
// model/metrics, shared with the replay. Its sub-packages are layered,
// leaves first:
//
//   - stats: confidence intervals (Student t across replications, batch
//     means for one long run), warm-up deletion (fixed count, MSER-5) and
//     relative differences to a baseline;
//   - results: loading jobs/summary/series Parquet files written by
//     `replay run` (the results contract, declared once in model/schema)
//     and grouping their rows;
//   - table: Markdown, CSV and LaTeX (booktabs) tables;
//   - plot: gonum figures with consistent per-pair styles;
//   - report: the multi-page PDF report and `report compare`.
package analysis

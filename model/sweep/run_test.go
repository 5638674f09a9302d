package sweep

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// files returns every Parquet file under dir by relative path.
func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(path, ".parquet") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, path)
			out[rel] = b
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameFiles(t *testing.T, what string, a, b map[string][]byte) {
	t.Helper()
	if len(a) != len(b) {
		t.Errorf("%s: %d files against %d", what, len(b), len(a))
	}
	for k, v := range a {
		if w, ok := b[k]; !ok {
			t.Errorf("%s: %s missing", what, k)
		} else if !bytes.Equal(v, w) {
			t.Errorf("%s: %s differs", what, k)
		}
	}
}

// The whole plan with one worker, with four, and in three shards run one
// after the other give the same files, byte for byte: one per cell and
// table.
func TestRunShardsIdentical(t *testing.T) {
	p, err := decode(t, basePlan)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	one := filepath.Join(root, "one")
	st, err := Run(p, Options{Out: one, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Cells != 16 || st.Ran != 16 || st.Skipped != 0 || st.Jobs != 16*200 {
		t.Errorf("stats %+v", st)
	}
	want := files(t, one)
	if len(want) != 3*len(p.Cells) {
		t.Fatalf("%d files for %d cells", len(want), len(p.Cells))
	}
	for _, c := range p.Cells {
		k := c.Key(p.Name)
		for _, table := range []string{"jobs", "series", "summary"} {
			if _, ok := want[filepath.FromSlash(k.Path(table))]; !ok {
				t.Errorf("no %s", k.Path(table))
			}
		}
	}
	four := filepath.Join(root, "four")
	if _, err := Run(p, Options{Out: four, Workers: 4}); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, "-j 4", want, files(t, four))
	sharded := filepath.Join(root, "sharded")
	for i := 1; i <= 3; i++ {
		if _, err := Run(p, Options{Out: sharded, Workers: 2, Shard: Shard{i, 3}}); err != nil {
			t.Fatal(err)
		}
	}
	sameFiles(t, "3 shards", want, files(t, sharded))
	missing, err := Merge(p, sharded)
	if err != nil || len(missing) != 0 {
		t.Errorf("merge: %v missing, %v", missing, err)
	}
}

// --resume skips complete cells and runs the others; a cell missing a file
// is run again; a dataset of another plan is refused.
func TestResume(t *testing.T) {
	p, err := decode(t, basePlan)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Run(p, Options{Out: dir, Workers: 2, Shard: Shard{1, 2}}); err != nil {
		t.Fatal(err)
	}
	missing, err := Merge(p, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) == 0 || len(missing) == len(p.Cells) {
		t.Fatalf("after one shard of two: %d missing of %d", len(missing), len(p.Cells))
	}
	// Remove one file of a complete cell, and cut another cell's summary
	// short (F7 of issue 25: a truncated part is not complete): neither
	// cell is complete any more.
	done := p.CellsOf(Shard{1, 2})
	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(done[0].Key(p.Name).Path("series")))); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, filepath.FromSlash(done[1].Key(p.Name).Path("summary"))), 100); err != nil {
		t.Fatal(err)
	}
	if m, err := Merge(p, dir); err != nil || len(m) != len(missing)+2 {
		t.Fatalf("merge after damage: %d missing (%v), want %d", len(m), err, len(missing)+2)
	}
	st, err := Run(p, Options{Out: dir, Workers: 2, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Ran != len(missing)+2 || st.Skipped != len(p.Cells)-len(missing)-2 {
		t.Errorf("resume ran %d and skipped %d; want %d and %d", st.Ran, st.Skipped, len(missing)+2, len(p.Cells)-len(missing)-2)
	}
	whole := t.TempDir()
	if _, err := Run(p, Options{Out: whole, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, "resumed", files(t, whole), files(t, dir))

	other, err := decode(t, strings.Replace(basePlan, "warmup = 10", "warmup = 20", 1))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(other, Options{Out: dir, Resume: true})
	if err == nil || !strings.Contains(err.Error(), "holds the results of another plan") {
		t.Errorf("another plan's dataset: %v", err)
	}
}

// A shard holds the directory's lock shared and its own exclusively: two
// shards run side by side, the same shard twice does not, and neither does
// a whole run.
func TestShardLocks(t *testing.T) {
	dir := t.TempDir()
	r1, err := lock(dir, Shard{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	defer r1()
	r2, err := lock(dir, Shard{2, 2})
	if err != nil {
		t.Fatalf("second shard: %v", err)
	}
	defer r2()
	if _, err := lock(dir, Shard{1, 2}); err == nil || !strings.Contains(err.Error(), "shard 1/2") {
		t.Errorf("shard 1/2 twice: %v", err)
	}
	if _, err := lock(dir, Shard{}); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("whole run beside shards: %v", err)
	}
}

// jobs = false writes the summary and series tables only; a cell is then
// complete without a jobs file, and jobs files of an earlier run are
// removed.
func TestNoJobs(t *testing.T) {
	dir := t.TempDir()
	p, err := decode(t, basePlan)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(p, Options{Out: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, ManifestFile)) // another plan, same cells
	q, err := decode(t, basePlan+"jobs = false\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(q, Options{Out: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	got := files(t, dir)
	if len(got) != 2*len(q.Cells) {
		t.Fatalf("%d files for %d cells without jobs", len(got), len(q.Cells))
	}
	for k := range got {
		if strings.HasPrefix(k, "jobs") {
			t.Errorf("jobs file %s", k)
		}
	}
	if m, err := Merge(q, dir); err != nil || len(m) != 0 {
		t.Errorf("merge: %d missing, %v", len(m), err)
	}
}

// F19 (issue 25): a replay's results folder is not a sweep's --out.
func TestSweepRefusesRunDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "summary.parquet"), []byte("PAR1"), 0o644)
	if _, err := lock(dir, Shard{}); err == nil || err.Error() != dir+" holds a replay's results (summary.parquet): choose another --out for replay sweep" {
		t.Errorf("error %v", err)
	}
}

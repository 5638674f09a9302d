package trace

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const sharedTraces = "../../shared/traces"

// realLog returns the path of a real SWF log beside the repository, or
// skips the test when it is absent.
func realLog(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(sharedTraces, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s not available: %v", p, err)
	}
	return p
}

// swfDataLines returns the numeric fields of every data line and the
// header lines of an SWF file (gzipped or not).
func swfDataLines(t *testing.T, path string) (data [][]float64, header []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r interface{ Read([]byte) (int, error) } = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, ";") {
			header = append(header, line)
			continue
		}
		var row []float64
		for _, tok := range strings.Fields(line) {
			v, err := strconv.ParseFloat(tok, 64)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			row = append(row, v)
		}
		data = append(data, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return data, header
}

// headerKeys returns "Key: value" with whitespace folded, for comparing
// headers whose spacing was normalised.
func headerKeys(lines []string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, strings.Join(strings.Fields(strings.TrimPrefix(l, ";")), " "))
	}
	return out
}

func TestRoundTripRealLogs(t *testing.T) {
	for _, tc := range []struct {
		file string
		jobs int
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 28476},
		{"NASA-iPSC-1993-3.1-cln.swf.gz", 18239},
	} {
		t.Run(tc.file, func(t *testing.T) {
			in := realLog(t, tc.file)
			dir := t.TempDir()
			tr, err := ReadFile(in, ReadOptions{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Jobs) != tc.jobs {
				t.Fatalf("read %d jobs, want %d", len(tr.Jobs), tc.jobs)
			}
			pq := filepath.Join(dir, "t.parquet")
			if err := WriteFile(pq, tr); err != nil {
				t.Fatal(err)
			}
			back, err := ReadFile(pq, ReadOptions{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(back.Jobs) != tc.jobs {
				t.Fatalf("parquet has %d rows, want %d", len(back.Jobs), tc.jobs)
			}
			out := filepath.Join(dir, "t.swf")
			if err := WriteFile(out, back); err != nil {
				t.Fatal(err)
			}
			want, wantHdr := swfDataLines(t, in)
			got, gotHdr := swfDataLines(t, out)
			if len(got) != len(want) {
				t.Fatalf("%d data lines, want %d", len(got), len(want))
			}
			for i := range want {
				for k := range want[i] {
					if got[i][k] != want[i][k] {
						t.Fatalf("line %d field %d: got %v, want %v", i+1, k+1, got[i][k], want[i][k])
					}
				}
			}
			if a, b := strings.Join(headerKeys(gotHdr), "\n"), strings.Join(headerKeys(wantHdr), "\n"); a != b {
				t.Fatalf("header differs:\n%s\nwant\n%s", a, b)
			}
			if back.MaxProcs() != tr.MaxProcs() || back.MaxProcs() <= 0 {
				t.Fatalf("MaxProcs %d after round trip, want %d", back.MaxProcs(), tr.MaxProcs())
			}
			// Parquet → SWF.gz → Parquet is byte-stable.
			gz := filepath.Join(dir, "t.swf.gz")
			if err := WriteFile(gz, back); err != nil {
				t.Fatal(err)
			}
			again, err := ReadFile(gz, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			again.Provenance = back.Provenance
			again.Name = back.Name
			var b1, b2 bytes.Buffer
			if err := WriteParquet(&b1, back); err != nil {
				t.Fatal(err)
			}
			if err := WriteParquet(&b2, again); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
				t.Fatal("Parquet bytes differ after a further SWF round trip")
			}
		})
	}
}

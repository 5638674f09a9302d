package trace

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// swfLine is an 18-field SWF line: job id, submit, run, processors, then
// the given extra fields.
func swfLine(id, submit, run, procs string, extra ...string) string {
	f := []string{id, submit, "0", run, procs, "-1", "-1", procs, "100", "-1", "1", "1", "1", "-1", "-1", "-1", "-1", "-1"}
	return strings.Join(append(f, extra...), " ")
}

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A headerless log (RICC-2010-2, METACENTRUM-2009-2) has no machine size:
// it is inferred as flat with the largest job, recorded as inferred, with
// a warning; a size given explicitly is recorded as given; a header's as
// header.
func TestHeaderlessMachineInferred(t *testing.T) {
	jobs := swfLine("1", "0", "10", "4") + "\n" + swfLine("2", "5", "10", "96") + "\n" + swfLine("3", "9", "10", "7") + "\n"
	for _, c := range []struct {
		name, text, given, machine, from string
		warn                             bool
	}{
		{"headerless", jobs, "", "flat:96", MachineInferred, true},
		{"given", jobs, "flat:128", "flat:128", MachineGiven, false},
		{"header", "; MaxProcs: 100\n" + jobs, "", "flat:100", MachineHeader, false},
		{"nodes", "; MaxNodes: 50\n" + jobs, "", "flat:50", MachineHeader, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := writeTemp(t, "log.swf", c.text)
			tr, err := ReadFile(in, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c.given == "" {
				if m, from := tr.GuessMachine(); m != c.machine || from != c.from {
					t.Errorf("GuessMachine = %q, %q; want %q, %q", m, from, c.machine, c.from)
				}
			}
			out := filepath.Join(filepath.Dir(in), "log.parquet")
			conv, err := Convert(in, out, ConvertOptions{Machine: c.given})
			if err != nil {
				t.Fatal(err)
			}
			warned := false
			for _, w := range conv.Warnings {
				if strings.Contains(w, "machine inferred as "+c.machine) {
					warned = true
				}
			}
			if warned != c.warn {
				t.Errorf("inference warning %v, want %v: %q", warned, c.warn, conv.Warnings)
			}
			back, err := ReadFile(out, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if back.Machine != c.machine || back.Provenance.MachineFrom != c.from {
				t.Errorf("converted trace: machine %q from %q, want %q from %q", back.Machine, back.Provenance.MachineFrom, c.machine, c.from)
			}
		})
	}
}

// Extended SWF lines (the 2024–25 Frontier traces have 21 fields) are read
// with their fields beyond the 18 kept as columns: named by the header's
// "; FieldN: name" lines, else field_N; Unknown on a line without them;
// kept through sorting, SWF and Parquet.
func TestExtendedSWF(t *testing.T) {
	text := strings.Join([]string{
		"; MaxProcs: 64",
		"; Field20: GPUs used",
		swfLine("1", "10", "5", "4", "7", "2", "0.5"),
		swfLine("2", "0", "5", "8"), // before job 1: the log is sorted
		swfLine("3", "20", "5", "16", "9", "4", "1.25"),
	}, "\n") + "\n"
	tr, err := ReadSWF(strings.NewReader(text), "ext.swf", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []ExtraColumn{
		{Field: 19, Name: "field_19", Values: []float64{-1, 7, 9}},
		{Field: 20, Name: "gpus_used", Values: []float64{-1, 2, 4}},
		{Field: 21, Name: "field_21", Values: []float64{-1, 0.5, 1.25}},
	}
	if !reflect.DeepEqual(tr.Extra, want) {
		t.Fatalf("extra columns %+v, want %+v", tr.Extra, want)
	}
	if ids := []int64{tr.Jobs[0].ID, tr.Jobs[1].ID, tr.Jobs[2].ID}; !reflect.DeepEqual(ids, []int64{2, 1, 3}) {
		t.Fatalf("jobs in order %v, want 2 1 3", ids)
	}

	// Parquet: the extra columns follow Job's, and read back.
	dir := t.TempDir()
	out := filepath.Join(dir, "ext.parquet")
	if err := WriteFile(out, tr); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(out, ReadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Extra, want) {
		t.Fatalf("Parquet extra columns %+v, want %+v", back.Extra, want)
	}
	// The streaming converter writes them too.
	in := writeTemp(t, "ext.swf", text)
	if _, err := Convert(in, out, ConvertOptions{}); err != nil {
		t.Fatal(err)
	}
	if back, err = ReadFile(out, ReadOptions{}); err != nil || !reflect.DeepEqual(back.Extra, want) {
		t.Fatalf("converted: %v, extra %+v", err, back.Extra)
	}
	// SWF: 21 fields on every line, read back the same.
	var b bytes.Buffer
	if err := WriteSWF(&b, tr); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if !strings.HasPrefix(l, ";") && len(strings.Fields(l)) != 21 {
			t.Fatalf("written line %q: want 21 fields", l)
		}
	}
	again, err := ReadSWF(&b, "ext2.swf", ReadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Extra, want) || !reflect.DeepEqual(again.Jobs, tr.Jobs) {
		t.Fatalf("SWF round trip: extra %+v", again.Extra)
	}

	// A standard log has no extra columns, and a short line is an error
	// naming it; a non-number in an extra field names the field.
	std, err := ReadSWF(strings.NewReader(swfLine("1", "0", "5", "4")+"\n"), "std.swf", ReadOptions{})
	if err != nil || std.Extra != nil {
		t.Fatalf("standard log: %v, extra %+v", err, std.Extra)
	}
	for _, c := range []struct{ text, want string }{
		{"1 2 3\n", "std.swf:1: 3 fields, want 18"},
		{swfLine("1", "0", "5", "4", "3", "x") + "\n", "std.swf:1: field 20 (extended): \"x\" is not a number"},
	} {
		_, err := ReadSWF(strings.NewReader(c.text), "std.swf", ReadOptions{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("error %v, want %q…", err, c.want)
		}
	}
}

// The SHA-256 of every input, of its bytes as stored (a gzipped log's
// compressed bytes, what sha256sum prints), is in the provenance; a
// converted trace keeps its source's and records the file read apart.
func TestSHA256InProvenance(t *testing.T) {
	text := "; MaxProcs: 8\n" + swfLine("1", "0", "5", "4") + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	dir := t.TempDir()
	for name, data := range map[string][]byte{"log.swf": []byte(text), "log.swf.gz": gz.Bytes()} {
		in := filepath.Join(dir, name)
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		want := hex.EncodeToString(sum[:])
		tr, err := ReadFile(in, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if tr.Provenance.SHA256 != want || tr.InputSHA256 != want {
			t.Fatalf("%s: sha256 %q (input %q), want %q", name, tr.Provenance.SHA256, tr.InputSHA256, want)
		}
		out := filepath.Join(dir, name+".parquet")
		if _, err := Convert(in, out, ConvertOptions{}); err != nil {
			t.Fatal(err)
		}
		back, err := ReadFile(out, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pq, _ := os.ReadFile(out)
		psum := sha256.Sum256(pq)
		if back.Provenance.SHA256 != want || back.Provenance.Source != in || back.InputSHA256 != hex.EncodeToString(psum[:]) {
			t.Fatalf("%s converted: source %s sha256 %q input %q", name, back.Provenance.Source, back.Provenance.SHA256, back.InputSHA256)
		}
		var b strings.Builder
		if err := Inspect(&b, back); err != nil || !strings.Contains(b.String(), "sha256   "+want) {
			t.Fatalf("inspect does not show the sha256: %v\n%s", err, b.String())
		}
	}
	// A trace in memory (ReadSWF from a reader) has no file to hash.
	tr, err := ReadSWF(strings.NewReader(text), "mem.swf", ReadOptions{})
	if err != nil || tr.Provenance.SHA256 != "" {
		t.Fatalf("in-memory trace: %v, sha256 %q", err, tr.Provenance.SHA256)
	}
}

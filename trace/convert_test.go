package trace

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Converting SWF → Parquet streams rows to the writer while parsing; the
// file must be byte for byte what WriteParquet writes for the same trace,
// whether the log is in order (streamed) or has to be sorted (rewritten).
func TestConvertStreamingMatchesWriteParquet(t *testing.T) {
	dir := t.TempDir()
	var lines []string
	lines = append(lines, "; MaxProcs: 64")
	for i := 1; i <= 20000; i++ { // several parsing chunks
		lines = append(lines, strings.Join([]string{itoaT(i), itoaT(i * 3), "5", "100", "4", "-1", "-1", "4", "200", "-1", "1", "1", "1", "-1", "-1", "-1", "-1", "-1"}, " "))
	}
	ordered := strings.Join(lines, "\n") + "\n"
	// Swap two submit times far apart: the log must be sorted.
	unordered := strings.Replace(ordered, "\n20 60 ", "\n20 59999 ", 1)
	// A header record count sizes the first chunk; a wrong one must not
	// matter.
	hinted := "; MaxRecords: 12345\n" + ordered
	for name, text := range map[string]string{"ordered": ordered, "unordered": unordered, "hinted": hinted} {
		t.Run(name, func(t *testing.T) {
			in := filepath.Join(dir, name+".swf")
			if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, name+".parquet")
			tr, err := Convert(in, out, ConvertOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if (len(tr.Warnings) > 0) != (name == "unordered") {
				t.Fatalf("warnings %v", tr.Warnings)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := WriteParquet(&want, tr); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("streamed file (%d bytes) differs from WriteParquet's (%d bytes)", len(got), want.Len())
			}
			back, err := ReadFile(out, ReadOptions{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(back.Jobs) != 20000 || back.Machine != "flat:64" {
				t.Fatalf("%d jobs, machine %q", len(back.Jobs), back.Machine)
			}
		})
	}
	// An invalid log leaves nothing behind.
	bad := filepath.Join(dir, "bad.swf")
	os.WriteFile(bad, []byte(ordered+"1 2 3\n"), 0o644)
	if _, err := Convert(bad, filepath.Join(dir, "bad.parquet"), ConvertOptions{}); err == nil || !strings.Contains(err.Error(), "bad.swf:20002: 3 fields") {
		t.Fatalf("error %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.parquet")); !os.IsNotExist(err) {
		t.Fatal("bad.parquet was written")
	}
}

func itoaT(i int) string { return strconv.Itoa(i) }

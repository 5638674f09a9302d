package traces

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/trace"
)

// kthSHA256 is the SHA-256 of the Parallel Workloads Archive's
// KTH-SP2-1996-2.1-cln.swf.gz, the file the archive distributes.
const kthSHA256 = "3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b"

// The bundled real log (logs/, not embedded in the binaries) is the
// archive's file, byte for byte, with its header and acknowledgement, and
// reads as the quick start and notebook 02 expect: 28,476 jobs on 100
// processors. It is not part of the default run's inputs.
func TestBundledKTHLog(t *testing.T) {
	const p = "logs/KTH-SP2-1996-2.1-cln.swf.gz"
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != kthSHA256 {
		t.Fatalf("%s: SHA-256 %x, want the archive's %s", p, sum, kthSHA256)
	}
	tr, err := trace.ReadFile(p, trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 28476 {
		t.Errorf("%s: %d jobs, want 28476", p, len(tr.Jobs))
	}
	for key, want := range map[string]string{
		"Installation": "Swedish Royal Institute of Technology (KTH)",
		"Acknowledge":  "Lars Malinowsky",
		"MaxProcs":     "100",
	} {
		if got, _ := tr.Header.Get(key); strings.TrimSpace(got) != want {
			t.Errorf("%s: header %s = %q, want %q", p, key, got, want)
		}
	}
	ts, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ts {
		if !strings.HasPrefix(d.Name, "flat128-h2-") {
			t.Errorf("default traces include %q", d.Name)
		}
	}
}

package trace

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// The benchmarks read and write a synthetic trace of 1,000,000 jobs and the
// KTH-SP2 log (skipped when ../shared/traces is absent), each as Parquet and
// as SWF.gz files, through ReadFile as the commands do (files in the page
// cache). rows/s is the figure to compare; the target is Parquet ≥ 5 M rows/s
// and no slower than SWF.gz.
//
//	go test -run '^$' -bench 'Read|Write' -benchtime 10x ./trace

// synthetic1M returns a deterministic trace of 1,000,000 jobs with varied
// values (a PCG stream), like a generated workload.
var synthetic1M = sync.OnceValue(func() *Trace {
	t := &Trace{Name: "synthetic", Machine: "flat:1024", Provenance: Provenance{Generator: "bench", Load: -1}}
	t.Header.Set("MaxProcs", "1024")
	r := rand.New(rand.NewPCG(1, 2))
	t.Jobs = make([]Job, 1_000_000)
	submit := 0.0
	for i := range t.Jobs {
		j := NewJob(int64(i + 1))
		submit += float64(r.IntN(600))
		run := float64(r.IntN(36000))
		j.Submit, j.Wait, j.Run = submit, float64(r.IntN(3600)), run
		j.ReqProcs = int64(1 + r.IntN(1024))
		j.AllocProcs = j.ReqProcs
		j.ReqTime = run + float64(r.IntN(3600))
		j.Status, j.User, j.Group, j.Queue = 1, int64(r.IntN(300)), int64(r.IntN(20)), int64(r.IntN(4))
		t.Jobs[i] = j
	}
	return t
})

// benchTrace returns the named benchmark trace.
func benchTrace(b *testing.B, name string) *Trace {
	b.Helper()
	if name == "synthetic-1M" {
		return synthetic1M()
	}
	t, err := ReadFile(realLog(b, "KTH-SP2-1996-2.1-cln.swf.gz"), ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return t
}

var benchTraces = []string{"synthetic-1M", "kth"}

// writeBenchFile writes t to dir/name in the format name's extension says.
func writeBenchFile(b *testing.B, t *Trace, name string) string {
	b.Helper()
	p := filepath.Join(b.TempDir(), name)
	var buf bytes.Buffer
	var err error
	if FormatOf(p) == FormatParquet {
		err = WriteParquet(&buf, t)
	} else {
		zw := gzip.NewWriter(&buf)
		if err = WriteSWF(zw, t); err == nil {
			err = zw.Close()
		}
	}
	if err == nil {
		err = os.WriteFile(p, buf.Bytes(), 0o644)
	}
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func benchRead(b *testing.B, ext string) {
	for _, name := range benchTraces {
		b.Run(name, func(b *testing.B) {
			p := writeBenchFile(b, benchTrace(b, name), "t"+ext)
			if st, err := os.Stat(p); err == nil {
				b.SetBytes(st.Size())
			}
			b.ReportAllocs()
			b.ResetTimer()
			rows := 0
			for i := 0; i < b.N; i++ {
				got, err := ReadFile(p, ReadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				rows += len(got.Jobs)
			}
			b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkReadParquet reads a Parquet trace file.
func BenchmarkReadParquet(b *testing.B) { benchRead(b, ".parquet") }

// BenchmarkReadSWFGzip reads the same trace as an SWF.gz file.
func BenchmarkReadSWFGzip(b *testing.B) { benchRead(b, ".swf.gz") }

// BenchmarkWriteParquet writes a trace as Parquet to memory.
func BenchmarkWriteParquet(b *testing.B) {
	for _, name := range benchTraces {
		b.Run(name, func(b *testing.B) {
			t := benchTrace(b, name)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := WriteParquet(io.Discard, t); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(t.Jobs)*b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkGunzipKTH is plain decompression of the KTH log in process, the
// yardstick for the conversion target (within 3×).
func BenchmarkGunzipKTH(b *testing.B) {
	in := realLog(b, "KTH-SP2-1996-2.1-cln.swf.gz")
	for i := 0; i < b.N; i++ {
		f, err := os.Open(in)
		if err != nil {
			b.Fatal(err)
		}
		zr, err := gzipNewReader(f)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, zr); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

// BenchmarkConvertFileKTH is `synth convert KTH.swf.gz kth.parquet` in
// process: streaming conversion (Parquet encoding overlapped with gzip
// decoding and parsing) to a file, written atomically and synced.
func BenchmarkConvertFileKTH(b *testing.B) {
	in := realLog(b, "KTH-SP2-1996-2.1-cln.swf.gz")
	out := b.TempDir() + "/kth.parquet"
	jobs := 0
	for i := 0; i < b.N; i++ {
		t, err := Convert(in, out, ConvertOptions{})
		if err != nil {
			b.Fatal(err)
		}
		jobs += len(t.Jobs)
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
}

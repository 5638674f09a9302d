package trace

import (
	"io"
	"os"
	"testing"
)

// BenchmarkConvertKTH measures SWF.gz → Parquet conversion of the KTH-SP2
// log (read, validate, write zstd Parquet to memory), in jobs/s.
func BenchmarkConvertKTH(b *testing.B) {
	in := realLog(b, "KTH-SP2-1996-2.1-cln.swf.gz")
	b.ReportAllocs()
	jobs := 0
	for i := 0; i < b.N; i++ {
		t, err := ReadFile(in, ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if err := WriteParquet(io.Discard, t); err != nil {
			b.Fatal(err)
		}
		jobs += len(t.Jobs)
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkReadSWFGzip measures reading alone.
func BenchmarkReadSWFGzip(b *testing.B) {
	in := realLog(b, "KTH-SP2-1996-2.1-cln.swf.gz")
	jobs := 0
	for i := 0; i < b.N; i++ {
		t, err := ReadFile(in, ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		jobs += len(t.Jobs)
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkGunzipKTH is plain decompression of the same file in process,
// the yardstick for the conversion target (within 3×).
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

// BenchmarkWriteParquetKTH measures writing alone.
func BenchmarkWriteParquetKTH(b *testing.B) {
	t, err := ReadFile(realLog(b, "KTH-SP2-1996-2.1-cln.swf.gz"), ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := WriteParquet(io.Discard, t); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(t.Jobs)*b.N)/b.Elapsed().Seconds(), "jobs/s")
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

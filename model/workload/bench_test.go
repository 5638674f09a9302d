package workload

import "testing"

// BenchmarkGenerate1M generates 1,000,000 jobs of Chu's mesh model with
// Mohapatra, Yu & Das 1995's H2 service times (goal: < 2 s).
func BenchmarkGenerate1M(b *testing.B) {
	s := WorkloadSpec{Machine: "mesh:32x32", Size: SizeSpec{Dist: SizeIncreasing}, Service: Service{Kind: ServiceH2, Mean: 10, CV: 4, Alpha: 0.95}, Estimates: Estimates{Kind: EstimatesEET, C: 0.5}, Arrivals: Arrivals{Load: 0.5, Jobs: 1000000}, Seed: 1}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Generate(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMalleable1M generates 1,000,000 malleable jobs with a cap.
func BenchmarkMalleable1M(b *testing.B) {
	s := MalleableSpec{Procs: 100, WorkMean: 1000, WorkCV: 5, EffMin: 1, EffMax: 99, CapMean: 45, Load: 0.9, Jobs: 1000000, Seed: 1}
	for b.Loop() {
		if _, err := GenerateMalleable(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLublin1M generates 1,000,000 Lublin–Feitelson jobs.
func BenchmarkLublin1M(b *testing.B) {
	for b.Loop() {
		if _, err := GenerateLublin(LublinSpec{Procs: 256, Jobs: 1000000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

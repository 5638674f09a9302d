package stats_test

import (
	"fmt"

	"github.com/schedlab/schedlab/analysis/stats"
)

// Mean response time of one policy in five independent replications.
func ExampleMeanCI() {
	ci := stats.MeanCI([]float64{102, 98, 110, 95, 105}, 0.95)
	fmt.Printf("%.1f ± %.2f (n=%d)\n", ci.Mean, ci.HalfWidth, ci.N)
	// Output: 102.0 ± 7.29 (n=5)
}

// Relative difference of a policy to a baseline, paired on replication:
// the ratio of the means minus one, with a delta-method interval.
func ExamplePairedRelDiff() {
	base := []float64{100, 120, 90}
	policy := []float64{90, 102, 81}
	d, _ := stats.PairedRelDiff(policy, base, 0.90)
	fmt.Printf("%+.1f%% ± %.1f%%\n", 100*d.Mean, 100*d.HalfWidth)
	// Output: -11.9% ± 5.2%
}

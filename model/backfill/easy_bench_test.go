package backfill

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/model/policy"
)

// easyBenchSpecs are the EASY variants whose speed issue 23 bounds (at
// most 1.5 times FCFS, whole process, on every real log).
var easyBenchSpecs = []string{
	"easy", "easy:order=sjf", "easy:order=ljf", "easy:order=smallest", "easy:order=largest",
	"easy:order=saf", "easy:order=xf", "easy:backfill=sjf", "easy:predict=user2",
}

// BenchmarkEASYRealLogs replays every real log of ../shared/traces under
// every EASY variant of easyBenchSpecs (engine.Run only; BACKFILL_JOBS=n
// keeps the first n jobs of each).
func BenchmarkEASYRealLogs(b *testing.B) {
	for _, l := range realLogs {
		for _, spec := range easyBenchSpecs {
			b.Run(strings.TrimSuffix(l.file, ".swf.gz")+"/"+spec, func(b *testing.B) {
				src, m := realLogJobs(b, l.file, l.procs)
				benchJobs(b, src, m, func() policy.Scheduler { return benchSched(b, spec, m) })
			})
		}
	}
}

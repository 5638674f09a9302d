package experiment

import (
	"fmt"

	"github.com/schedlab/schedlab/model/schema"
	"github.com/schedlab/schedlab/trace"
)

// Run replays every trace under every compatible pair, streams the results
// files when opt.Out is set (all or nothing, under a lock on the directory),
// and returns the summary rows in output order.
func Run(traces []*trace.Trace, opt Options) ([]schema.Summary, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	tasks, preps, err := plan(traces, opt)
	if err != nil {
		return nil, err
	}
	if err := checkMemory(tasks, preps, opt); err != nil {
		return nil, err
	}
	if opt.Records != nil {
		for _, p := range preps {
			opt.Records(p.audit)
		}
	}
	var s *sink
	if opt.Out != "" {
		if s, err = newSink(opt, preps); err != nil {
			return nil, err
		}
		defer s.abort()
	}
	summary := make([]schema.Summary, 0, len(tasks))
	err = runPool(tasks, opt, func(o *output) error {
		summary = append(summary, o.summary)
		if o.summary.Jobs == 0 && opt.Warn != nil {
			p := o.tk.tr
			opt.Warn(fmt.Sprintf("trace %s, %s/%s: no job counted (%d in the trace, %d rejected, %d filtered): its statistics are NaN",
				p.t.Name, o.tk.pair.Alloc, o.tk.pair.Sched, p.records, o.summary.Rejected, o.summary.Filtered))
		}
		if s != nil {
			err := s.write(o)
			o.res = nil // rows written: let the collector have the run
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if s != nil {
		if err := s.commit(); err != nil {
			return nil, err
		}
	}
	return summary, nil
}

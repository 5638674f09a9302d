package results

import (
	"encoding/json"

	"github.com/schedlab/schedlab/model/policy"
	"github.com/schedlab/schedlab/model/schema"
)

// Mode returns the replay mode the results record (the options' mode,
// schema.Options.Mode): "" for rigid runs and for results without
// options.
func (s *Set) Mode() string {
	var o schema.Options
	if len(s.Options) == 0 || json.Unmarshal(s.Options, &o) != nil {
		return ""
	}
	return o.Mode
}

// MachineOf returns the machine the runs recorded on machine (a machine
// column) were replayed on: the recorded machine in the set's mode
// (policy.FromRecord: flat:100 of a malleable run is malleable:100). The
// machine families must be registered (model/catalog imports them).
func (s *Set) MachineOf(machine string) (policy.Machine, error) {
	return policy.FromRecord(machine, s.Mode())
}

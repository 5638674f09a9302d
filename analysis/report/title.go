package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/analysis/results"
)

func init() {
	Register(Builder{Name: "title", Order: 0, Scope: Global, Build: buildTitle})
}

// buildTitle is the title page: provenance (tool version, replay options,
// machines, experiments) of the results set.
func buildTitle(c *Context, _ *results.Experiment, _ int) ([]Page, error) {
	s := c.Set
	machines := map[string]bool{}
	for i := range s.Summary {
		machines[s.Summary[i].Machine] = true
	}
	var ms []string
	for m := range machines {
		ms = append(ms, m)
	}
	sort.Strings(ms)
	version := s.Version
	if version == "" {
		version = "(not recorded)"
	}
	lines := [][2]string{
		{"Results", lastElem(s.Dir)},
		{"Tool version", version},
		{"Machines", strings.Join(ms, ", ")},
		{"Traces", fmt.Sprintf("%d (%d with provenance)", countTraces(s), len(s.Traces))},
		{"Policy pairs", strconv.Itoa(len(c.Pairs))},
		{"Summary rows", strconv.Itoa(len(s.Summary))},
		{"Job rows", strconv.FormatInt(s.NumJobs(), 10)},
		{"Series rows", strconv.FormatInt(s.NumSeries(), 10)},
		{"Time unit", c.TimeUnit},
		{"Confidence level", fmt.Sprintf("%g%% (Student t across replications)", c.Level*100)},
	}
	if c.Baseline != nil {
		lines = append(lines, [2]string{"Baseline pair", c.Label(*c.Baseline)})
	}
	if c.Warning != "" {
		lines = append(lines, [2]string{"Warning", c.Warning})
	}
	// The bytes each input came from (two different files circulate under
	// some archive names): the source's SHA-256, as sha256sum prints it.
	k := "Input SHA-256"
	for _, ti := range s.Traces {
		if ti.SHA256 != "" {
			lines = append(lines, [2]string{k, lastElem(ti.Source) + " " + ti.SHA256})
			k = ""
		}
	}
	for i, e := range c.Experiments {
		kind := "independent traces"
		if e.Sweep() && len(e.Loads) == 1 {
			kind = "replications at load " + results.FormatLoad(e.Loads[0])
		} else if e.Sweep() {
			kind = fmt.Sprintf("load sweep %s..%s (%d loads)", results.FormatLoad(e.Loads[0]), results.FormatLoad(e.Loads[len(e.Loads)-1]), len(e.Loads))
		}
		lines = append(lines, [2]string{fmt.Sprintf("Experiment %d", i+1), fmt.Sprintf("%s (%s): %d traces, %s", c.expTitle(&c.Experiments[i]), e.Name, len(e.Traces), kind)})
	}
	if len(s.Options) > 0 {
		opts := optionLines(s.Options)
		for i, o := range opts {
			k := ""
			if i == 0 {
				k = "Replay options"
			}
			lines = append(lines, [2]string{k, o})
		}
	}
	return []Page{&TextPage{Title: "schedlab report", Subtitle: "Trace-driven replay of processor allocation and job scheduling", Lines: lines}}, nil
}

func countTraces(s *results.Set) int {
	m := map[string]bool{}
	for i := range s.Summary {
		m[s.Summary[i].Trace] = true
	}
	return len(m)
}

// optionLines renders the options JSON object as "key = value" lines in key
// order (nested values as compact JSON).
func optionLines(raw json.RawMessage) []string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return []string{string(raw)}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		var b bytes.Buffer
		if err := json.Compact(&b, m[k]); err != nil {
			b.Write(m[k])
		}
		v := b.String()
		// Say what an unset option meant rather than printing null or "".
		switch {
		case v == "null" && (k == "allocs" || k == "scheds"):
			v = "every compatible one"
		case v == `""` && k == "machine":
			v = "each trace's own (hint, else flat:MaxProcs)"
		case v == "null" || v == `""` || v == "[]":
			v = "none"
		}
		out[i] = k + " = " + v
	}
	return out
}

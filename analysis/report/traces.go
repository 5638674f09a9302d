package report

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/analysis/results"
	"github.com/schedlab/schedlab/analysis/table"
)

func init() {
	Register(Builder{Name: "traces", Order: 1, Scope: Global, Applies: func(c *Context, _ *results.Experiment) bool { return len(c.Set.Traces) > 0 }, Build: buildTraces})
}

// buildTraces is the table of traces with their provenance and the
// generator parameters that differ between them.
func buildTraces(c *Context, _ *results.Experiment, _ int) ([]Page, error) {
	common, varying := splitParams(c.Set.Traces)
	t := &table.Table{Name: "traces", Title: "Traces and their provenance",
		Header: []string{"trace", "machine", "jobs", "load", "rep", "seed", "generator", "source", "parameters that differ"},
		Align:  []table.Align{table.Left, table.Left, table.Right, table.Right, table.Right, table.Right, table.Left, table.Left, table.Left}}
	if len(common) > 0 {
		t.Notes = "Parameters common to every trace: " + strings.Join(common, ", ")
	}
	for i, ti := range c.Set.Traces {
		t.Add(ti.Name, ti.Machine, strconv.FormatInt(ti.Jobs, 10), results.FormatLoad(ti.Load), strconv.FormatInt(ti.Rep, 10),
			strconv.FormatInt(ti.Seed, 10), ti.Generator, lastElem(ti.Source), strings.Join(varying[i], ", "))
	}
	return TablePages(t), nil
}

// splitParams returns the "k=v" parameters shared by every trace, in key
// order, and for each trace those that differ.
func splitParams(ts []results.TraceInfo) (common []string, varying [][]string) {
	per := make([]map[string]string, len(ts))
	keys := map[string]bool{}
	for i := range ts {
		per[i] = map[string]string{}
		if len(ts[i].Params) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(ts[i].Params, &m); err != nil {
			per[i]["params"] = string(ts[i].Params)
			keys["params"] = true
			continue
		}
		for k, v := range m {
			per[i][k] = fmt.Sprint(v)
			keys[k] = true
		}
	}
	var ks []string
	for k := range keys {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	varying = make([][]string, len(ts))
	for _, k := range ks {
		v0, ok0 := per[0][k]
		same := true
		for i := range per {
			if v, ok := per[i][k]; ok != ok0 || v != v0 {
				same = false
				break
			}
		}
		if same && len(ts) > 1 {
			common = append(common, k+"="+v0)
			continue
		}
		for i := range per {
			if v, ok := per[i][k]; ok {
				varying[i] = append(varying[i], k+"="+v)
			}
		}
	}
	return common, varying
}

package workload

import (
	"fmt"
	"io"
	"strings"
)

// WriteReference writes the models' parameters as a Markdown page (the
// generated docs/workloads.md): one table per model, with each
// parameter's flag, plan key, type, default, valid values, meaning and
// source.
func WriteReference(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# Workload models\n\n")
	b.WriteString("<!-- Generated from model/workload's model descriptors by `go run ./cmd/synth docs > docs/workloads.md`; do not edit. -->\n\n")
	b.WriteString("Each parameter is a flag of `synth MODEL` and, unless marked *flag only*, a key of a sweep plan's\n")
	b.WriteString("`[[workload]]` table with `model = \"MODEL\"` (the flag's name with `_` for `-`). In a plan a key left\n")
	b.WriteString("out, or zero, takes the default. A bad value is one error naming the flag (`synth: --procs 1: ...`)\n")
	b.WriteString("or the plan's file, line and key (`plan.toml:7: workload[1].procs: 1: ...`). A plan's own keys\n")
	b.WriteString("(`name`, `model`, `loads`, `reps`, `crn`, `iat`, `scheds`, `comm`) are in [sweeps.md](sweeps.md#plans).\n")
	for _, m := range Models {
		fmt.Fprintf(&b, "\n## `synth %s`\n\n%s.\n\n", m.Name, m.Doc)
		b.WriteString("| flag | plan key | type | default | valid | meaning | source |\n|---|---|---|---|---|---|---|\n")
		for _, p := range m.Params {
			key := "`" + p.Key() + "`"
			if p.Scope == FlagOnly {
				key = "*flag only*"
			}
			valid := p.Range
			if len(p.Choices) > 0 {
				valid = "`" + strings.Join(p.Choices, "`, `") + "`"
			}
			fmt.Fprintf(&b, "| `--%s` | %s | %s | %s | %s | %s | %s |\n", p.Name, key, p.Type, cell(defaultText(p)), cell(valid), cell(p.Doc), cell(p.Source))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// defaultText writes p's default for the reference.
func defaultText(p Param) string {
	switch d := p.Zero().(type) {
	case string:
		if d == "" {
			return "–"
		}
		return "`" + d + "`"
	case bool:
		if !d {
			return "false"
		}
		return "true"
	default:
		if FormatValue(d) == "0" {
			return "0"
		}
		return FormatValue(d)
	}
}

// cell escapes a table cell.
func cell(s string) string {
	if s == "" {
		return "–"
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

package schema

import (
	"fmt"
	"strings"
)

// UnitsTable returns the Markdown table of the results columns that have a
// unit or may be NULL (Column.Unit, Column.Null), file by file, in column
// order: the table of docs/results-units-and-nulls.md, which a test keeps
// current.
func UnitsTable() string {
	var b strings.Builder
	b.WriteString("| file | column | unit | NULL when |\n|---|---|---|---|\n")
	for _, f := range []struct {
		file string
		row  any
	}{{JobsFile, Job{}}, {SummaryFile, Summary{}}, {SeriesFile, Series{}}} {
		var walk func(prefix string, cs []Column)
		walk = func(prefix string, cs []Column) {
			for _, c := range cs {
				if c.Kind == List {
					walk(prefix+c.Name+".", c.Elem)
					continue
				}
				if c.Unit == "" && c.Null == "" {
					continue
				}
				unit := map[string]string{"": "", "time": "time (s or time units)", "1/time": "1/time"}[c.Unit]
				null := ""
				switch {
				case c.Null == "":
				case strings.HasPrefix(c.Null, "when:"):
					null = fmt.Sprintf("`%s` is NULL", strings.TrimPrefix(c.Null, "when:"))
				default:
					null = fmt.Sprintf("the value would be %s", c.Null)
				}
				fmt.Fprintf(&b, "| %s | `%s%s` | %s | %s |\n", f.file, prefix, c.Name, unit, null)
			}
		}
		walk("", Columns(f.row))
	}
	return b.String()
}

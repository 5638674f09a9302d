package metrics

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/model/schema"
)

// WriteReference writes the metrics reference (the generated
// docs/metrics.md) from the one place each metric is defined: the
// metric tables of this package (Summary, Comm, Malleable), the columns of
// the results files with their doc comments (model/schema), and the doc
// comments of this package's functions and types. It reads the module's
// Go source for the comments, so it runs from a checkout (go generate, go
// test).
func WriteReference(w io.Writer) error {
	_, self, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(self) {
		return fmt.Errorf("metrics: the metrics reference needs the module's source (run it with go run or go test, without -trimpath)")
	}
	dir := filepath.Dir(self)
	pkg, err := parseDir(dir)
	if err != nil {
		return err
	}
	fields, err := fieldDocs(filepath.Join(filepath.Dir(dir), "schema", "schema.go"))
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("# Metrics\n\n")
	b.WriteString("<!-- Generated from model/metrics and model/schema by `go run ./cmd/replay docs metrics > docs/metrics.md` (`go generate ./cmd/replay`); do not edit. -->\n\n")
	b.WriteString("Every metric schedlab reports is defined once, in `model/metrics` (used by the replay, the tests and the report alike),\n")
	b.WriteString("and every results column is declared once, in `model/schema`; this page is generated from both.\n")
	b.WriteString("Times are in the trace's unit: seconds for real logs, abstract time units for synthetic traces.\n")
	b.WriteString("The files, their metadata and how they are written: [results.md](results.md).\n\n")
	b.WriteString("## Sources\n\n")
	b.WriteString(docMarkdown(pkg.Doc))
	b.WriteString("\n")

	unit := map[Unit]string{Dimensionless: "–", Time: "time", PerTime: "jobs / time", PerTime2: "jobs / time²", Fraction: "fraction", Jobs: "jobs"}
	for _, t := range []struct {
		title, intro string
		ms           []Metric
	}{
		{"Summary metrics", "The per-pair metrics of `summary.parquet` that the report plots and ranks (`metrics.Summary`), in display order.", Summary},
		{"Communication metrics", "Under a communication model (`replay --comm`; `metrics.Comm`).", Comm},
		{"Locality metrics", "Placement locality on machines with a topology (`policy.Family.Locality`; `metrics.Locality`); NaN on a flat machine.", Locality},
		{"Malleable metrics", "In malleable mode (`metrics.Malleable`).", Malleable},
	} {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n| column | name | unit | better | definition (source) |\n|---|---|---|---|---|\n", t.title, t.intro)
		for _, m := range t.ms {
			better := "higher"
			if m.Lower {
				better = "lower"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", m.Column, cell(m.Name), unit[m.Unit], better, cell(m.Source))
		}
		b.WriteString("\n")
	}

	b.WriteString("## Columns of the results files\n\n")
	b.WriteString("Every column in file order (`model/schema`), with its declaration's comment; \"optional\" columns were added after\n")
	b.WriteString("the first release and readers accept files without them.\n\n")
	for _, f := range []struct {
		title string
		row   any
	}{
		{"`jobs.parquet` (`schema.Job`)", schema.Job{}},
		{"`summary.parquet` (`schema.Summary`)", schema.Summary{}},
		{"`size_classes` elements (`schema.SizeClass`)", schema.SizeClass{}},
		{"`series.parquet` (`schema.Series`)", schema.Series{}},
		{"`placement` elements (`schema.Piece`)", schema.Piece{}},
	} {
		name := reflect.TypeOf(f.row).Name()
		fmt.Fprintf(&b, "### %s\n\n", f.title)
		if d := fields.types[name]; d != "" {
			b.WriteString(oneLine(d) + "\n\n")
		}
		b.WriteString("| column | type | optional | meaning |\n|---|---|---|---|\n")
		for i, c := range schema.Columns(f.row) {
			opt := ""
			if c.Optional {
				opt = "optional"
			}
			meaning := fields.fields[name][i]
			if meaning == "" && name == "Summary" {
				if m, ok := lookupAny(c.Name); ok {
					meaning = m.Name + " (see the metric tables above)"
				}
			}
			if meaning == "" {
				meaning = "–"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", c.Name, c.Kind, opt, cell(meaning))
		}
		b.WriteString("\n")
	}

	b.WriteString("## Definitions in `model/metrics`\n\n")
	b.WriteString("The exported functions and types of `model/metrics`, with their doc comments.\n\n| name | definition |\n|---|---|\n")
	type entry struct{ name, doc string }
	var es []entry
	for _, f := range pkg.Funcs {
		es = append(es, entry{f.Name, f.Doc})
	}
	for _, t := range pkg.Types {
		es = append(es, entry{t.Name, t.Doc})
		for _, f := range t.Funcs {
			es = append(es, entry{f.Name, f.Doc})
		}
		for _, f := range t.Methods {
			es = append(es, entry{t.Name + "." + f.Name, f.Doc})
		}
	}
	sort.Slice(es, func(i, j int) bool { return es[i].name < es[j].name })
	for _, e := range es {
		if e.doc == "" {
			continue
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", e.name, cell(oneLine(e.doc)))
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// lookupAny returns the metric of a summary column from any of the
// metric tables.
func lookupAny(column string) (Metric, bool) {
	for _, ms := range [][]Metric{Summary, Comm, Malleable} {
		for _, m := range ms {
			if m.Column == column {
				return m, true
			}
		}
	}
	return Metric{}, false
}

// parseDir reads the documentation of the (non-test) package in dir.
func parseDir(dir string) (*doc.Package, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return doc.NewFromFiles(fset, files, "github.com/schedlab/schedlab/model/metrics")
}

// schemaDocs holds the doc comments of model/schema's row types and of
// their fields, by type name, in field order.
type schemaDocs struct {
	types  map[string]string
	fields map[string][]string
}

// fieldDocs reads the comments of the struct types in file. A field
// without a comment of its own that follows a commented group's first
// field on the next line belongs to that group and points to it.
func fieldDocs(file string) (schemaDocs, error) {
	out := schemaDocs{types: map[string]string{}, fields: map[string][]string{}}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.ParseComments)
	if err != nil {
		return out, err
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			ts := s.(*ast.TypeSpec)
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			out.types[ts.Name.Name] = g.Doc.Text()
			var docs []string
			head, last := "", -10
			for _, fl := range st.Fields.List {
				line := fset.Position(fl.Pos()).Line
				col := tagName(fl)
				text := ""
				switch {
				case fl.Doc != nil:
					text = oneLine(fl.Doc.Text())
					// A comment naming the field ("DeadlineMissRate is
					// ...") is its own; any other starts a group.
					if len(fl.Names) == 0 || !strings.HasPrefix(text, fl.Names[0].Name+" ") {
						head = col
					}
				case fl.Comment != nil:
					text = oneLine(fl.Comment.Text())
					if line != last+1 {
						head = ""
					}
				case head != "" && line == last+1:
					text = "see `" + head + "`"
				default:
					head = ""
				}
				if fl.Doc != nil && fl.Comment != nil {
					text += " " + oneLine(fl.Comment.Text())
				}
				last = line
				for range max(1, len(fl.Names)) {
					docs = append(docs, text)
				}
			}
			out.fields[ts.Name.Name] = docs
		}
	}
	return out, nil
}

// tagName is a field's Parquet column name.
func tagName(fl *ast.Field) string {
	if fl.Tag == nil {
		return ""
	}
	tag := reflect.StructTag(strings.Trim(fl.Tag.Value, "`"))
	name, _, _ := strings.Cut(tag.Get("parquet"), ",")
	return name
}

// docMarkdown turns a package doc comment into Markdown.
func docMarkdown(text string) string {
	p := new(doc.Package)
	return string(p.Printer().Markdown(p.Parser().Parse(text)))
}

// oneLine joins a comment's lines into one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cell escapes text for a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

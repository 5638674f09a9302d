package experiment

import (
	"fmt"
	"io"
	"strings"
)

// WriteReference writes the replay options as a Markdown page (the
// generated docs/replay-options.md): each option's flag of `replay run`,
// key of a sweep plan's [replay] table, type, default and meaning.
func WriteReference(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# Replay options\n\n")
	b.WriteString("<!-- Generated from model/experiment's ReplayOptions by `go run ./cmd/replay docs > docs/replay-options.md`; do not edit. -->\n\n")
	b.WriteString("Each option is a flag of `replay run` and, where it has one, a key of a sweep plan's `[replay]` table.\n")
	b.WriteString("One function checks them (`experiment.Validate`): a bad value is one error naming the flag\n")
	b.WriteString("(`replay: --until -3: ...`) or the plan's file, line and key (`plan.toml:7: replay.until: -3: ...`).\n\n")
	b.WriteString("| flag | plan key | type | default | meaning |\n|---|---|---|---|---|\n")
	for _, o := range ReplayOptions {
		flag, key := "–", "–"
		if o.Flag != "" {
			flag = "`--" + o.Flag + "`"
			if len(o.Flag) == 1 {
				flag = "`-" + o.Flag + "`"
			}
		}
		if o.Key != "" {
			key = "`" + o.Key + "`"
		}
		doc := o.Doc
		if o.KeyDoc != "" {
			doc += "; plan key: " + o.KeyDoc
		}
		def := map[Kind]string{BoolOption: "false", IntOption: "0", FloatOption: "0"}[o.Kind]
		if def == "" {
			def = "–"
		}
		switch d := o.Default.(type) {
		case string:
			def = "`" + d + "`"
		case bool:
			def = fmt.Sprint(d)
		case float64:
			def = FormatValue(d)
		}
		if o.Name == "j" {
			def = "the number of cores"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", flag, key, kindNames[o.Kind], def, strings.ReplaceAll(strings.ReplaceAll(doc, "|", `\|`), "`", ""))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

var kindNames = map[Kind]string{StringOption: "string", BoolOption: "bool", IntOption: "int", FloatOption: "float", ListOption: "list of strings"}

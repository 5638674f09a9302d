package cli

import (
	"reflect"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"
)

func TestReorder(t *testing.T) {
	app := &ucli.App{Name: "replay", Commands: []*ucli.Command{
		{Name: "sweep", Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "out"}, &ucli.IntFlag{Name: "j"}, &ucli.BoolFlag{Name: "list"}, &ucli.BoolFlag{Name: "quiet", Aliases: []string{"q"}},
		}},
		{Name: "report", Subcommands: []*ucli.Command{{Name: "compare", Flags: []ucli.Flag{&ucli.StringFlag{Name: "out"}}}}},
	}}
	for _, tc := range []struct{ in, want string }{
		{"replay sweep p.toml --list", "replay sweep --list -- p.toml"},
		{"replay sweep --list p.toml", "replay sweep --list -- p.toml"},
		{"replay sweep p.toml --out d -j 2 -q", "replay sweep --out d -j 2 -q -- p.toml"},
		{"replay sweep p.toml --out=d --list", "replay sweep --out=d --list -- p.toml"},
		{"replay sweep p.toml -- --odd-name.toml", "replay sweep -- p.toml --odd-name.toml"},
		{"replay sweep --unknown p.toml", "replay sweep --unknown -- p.toml"},
		{"replay report compare a b --out c", "replay report compare --out c -- a b"},
		{"replay --help", "replay --help"},
		{"replay", "replay"},
		{"replay sweep", "replay sweep"},
	} {
		got := strings.Join(Reorder(app, strings.Fields(tc.in)), " ")
		if got != tc.want {
			t.Errorf("Reorder(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	// The reordered arguments parse as the user meant.
	var out string
	var list bool
	var args []string
	app.Commands[0].Action = func(c *ucli.Context) error {
		out, list, args = c.String("out"), c.Bool("list"), c.Args().Slice()
		return nil
	}
	if err := app.Run(Reorder(app, strings.Fields("replay sweep p.toml --out d --list"))); err != nil {
		t.Fatal(err)
	}
	if out != "d" || !list || !reflect.DeepEqual(args, []string{"p.toml"}) {
		t.Errorf("parsed out=%q list=%v args=%v", out, list, args)
	}
}

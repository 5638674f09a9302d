package reportcli

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/schedlab/schedlab/analysis/serve"
)

// maxCacheMB bounds --cache-mb (1 TiB).
const maxCacheMB = 1 << 20

// serveCommand is `report serve DIR`: a local web page over a results
// directory or a sweep dataset (analysis/serve).
func serveCommand() *cli.Command {
	return &cli.Command{
		Name:      "serve",
		Usage:     "explore a results directory or sweep dataset in the browser: summary table, curves, CDFs, replay",
		UsageText: "report serve DIR [--addr 127.0.0.1:8080] [--public] [--level 0.95] [--cache-mb 256]",
		Description: "Serves a web page over DIR (a replay's results directory or a sweep dataset) until interrupted:\n" +
			"the sortable summary table, metric-vs-load curves with confidence intervals for the pairs chosen,\n" +
			"per-job CDFs, and a replay of the machine's occupancy with the queue length beside it.\n" +
			"It listens on loopback only unless --public is given; the page makes no request outside the server.",
		ArgsUsage: "DIR",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: serve.DefaultAddr, Usage: "HOST:PORT to listen on (port 0: any free port)"},
			&cli.BoolFlag{Name: "public", Usage: "allow a non-loopback --addr (anyone who can reach it can read the results)"},
			&cli.Float64Flag{Name: "level", Value: 0.95, Usage: "confidence level of the intervals"},
			&cli.Int64Flag{Name: "cache-mb", Value: serve.DefaultCacheBytes >> 20, Usage: "memory (MiB) for the runs prepared for the replay view, least recently used dropped first (about 17 MiB per 100 000 jobs)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return errors.New("serve: want one results directory or sweep dataset DIR")
			}
			if err := checkLevel(c.Float64("level")); err != nil {
				return err
			}
			mb := c.Int64("cache-mb")
			if mb < 1 || mb > maxCacheMB {
				return fmt.Errorf("--cache-mb %d: want a size in MiB from 1 to %d", mb, maxCacheMB)
			}
			return serve.Run(c.Context, c.Args().First(), serve.Options{
				Addr: c.String("addr"), Public: c.Bool("public"), Level: c.Float64("level"), Log: os.Stderr,
				CacheBytes: mb << 20,
			})
		},
	}
}

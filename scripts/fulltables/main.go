// Command fulltables writes the full-size agreement tables of the
// reproduction suites into docs/reproduce.md, from the output of
// scripts/reproduce-full.sh: DIR/SUITE/full.md (report reproduce SUITE
// --full) and, when present, DIR/SUITE.time (its /usr/bin/time -v).
//
//	go run ./scripts/fulltables DIR docs/reproduce.md
//
// It rewrites the summary table's measured columns (full run, claims and
// the verdict counts) and the section "Full agreement tables"; a suite
// without DIR/SUITE/full.md keeps its old row and table.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

const (
	tableStart = "| suite | papers | full run | claims | agree | not significant | disagree | not comparable |"
	fullHead   = "## Full agreement tables"
)

// headline matches full.md's first line.
var headline = regexp.MustCompile(`^### Reproduction of suite (\S+) \(full\): (\d+) claims: (\d+) agree, (\d+) consistent but not significant, (\d+) disagrees?, (\d+) not comparable`)

type result struct {
	suite                         string
	claims, agree, ns, dis, nonco int
	body                          string // the table and its notes, without the headline
	run                           string // "4 min 2 s (380 s CPU), 361 MB", "" when unknown
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: fulltables DIR docs/reproduce.md")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "fulltables:", err)
		os.Exit(1)
	}
}

func run(dir, doc string) error {
	src, err := os.ReadFile(doc)
	if err != nil {
		return err
	}
	text := string(src)
	suites, err := tableSuites(text)
	if err != nil {
		return fmt.Errorf("%s: %w", doc, err)
	}
	res := map[string]*result{}
	for _, s := range suites {
		r, err := load(dir, s)
		if err != nil {
			return err
		}
		if r != nil {
			res[s] = r
		}
	}
	if len(res) == 0 {
		return fmt.Errorf("%s: no SUITE/full.md for any suite of %s", dir, doc)
	}
	text, err = rewriteTable(text, res)
	if err != nil {
		return fmt.Errorf("%s: %w", doc, err)
	}
	text, err = rewriteTables(text, suites, res)
	if err != nil {
		return fmt.Errorf("%s: %w", doc, err)
	}
	tmp := doc + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, doc)
}

// tableSuites lists the suites of the summary table, in its order.
func tableSuites(text string) ([]string, error) {
	i := strings.Index(text, tableStart)
	if i < 0 {
		return nil, fmt.Errorf("no summary table (a line %q)", tableStart)
	}
	var out []string
	for _, line := range strings.Split(text[i:], "\n")[2:] {
		if !strings.HasPrefix(line, "| `") {
			break
		}
		out = append(out, strings.Trim(strings.Split(line, "|")[1], " `"))
	}
	return out, nil
}

// load reads DIR/SUITE/full.md and DIR/SUITE.time; nil when the suite has
// no full.md.
func load(dir, suite string) (*result, error) {
	path := filepath.Join(dir, suite, "full.md")
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	first, body, _ := strings.Cut(string(b), "\n")
	m := headline.FindStringSubmatch(first)
	if m == nil || m[1] != suite {
		return nil, fmt.Errorf("%s: line 1: not the headline of suite %s's full run", path, suite)
	}
	r := &result{suite: suite, body: strings.TrimSpace(body)}
	for k, p := range []*int{&r.claims, &r.agree, &r.ns, &r.dis, &r.nonco} {
		*p, _ = strconv.Atoi(m[k+2])
	}
	if t, err := os.ReadFile(filepath.Join(dir, suite+".time")); err == nil {
		r.run = timing(t)
	}
	return r, nil
}

// timing summarises /usr/bin/time -v output: wall, CPU, peak RSS.
func timing(b []byte) string {
	var wall string
	var cpu float64
	var rss int
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), ": ")
		if !ok {
			continue
		}
		switch {
		case strings.HasPrefix(k, "Elapsed (wall clock)"):
			wall = v
		case k == "User time (seconds)" || k == "System time (seconds)":
			x, _ := strconv.ParseFloat(v, 64)
			cpu += x
		case k == "Maximum resident set size (kbytes)":
			rss, _ = strconv.Atoi(v)
		}
	}
	if wall == "" {
		return ""
	}
	return fmt.Sprintf("%s (%.0f s CPU), %s", clock(wall), cpu, size(rss))
}

// clock turns h:mm:ss or m:ss.ss into "1 h 2 min", "8 min 48 s", "54 s".
func clock(s string) string {
	parts := strings.Split(s, ":")
	var sec float64
	for _, p := range parts {
		x, _ := strconv.ParseFloat(p, 64)
		sec = sec*60 + x
	}
	n := int(sec + 0.5)
	switch {
	case n >= 3600:
		return fmt.Sprintf("%d h %d min", n/3600, n%3600/60)
	case n >= 60:
		return fmt.Sprintf("%d min %d s", n/60, n%60)
	}
	return fmt.Sprintf("%d s", n)
}

func size(kb int) string {
	if kb >= 1<<20 {
		return fmt.Sprintf("%.1f GB", float64(kb)/(1<<20))
	}
	return fmt.Sprintf("%d MB", kb>>10)
}

// rewriteTable sets the measured columns of the summary table's rows.
func rewriteTable(text string, res map[string]*result) (string, error) {
	lines := strings.Split(text, "\n")
	in := false
	for i, line := range lines {
		if line == tableStart {
			in = true
			continue
		}
		if !in || strings.HasPrefix(line, "|---") {
			continue
		}
		if !strings.HasPrefix(line, "| `") {
			break
		}
		cells := strings.Split(line, "|")
		if len(cells) != 10 {
			return "", fmt.Errorf("summary row %q: want 8 cells", line)
		}
		r := res[strings.Trim(cells[1], " `")]
		if r == nil {
			continue
		}
		if r.run != "" {
			cells[3] = " " + r.run + " "
		}
		for k, v := range []int{r.claims, r.agree, r.ns, r.dis, r.nonco} {
			cells[4+k] = fmt.Sprintf(" %d ", v)
		}
		lines[i] = strings.Join(cells, "|")
	}
	return strings.Join(lines, "\n"), nil
}

// rewriteTables replaces the section of full tables, one <details> block
// per suite in the summary table's order (a suite without results keeps
// its old block).
func rewriteTables(text string, suites []string, res map[string]*result) (string, error) {
	i := strings.Index(text, fullHead)
	if i < 0 {
		return "", fmt.Errorf("no section %q", fullHead)
	}
	end := strings.Index(text[i:], "\n---\n")
	if end < 0 {
		return "", fmt.Errorf("section %q: no closing ---", fullHead)
	}
	old := text[i : i+end]
	blocks := map[string]string{}
	for _, b := range strings.Split(old, "<details>")[1:] {
		b = "<details>" + b[:strings.LastIndex(b, "</details>")+len("</details>")]
		if m := regexp.MustCompile("<code>([^<]+)</code>").FindStringSubmatch(b); m != nil {
			blocks[m[1]] = b
		}
	}
	var sb strings.Builder
	sb.WriteString(fullHead + "\n\n")
	sb.WriteString("The tables `report reproduce SUITE --full` printed (also written as\n`DIR/full.md`, `.csv` and `.pdf`), put here by\n`scripts/reproduce-full.sh`; `n` is the number of replications.\n")
	for _, s := range suites {
		var b string
		if r := res[s]; r != nil {
			b = fmt.Sprintf("<details><summary><code>%s</code>: %d claims: %d agree, %d consistent but not significant, %d disagree, %d not comparable</summary>\n\n%s\n\n</details>",
				s, r.claims, r.agree, r.ns, r.dis, r.nonco, r.body)
		} else if b = blocks[s]; b == "" {
			continue
		}
		sb.WriteString("\n" + b + "\n")
	}
	return text[:i] + sb.String() + text[i+end:], nil
}

package sweep

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// awkward are strings sh would split, expand or choke on unquoted.
var awkward = []string{
	"", "plain", "a b", "it's", `"dq"`, "$HOME", "${X:-y}", "`id`", "$(id)",
	`back\slash`, "*", "?", "~", "~root", "x=y", "-n", "a\tb", "!", ";&|<>(){}[]#",
	"é ü", "'", "''", "%a%%", "#hash",
}

// needSh skips the test when there is no sh.
func needSh(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
}

// shellArgs returns the words sh makes of line.
func shellArgs(t *testing.T, line string) []string {
	t.Helper()
	out, err := exec.Command("sh", "-c", `printf '%s\0' `+line).Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v", line, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

func TestShellQuote(t *testing.T) {
	needSh(t)
	words := make([]string, len(awkward))
	for i, s := range awkward {
		words[i] = ShellQuote(s)
	}
	got := shellArgs(t, strings.Join(words, " "))
	if strings.Join(got, "\n") != strings.Join(awkward, "\n") {
		t.Errorf("sh read %q\nfrom %q\nwant %q", got, words, awkward)
	}
	for _, s := range []string{"plain", "/a/b-c_d.toml", "--shard", "1/3"} {
		if q := ShellQuote(s); q != s {
			t.Errorf("ShellQuote(%q) = %q, want it unquoted", s, q)
		}
	}
}

// sbatchValue reads one directive value the way sbatch does (double
// quotes group, a backslash escapes, an unescaped '#' ends the line).
func sbatchValue(s string) string {
	var b strings.Builder
	quoted, escaped := false, false
	for _, r := range s {
		switch {
		case escaped:
			b.WriteRune(r)
			escaped = false
		case r == '\\':
			escaped = true
		case r == '"':
			quoted = !quoted
		case r == '#':
			return b.String()
		case !quoted && (r == ' ' || r == '\t'):
			return b.String()
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSbatchQuote(t *testing.T) {
	for _, s := range awkward {
		if s == "" {
			continue
		}
		if got := sbatchValue(sbatchQuote(s) + " # comment"); got != s {
			t.Errorf("sbatchQuote(%q) = %q, read back as %q", s, sbatchQuote(s), got)
		}
	}
}

func TestEmitCheck(t *testing.T) {
	ok := Emit{Replay: "/bin/replay", Plan: "/p/plan.toml", Out: "/o", Shards: 2, Workers: 1}
	if err := ok.check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		edit func(*Emit)
		want string
	}{
		{func(e *Emit) { e.Shards = 0 }, "0 shards"},
		{func(e *Emit) { e.Workers = -1 }, "-1 workers"},
		{func(e *Emit) { e.Replay = "" }, "no replay command"},
		{func(e *Emit) { e.Replay = "./replay" }, "absolute path or a name in PATH"},
		{func(e *Emit) { e.Plan = "plan.toml" }, `plan "plan.toml": must be an absolute path`},
		{func(e *Emit) { e.Out = "out" }, `results directory "out": must be an absolute path`},
		{func(e *Emit) { e.Out = `/o\x` }, "backslash"},
		{func(e *Emit) { e.Plan = "/p/a\nb" }, "newline"},
		{func(e *Emit) { e.Time = "1:00\n" }, "time"},
		{func(e *Emit) { e.Extra = []string{""} }, "empty"},
		{func(e *Emit) { e.Extra = []string{"--shard=1/2"} }, "--shard"},
		{func(e *Emit) { e.Extra = []string{"--out", "/x"} }, "--out"},
	} {
		e := ok
		c.edit(&e)
		err := e.check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one containing %q", e, err, c.want)
		}
		if _, werr := WriteSlurm(t.TempDir(), e); werr == nil {
			t.Errorf("%+v: WriteSlurm wrote scripts", e)
		}
		if WriteParallel(&bytes.Buffer{}, e) == nil {
			t.Errorf("%+v: WriteParallel wrote lines", e)
		}
	}
	e := ok
	e.Replay = "replay"
	if err := e.check(); err != nil {
		t.Errorf("a command name in PATH: %v", err)
	}
}

func TestWriteSlurm(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "slurm")
	out := t.TempDir()
	e := Emit{
		Replay: "/opt/bin/replay", Plan: "/plans/quick.toml", Out: out,
		Shards: 3, Workers: 2, Time: "01:00:00", Mem: "4G", Account: "proj",
		Extra: []string{"--quiet", "--resume"}, Report: true,
	}
	submit, err := WriteSlurm(dir, e)
	if err != nil {
		t.Fatal(err)
	}
	if submit != filepath.Join(dir, "submit.sh") {
		t.Errorf("submit = %q", submit)
	}
	if fi, err := os.Stat(filepath.Join(out, "slurm")); err != nil || !fi.IsDir() {
		t.Errorf("log directory: %v", err)
	}
	want := map[string][]string{
		"sweep.sbatch": {
			"#!/bin/sh",
			"#SBATCH --job-name=quick",
			"#SBATCH --array=1-3",
			"#SBATCH --cpus-per-task=2",
			"#SBATCH --output=" + out + "/slurm/shard-%a.log",
			"#SBATCH --time=01:00:00",
			"#SBATCH --mem=4G",
			"#SBATCH --account=proj",
			`exec /opt/bin/replay sweep --out ` + out + ` --shard "$SLURM_ARRAY_TASK_ID"/3 -j 2 --resume --quiet /plans/quick.toml`,
		},
		"merge.sbatch": {
			"#SBATCH --job-name=quick-merge",
			"#SBATCH --kill-on-invalid-dep=yes",
			"#SBATCH --cpus-per-task=1",
			"#SBATCH --output=" + out + "/slurm/merge.log",
			"#SBATCH --time=01:00:00",
			"exec /opt/bin/replay sweep --out " + out + " --merge --report --quiet --resume /plans/quick.toml",
		},
		"submit.sh": {
			`if ! shards=$(sbatch --parsable "$@" "$here/sweep.sbatch"); then`,
			`if ! merge=$(sbatch --parsable --dependency="afterok:$shards" "$@" "$here/merge.sbatch"); then`,
		},
	}
	for name, lines := range want {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		have := map[string]bool{}
		for _, l := range strings.Split(string(data), "\n") {
			have[l] = true
		}
		for _, l := range lines {
			if !have[l] {
				t.Errorf("%s: no line %q in\n%s", name, l, data)
			}
		}
		if strings.Contains(string(data), "--partition") {
			t.Errorf("%s: --partition though none was given", name)
		}
		// #SBATCH directives count only before the first command.
		if i, j := strings.LastIndex(string(data), "#SBATCH"), strings.Index(string(data), "\nexec "); i >= 0 && j >= 0 && i > j {
			t.Errorf("%s: a directive after the first command", name)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: mode %v, %v; want 0755", name, fi.Mode(), err)
		}
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*")); len(tmp) > 0 {
		t.Errorf("temporary files left: %q", tmp)
	}
	shCheck(t, dir)
}

// shCheck runs sh -n on the scripts in dir.
func shCheck(t *testing.T, dir string) {
	t.Helper()
	needSh(t)
	for _, name := range []string{"sweep.sbatch", "merge.sbatch", "submit.sh"} {
		if out, err := exec.Command("sh", "-n", filepath.Join(dir, name)).CombinedOutput(); err != nil {
			t.Errorf("sh -n %s: %v\n%s", name, err, out)
		}
	}
}

// fakeBin writes an executable shell script named name into dir.
func fakeBin(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// awkwardEmit returns an Emit whose paths hold spaces, quotes and '$',
// with a fake replay that prints its arguments, one a line.
func awkwardEmit(t *testing.T) Emit {
	root := filepath.Join(t.TempDir(), `we ird'"$x%a#`)
	if err := os.MkdirAll(filepath.Join(root, "bin dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	return Emit{
		Replay:  fakeBin(t, filepath.Join(root, "bin dir"), "re play", `printf '%s\n' "$@"`),
		Plan:    filepath.Join(root, "my plan's.toml"),
		Out:     filepath.Join(root, "out $HOME"),
		Shards:  2,
		Workers: 3,
		Extra:   []string{"--estimates", "it's $(id)"},
	}
}

func TestSlurmScriptsRun(t *testing.T) {
	needSh(t)
	e := awkwardEmit(t)
	dir := filepath.Join(filepath.Dir(e.Out), "scripts dir")
	if _, err := WriteSlurm(dir, e); err != nil {
		t.Fatal(err)
	}
	shCheck(t, dir)
	run := func(env []string, name string, args ...string) string {
		cmd := exec.Command("sh", append([]string{filepath.Join(dir, name)}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		return string(out)
	}
	got := run([]string{"SLURM_ARRAY_TASK_ID=2"}, "sweep.sbatch")
	want := strings.Join([]string{"sweep", "--out", e.Out, "--shard", "2/2", "-j", "3", "--resume", "--estimates", "it's $(id)", e.Plan}, "\n") + "\n"
	if got != want {
		t.Errorf("shard 2 ran replay with\n%s\nwant\n%s", got, want)
	}
	if out, err := exec.Command("sh", filepath.Join(dir, "sweep.sbatch")).CombinedOutput(); err == nil || !strings.Contains(string(out), "run this script with sbatch") {
		t.Errorf("without SLURM_ARRAY_TASK_ID: %v\n%s", err, out)
	}
	got = run(nil, "merge.sbatch")
	want = strings.Join([]string{"sweep", "--out", e.Out, "--merge", "--estimates", "it's $(id)", e.Plan}, "\n") + "\n"
	if got != want {
		t.Errorf("merge ran replay with\n%s\nwant\n%s", got, want)
	}

	// submit.sh with a fake sbatch that logs its arguments.
	bin := t.TempDir()
	fakeBin(t, bin, "sbatch", `n=$(($(cat "$0.n" 2>/dev/null || echo 0) + 1)); echo $n > "$0.n"
printf '%s|' "$@" >> "$0.calls"; echo >> "$0.calls"
echo "10$n;cluster"
`)
	logs := filepath.Join(e.Out, "slurm")
	if err := os.RemoveAll(logs); err != nil {
		t.Fatal(err)
	}
	got = run([]string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}, "submit.sh", "--wait", "-q")
	if got != "shards: job 101\nmerge: job 102\n" {
		t.Errorf("submit.sh printed %q", got)
	}
	if fi, err := os.Stat(logs); err != nil || !fi.IsDir() {
		t.Errorf("submit.sh made no log directory: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(bin, "sbatch.calls"))
	if err != nil {
		t.Fatal(err)
	}
	wantCalls := "--parsable|--wait|-q|" + dir + "/sweep.sbatch|\n" +
		"--parsable|--dependency=afterok:101|--wait|-q|" + dir + "/merge.sbatch|\n"
	if string(data) != wantCalls {
		t.Errorf("sbatch calls:\n%s\nwant\n%s", data, wantCalls)
	}

	// A failing array job: no merge, exit status 1.
	fakeBin(t, bin, "sbatch", "echo 7; exit 3\n")
	cmd := exec.Command("sh", filepath.Join(dir, "submit.sh"))
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "the shards (job 7) failed") {
		t.Errorf("failed shards: %v\n%s", err, out)
	}
}

func TestWriteParallel(t *testing.T) {
	needSh(t)
	e := awkwardEmit(t)
	e.Report = true
	var b bytes.Buffer
	if err := WriteParallel(&b, e); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	var shards []string
	merge := ""
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "# merge: "):
			merge = strings.TrimPrefix(l, "# merge: ")
		case strings.HasPrefix(l, "#"):
		default:
			shards = append(shards, l)
		}
	}
	if len(shards) != e.Shards || merge == "" {
		t.Fatalf("%d shard lines and merge %q in\n%s", len(shards), merge, b.String())
	}
	sh := func(line string) string {
		out, err := exec.Command("sh", "-c", line).CombinedOutput()
		if err != nil {
			t.Fatalf("sh -c %q: %v\n%s", line, err, out)
		}
		return string(out)
	}
	for i, l := range shards {
		got := sh(l)
		want := strings.Join([]string{"sweep", "--out", e.Out, "--shard", string(rune('1'+i)) + "/2", "-j", "3", "--resume", "--estimates", "it's $(id)", e.Plan}, "\n") + "\n"
		if got != want {
			t.Errorf("line %d ran replay with\n%s\nwant\n%s", i+1, got, want)
		}
	}
	// The merge as the doc comment runs it, and every line (comments run
	// as no-ops) as parallel would.
	file := filepath.Join(t.TempDir(), "shards.txt")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got := sh(`sh -c "$(sed -n 's/^# merge: //p' ` + ShellQuote(file) + `)"`)
	want := strings.Join([]string{"sweep", "--out", e.Out, "--merge", "--report", "--estimates", "it's $(id)", e.Plan}, "\n") + "\n"
	if got != want {
		t.Errorf("merge ran replay with\n%s\nwant\n%s", got, want)
	}
	for _, l := range lines {
		sh(l)
	}
}

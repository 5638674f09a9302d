package sweep

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Emit describes the batch scripts of a sharded sweep: Shards runs of
// `replay sweep --shard i/Shards --resume` into one results directory,
// then one `replay sweep --merge`.
type Emit struct {
	Replay    string   // the replay executable: an absolute path, or a name looked up in PATH
	Plan      string   // plan file, absolute path
	Out       string   // results directory, absolute path
	Shards    int      // number of shards (Slurm array tasks), ≥ 1
	Workers   int      // -j within a shard; also its --cpus-per-task
	Time      string   // sbatch --time (e.g. "01:00:00"); "" omits it
	Mem       string   // sbatch --mem (e.g. "4G"); "" omits it
	Partition string   // sbatch --partition; "" omits it
	Account   string   // sbatch --account; "" omits it
	Extra     []string // further replay arguments, for every shard and for the merge (e.g. "--quiet")
	Report    bool     // the merge also writes the report (--report)
}

// File names WriteSlurm writes in its directory.
const (
	SlurmShardsScript = "sweep.sbatch"
	SlurmMergeScript  = "merge.sbatch"
	SlurmSubmitScript = "submit.sh"
)

// SlurmLogDir is where the Slurm jobs' logs go, relative to Emit.Out:
// shard-I.log for array task I, merge.log for the merge.
const SlurmLogDir = "slurm"

// check validates e: the counts, the absolute paths, and no argument a
// script could not hold (a newline, a NUL).
func (e *Emit) check() error {
	if e.Shards < 1 {
		return fmt.Errorf("emit: %d shards: need at least 1", e.Shards)
	}
	if e.Workers < 1 {
		return fmt.Errorf("emit: %d workers (-j): need at least 1", e.Workers)
	}
	fields := []struct{ name, v string }{
		{"replay command", e.Replay}, {"plan", e.Plan}, {"results directory", e.Out},
		{"time", e.Time}, {"mem", e.Mem}, {"partition", e.Partition}, {"account", e.Account},
	}
	for i, x := range e.Extra {
		fields = append(fields, struct{ name, v string }{fmt.Sprintf("extra argument %d", i+1), x})
	}
	for _, f := range fields {
		if strings.ContainsAny(f.v, "\n\r\x00") {
			return fmt.Errorf("emit: %s %q: a newline or NUL cannot go into a batch script", f.name, f.v)
		}
	}
	switch {
	case e.Replay == "":
		return errors.New("emit: no replay command")
	case strings.Contains(e.Replay, "/") && !filepath.IsAbs(e.Replay):
		return fmt.Errorf("emit: replay command %q: must be an absolute path or a name in PATH (batch jobs do not run in this directory)", e.Replay)
	case !filepath.IsAbs(e.Plan):
		return fmt.Errorf("emit: plan %q: must be an absolute path", e.Plan)
	case !filepath.IsAbs(e.Out):
		return fmt.Errorf("emit: results directory %q: must be an absolute path", e.Out)
	case strings.Contains(e.Out, `\`):
		// Slurm expands no %a in a log file name holding a backslash.
		return fmt.Errorf("emit: results directory %q: a backslash would stop Slurm naming the logs per task", e.Out)
	}
	for _, x := range e.Extra {
		if x == "" {
			return errors.New("emit: an extra argument is empty")
		}
		name, _, _ := strings.Cut(x, "=")
		switch name {
		case "--out", "--shard", "--merge", "--list", "--emit":
			return fmt.Errorf("emit: extra argument %q: the scripts set %s themselves", x, name)
		}
	}
	return nil
}

// args returns replay's arguments for one shard (shard is a shell word,
// e.g. "3" or "\"$SLURM_ARRAY_TASK_ID\"") or, with shard == "", for the
// merge, shell-quoted and joined by spaces. Flags come first and the plan
// last, so that they parse whatever the order rules of the command line.
func (e *Emit) args(shard string) string {
	w := []string{ShellQuote(e.Replay), "sweep", "--out", ShellQuote(e.Out)}
	if shard != "" {
		w = append(w, "--shard", shard+"/"+strconv.Itoa(e.Shards), "-j", strconv.Itoa(e.Workers), "--resume")
	} else {
		w = append(w, "--merge")
		if e.Report {
			w = append(w, "--report")
		}
	}
	for _, x := range e.Extra {
		if shard != "" && x == "--resume" {
			continue
		}
		w = append(w, ShellQuote(x))
	}
	return strings.Join(append(w, ShellQuote(e.Plan)), " ")
}

// jobName is the plan's file name without its extension, for squeue.
func (e *Emit) jobName() string {
	base := filepath.Base(e.Plan)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// logPath returns the Slurm --output file name in the log directory,
// with '%' doubled in the directory part (name may hold Slurm patterns).
func (e *Emit) logPath(name string) string {
	dir := filepath.Join(e.Out, SlurmLogDir)
	return strings.ReplaceAll(dir, "%", "%%") + "/" + name
}

// directives returns the #SBATCH lines common to both jobs, after the
// job-specific ones.
func (e *Emit) directives(b *strings.Builder, name, output string, cpus int, more ...string) {
	line := func(opt, v string) { fmt.Fprintf(b, "#SBATCH --%s=%s\n", opt, sbatchQuote(v)) }
	line("job-name", name)
	for i := 0; i+1 < len(more); i += 2 {
		line(more[i], more[i+1])
	}
	line("cpus-per-task", strconv.Itoa(cpus))
	line("output", output)
	for _, o := range []struct{ opt, v string }{
		{"time", e.Time}, {"mem", e.Mem}, {"partition", e.Partition}, {"account", e.Account},
	} {
		if o.v != "" {
			line(o.opt, o.v)
		}
	}
}

// ShardsScript returns sweep.sbatch: an array job whose task I runs shard
// I of the sweep.
func (e *Emit) ShardsScript() string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	e.directives(&b, e.jobName(), e.logPath("shard-%a.log"), e.Workers, "array", "1-"+strconv.Itoa(e.Shards))
	fmt.Fprintf(&b, `# Array task I runs shard I of %d of the sweep, skipping its complete
# cells (--resume), so that a failed or cancelled task can be run again:
# sbatch --array=I %s
: "${SLURM_ARRAY_TASK_ID:?run this script with sbatch (see %s)}"
exec %s
`, e.Shards, SlurmShardsScript, SlurmSubmitScript, e.args(`"$SLURM_ARRAY_TASK_ID"`))
	return b.String()
}

// MergeScript returns merge.sbatch: the job that checks every cell of the
// plan is complete and writes the sweep's manifest (and report).
func (e *Emit) MergeScript() string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	// An unsatisfiable dependency (a shard failed) cancels the merge
	// instead of leaving it pending for ever.
	e.directives(&b, e.jobName()+"-merge", e.logPath("merge.log"), 1, "kill-on-invalid-dep", "yes")
	fmt.Fprintf(&b, `# After every shard: checks that every cell of the plan is complete
# (exit 1 naming the missing ones) and writes the sweep's manifest.
exec %s
`, e.args(""))
	return b.String()
}

// SubmitScript returns submit.sh: it submits the shards, then the merge
// depending on their success, and prints both job ids. Its arguments go
// to both sbatch calls: with --wait, each waits for its job and submit.sh
// fails when a job fails.
func (e *Emit) SubmitScript() string {
	logs := ShellQuote(filepath.Join(e.Out, SlurmLogDir))
	return fmt.Sprintf(`#!/bin/sh
# Submits the %d shards of a sweep as one Slurm array job, then its merge,
# which runs when every shard has succeeded; prints both job ids.
# Arguments go to both sbatch calls (e.g. --wait, to return when each job
# has ended, with its exit status).
#   plan: %s
#   logs: %s
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p %s
if ! shards=$(sbatch --parsable "$@" "$here/%s"); then
	echo "submit.sh: the shards${shards:+ (job ${shards%%%%;*})} failed; logs: "%s >&2
	exit 1
fi
shards=${shards%%%%;*}
echo "shards: job $shards"
if ! merge=$(sbatch --parsable --dependency="afterok:$shards" "$@" "$here/%s"); then
	echo "submit.sh: the merge${merge:+ (job ${merge%%%%;*})} failed; log: "%s/merge.log >&2
	exit 1
fi
echo "merge: job ${merge%%%%;*}"
`, e.Shards, e.Plan, filepath.Join(e.Out, SlurmLogDir), logs,
		SlurmShardsScript, logs, SlurmMergeScript, logs)
}

// WriteSlurm writes the sweep's Slurm scripts into dir (created if need
// be): sweep.sbatch, merge.sbatch and submit.sh, each written to a
// temporary file and renamed into place, executable. It returns
// submit.sh's path. Slurm's MaxArraySize (1001 by default) bounds
// e.Shards.
func WriteSlurm(dir string, e Emit) (submit string, err error) {
	if err := e.check(); err != nil {
		return "", err
	}
	// The jobs' logs go there: Slurm fails a job whose log it cannot open.
	for _, d := range []string{dir, filepath.Join(e.Out, SlurmLogDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", fmt.Errorf("emit: %w", err)
		}
	}
	for _, f := range []struct{ name, text string }{
		{SlurmShardsScript, e.ShardsScript()},
		{SlurmMergeScript, e.MergeScript()},
		{SlurmSubmitScript, e.SubmitScript()},
	} {
		if err := writeScript(filepath.Join(dir, f.name), f.text); err != nil {
			return "", fmt.Errorf("emit: %w", err)
		}
	}
	return filepath.Join(dir, SlurmSubmitScript), nil
}

// writeScript writes text to path through a temporary file in the same
// directory, renamed into place, with mode 0755.
func writeScript(path, text string) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if err == nil {
		err = f.Chmod(0o755)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// WriteParallel writes the sweep as GNU parallel input: a header of
// comments, one line per shard (the whole replay command), then a comment
// holding the merge command. The comment lines run as no-op commands. Run
// the shards, K at a time, then the merge:
//
//	parallel -j K < FILE && sh -c "$(sed -n 's/^# merge: //p' FILE)"
//
// K × e.Workers should not exceed the machine's cores.
func WriteParallel(w io.Writer, e Emit) error {
	if err := e.check(); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# The %d shards of the sweep %s, one command a line, for GNU parallel;\n", e.Shards, e.Plan)
	b.WriteString(`# then the merge below: parallel -j K < FILE && sh -c "$(sed -n 's/^# merge: //p' FILE)"` + "\n")
	for i := 1; i <= e.Shards; i++ {
		b.WriteString(e.args(strconv.Itoa(i)) + "\n")
	}
	b.WriteString("# merge: " + e.args("") + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// ShellQuote returns s as one sh word: unchanged when it holds only
// characters sh never treats specially, else in single quotes (where a
// single quote ends them, is escaped with a backslash and opens them again).
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, shellSpecial) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellSpecial reports whether r may need quoting in an sh word ('=' too:
// NAME=value as a command's first word is an assignment).
func shellSpecial(r rune) bool {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		return false
	}
	return !strings.ContainsRune("@%+:,./_-", r)
}

// sbatchQuote returns s as one value of an #SBATCH directive, which sbatch
// parses itself (no shell): double quotes group, a backslash escapes the
// next character, and an unescaped '#' starts a comment.
func sbatchQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\"'\\#") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `#`, `\#`)
	return `"` + r.Replace(s) + `"`
}

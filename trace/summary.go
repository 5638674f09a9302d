package trace

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strings"
	"text/tabwriter"
)

var machineRE = regexp.MustCompile(`^(flat:[1-9][0-9]*|mesh:[1-9][0-9]*x[1-9][0-9]*|cube:[0-9]+)$`)

// CheckMachine reports whether hint is a well-formed machine hint
// ("flat:N", "mesh:WxH", "cube:n").
func CheckMachine(hint string) error {
	if !machineRE.MatchString(hint) {
		return fmt.Errorf("machine %q: want flat:N, mesh:WxH or cube:n", hint)
	}
	return nil
}

// Where a trace's machine came from (Provenance.MachineFrom).
const (
	MachineHeader   = "header"   // the header's MaxProcs, else MaxNodes
	MachineInferred = "inferred" // no header size: flat with the largest job
	MachineGiven    = "given"    // given by the user (--machine)
)

// DefaultMachine is the machine hint a converted log gets when none is
// given: flat with the header's MaxProcs (else MaxNodes), else flat with the
// largest processor count any job used; "" when nothing is known.
func (t *Trace) DefaultMachine() string {
	m, _ := t.GuessMachine()
	return m
}

// GuessMachine returns DefaultMachine and where it comes from:
// MachineHeader, or MachineInferred when the header has no size and the
// largest job's processor count (a lower bound of the machine's) is used.
func (t *Trace) GuessMachine() (hint, from string) {
	if n := t.MaxProcs(); n > 0 {
		return fmt.Sprintf("flat:%d", n), MachineHeader
	}
	var m int64
	for i := range t.Jobs {
		m = max(m, t.Jobs[i].Procs())
	}
	if m > 0 {
		return fmt.Sprintf("flat:%d", m), MachineInferred
	}
	return "", ""
}

// InferredWarning is the warning given when a log's machine is inferred.
func InferredWarning(file, hint string) string {
	return fmt.Sprintf("%s: no MaxProcs or MaxNodes in the header: machine inferred as %s from the largest job (a lower bound; give the real size with --machine)", file, hint)
}

// Summary is a one-line description of a trace.
type Summary struct {
	Jobs      int
	Partial   int     // records the archive marks partial
	First     float64 // earliest submit time
	Last      float64 // latest submit time
	MaxProcs  int64   // largest processor count of any job
	HeaderMax int64   // MaxProcs from the header, or Unknown
	Machine   string
}

// Summarize computes t's summary.
func Summarize(t *Trace) Summary {
	s := Summary{Jobs: len(t.Jobs), HeaderMax: t.MaxProcs(), Machine: t.Machine}
	if len(t.Jobs) > 0 {
		s.First, s.Last = t.Jobs[0].Submit, t.Jobs[len(t.Jobs)-1].Submit
	}
	for i := range t.Jobs {
		s.MaxProcs = max(s.MaxProcs, t.Jobs[i].Procs())
		if t.Jobs[i].Partial() {
			s.Partial++
		}
	}
	return s
}

func (s Summary) String() string {
	m := s.Machine
	if m == "" {
		m = "unknown"
	}
	return fmt.Sprintf("%d jobs (%d partial), submit %s to %s (span %s), max procs %d (header MaxProcs %d), machine %s",
		s.Jobs, s.Partial, num(s.First), num(s.Last), num(s.Last-s.First), s.MaxProcs, s.HeaderMax, m)
}

func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%.4g", v)
}

// Inspect writes a short text description of t: header, provenance,
// summary, and the distributions of job size and run time.
func Inspect(w io.Writer, t *Trace) error {
	fmt.Fprintf(w, "trace      %s\n", t.Name)
	fmt.Fprintf(w, "summary    %s\n", Summarize(t))
	p := t.Provenance
	fmt.Fprintf(w, "provenance source=%s generator=%s seed=%d load=%s rep=%d\n", p.Source, p.Generator, p.Seed, num(p.Load), p.Rep)
	if p.SHA256 != "" {
		fmt.Fprintf(w, "  sha256   %s\n", p.SHA256)
	}
	if t.InputSHA256 != "" && t.InputSHA256 != p.SHA256 {
		fmt.Fprintf(w, "  input    %s sha256 %s\n", t.Path, t.InputSHA256)
	}
	if p.MachineFrom != "" {
		fmt.Fprintf(w, "  machine  %s (%s)\n", t.Machine, p.MachineFrom)
	}
	for _, k := range p.ParamKeys() {
		fmt.Fprintf(w, "  param    %s=%s\n", k, p.Params[k])
	}
	for _, msg := range t.Warnings {
		fmt.Fprintf(w, "warning    %s\n", msg)
	}
	for _, c := range t.Extra {
		known := 0
		for _, v := range c.Values {
			if v != Unknown {
				known++
			}
		}
		fmt.Fprintf(w, "extra      field %d: column %s, %d of %d values known\n", c.Field, c.Name, known, len(c.Values))
	}
	if len(t.Header) > 0 {
		fmt.Fprintln(w, "header")
		for _, h := range t.Header {
			if h.Key != "" {
				fmt.Fprintf(w, "  %s: %s\n", h.Key, h.Value)
			} else if strings.TrimSpace(h.Value) != "" {
				fmt.Fprintf(w, "  %s\n", strings.TrimSpace(h.Value))
			}
		}
	}
	var sizes, runs, ests []float64
	unknownProcs, unknownRun, unknownEst := 0, 0, 0
	for i := range t.Jobs {
		j := &t.Jobs[i]
		if n := j.Procs(); n > 0 {
			sizes = append(sizes, float64(n))
		} else {
			unknownProcs++
		}
		if j.Run >= 0 {
			runs = append(runs, j.Run)
		} else {
			unknownRun++
		}
		if j.ReqTime > 0 {
			ests = append(ests, j.ReqTime)
		} else {
			unknownEst++
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "quantity\tknown\tunknown\tmin\tp25\tmedian\tmean\tp75\tp95\tmax\t")
	dist(tw, "processors", sizes, unknownProcs)
	dist(tw, "run time", runs, unknownRun)
	dist(tw, "requested time", ests, unknownEst)
	tw.Flush()
	if len(sizes) > 0 {
		fmt.Fprintln(w, "processors by power-of-two class (count, share):")
		classes := map[int]int{}
		for _, s := range sizes {
			classes[int(math.Ceil(math.Log2(s)))]++
		}
		keys := make([]int, 0, len(classes))
		for k := range classes {
			keys = append(keys, k)
		}
		sort.Ints(keys)
		for _, k := range keys {
			lo := 1
			if k > 0 {
				lo = 1<<(k-1) + 1
			}
			fmt.Fprintf(w, "  %5d-%-5d %7d %5.1f%%\n", lo, 1<<k, classes[k], 100*float64(classes[k])/float64(len(sizes)))
		}
	}
	return nil
}

func dist(w io.Writer, name string, v []float64, unknown int) {
	if len(v) == 0 {
		fmt.Fprintf(w, "%s\t0\t%d\t-\t-\t-\t-\t-\t-\t-\t\n", name, unknown)
		return
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	q := func(p float64) float64 { return s[int(math.Round(p*float64(len(s)-1)))] }
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	fmt.Fprintf(w, "%s\t%d\t%d\t%s\t%s\t%s\t%.4g\t%s\t%s\t%s\t\n", name, len(s), unknown,
		num(s[0]), num(q(.25)), num(q(.5)), sum/float64(len(s)), num(q(.75)), num(q(.95)), num(s[len(s)-1]))
}

// ConvertOptions control Convert.
type ConvertOptions struct {
	Machine string // machine hint to record; "" keeps the input's, else DefaultMachine
	Strict  bool   // refuse out-of-order submit times
}

// Convert reads in and writes out, each in the format its extension names
// (.swf, .swf.gz, .parquet), recording the machine hint and the source in
// the provenance. Nothing is written when reading fails, and the output is
// written atomically, after removing its stale temporary files (as
// WriteFile).
func Convert(in, out string, opt ConvertOptions) (*Trace, error) {
	if FormatOf(out) == FormatUnknown {
		return nil, fmt.Errorf("%s: unknown output format (want .swf, .swf.gz or .parquet)", out)
	}
	if opt.Machine != "" {
		if err := CheckMachine(opt.Machine); err != nil {
			return nil, err
		}
	}
	in0, out0 := FormatOf(in), FormatOf(out)
	if (in0 == FormatSWF || in0 == FormatSWFGzip) && out0 == FormatParquet {
		return convertStreaming(in, out, opt)
	}
	t, err := ReadFile(in, ReadOptions{Strict: opt.Strict})
	if err != nil {
		return nil, err
	}
	setConvertedMachine(t, opt)
	if err := WriteFile(out, t); err != nil {
		return nil, err
	}
	return t, nil
}

// setConvertedMachine records the machine hint of a converted trace and
// where it came from (Provenance.MachineFrom), with a warning when it is
// inferred from the jobs.
func setConvertedMachine(t *Trace, opt ConvertOptions) {
	switch {
	case opt.Machine != "":
		t.Machine = opt.Machine
		t.Provenance.MachineFrom = MachineGiven
	case t.Machine == "":
		var from string
		t.Machine, from = t.GuessMachine()
		if t.Machine != "" {
			t.Provenance.MachineFrom = from
		}
		if from == MachineInferred {
			t.Warnings = append(t.Warnings, InferredWarning(t.Path, t.Machine))
		}
	}
	if t.Provenance.Generator == "swf" {
		t.Provenance.Params = map[string]string{"machine": t.Machine}
	}
}

// convertStreaming converts an SWF log to Parquet, encoding and compressing
// rows in a second goroutine while the log is still being decompressed and
// parsed. The rows go to memory first: if the log turns out to need sorting
// (or is invalid) they are thrown away, and nothing is written. The bytes are
// those WriteParquet writes for the same trace.
func convertStreaming(in, out string, opt ConvertOptions) (*Trace, error) {
	r, closeAll, err := openSWF(in)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	sum := hashFile(in)
	var buf bytes.Buffer
	sink := &writerSink{jw: newJobWriter(&buf), ch: make(chan []Job, 4), done: make(chan error, 1)}
	go sink.run()
	t, err := readSWF(r, in, ReadOptions{Strict: opt.Strict}, sink)
	if err != nil {
		return nil, err
	}
	if err := sum.record(t); err != nil {
		return nil, err
	}
	setConvertedMachine(t, opt)
	if sink.err != nil || t.resorted || len(t.Extra) > 0 {
		// The rows streamed were in file order and the trace was re-sorted, or
		// the log is an extended SWF whose extra columns the streamed file
		// lacks.
		if err := WriteFile(out, t); err != nil {
			return nil, err
		}
		return t, nil
	}
	if err := sink.jw.finish(t); err != nil {
		return nil, err
	}
	if err := writeAtomic(out, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
		return nil, err
	}
	return t, nil
}

// writerSink writes the chunks it receives as Parquet rows.
type writerSink struct {
	jw   *jobWriter
	ch   chan []Job
	done chan error
	err  error // the writer's error, valid after drain
}

// run writes the chunks as rows. The writer's bytes do not depend on how
// rows are split between calls, so they are those WriteParquet writes.
func (s *writerSink) run() {
	var err error
	for jobs := range s.ch {
		if err == nil {
			err = s.jw.write(jobs)
		}
	}
	s.done <- err
}

func (s *writerSink) chunk(jobs []Job) { s.ch <- jobs }

func (s *writerSink) drain() {
	close(s.ch)
	s.err = <-s.done
}

package plot

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	goplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// The labels of one axis share one format: all plain, or all with an
// exponent.
func TestTickLabelsConsistent(t *testing.T) {
	labels := func(ts []goplot.Tick) []string {
		var out []string
		for _, tk := range ts {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	for _, c := range []struct {
		name     string
		ts       []goplot.Tick
		exponent bool
	}{
		{"linear to 1.2e6", Ticks{}.Ticks(0, 1.2e6), true},
		{"linear to 900", Ticks{}.Ticks(0, 900), false},
		{"log 0.5 to 2e6", LogTicks{}.Ticks(0.5, 2e6), true},
		{"log 0.01 to 5000", LogTicks{}.Ticks(0.01, 5000), false},
	} {
		ls := labels(c.ts)
		if len(ls) < 2 {
			t.Fatalf("%s: labels %v", c.name, ls)
		}
		for _, l := range ls {
			if l != "0" && strings.Contains(l, "e") != c.exponent {
				t.Errorf("%s: labels %v mix formats", c.name, ls)
				break
			}
		}
	}
	// Two decades get 2 and 5 times each power too.
	if ls := labels(LogTicks{}.Ticks(1, 100)); strings.Join(ls, " ") != "1 2 5 10 20 50 100" {
		t.Errorf("log 1 to 100: %v", ls)
	}
	if got := Exp(9.9999999e5); got != "1e6" {
		t.Errorf("Exp rounding: %q", got)
	}
}

// Hatch lines stay inside their bar.
func TestHatchLinesInside(t *testing.T) {
	r := vg.Rectangle{Min: vg.Point{X: 10, Y: 5}, Max: vg.Point{X: 31, Y: 60}}
	for _, h := range Hatches {
		segs := hatchLines(r, h, 3.5)
		if h == NoHatch && len(segs) > 0 || h != NoHatch && len(segs) < 3 {
			t.Fatalf("hatch %d: %d segments", h, len(segs))
		}
		for _, s := range segs {
			for _, p := range s {
				if p.X < r.Min.X-1e-6 || p.X > r.Max.X+1e-6 || p.Y < r.Min.Y-1e-6 || p.Y > r.Max.Y+1e-6 {
					t.Fatalf("hatch %d: point %v outside %v", h, p, r)
				}
			}
		}
	}
	// The first styles differ in colour, marker and hatch.
	for i := range MaxCurves {
		for j := range i {
			a, b := StyleOf(i), StyleOf(j)
			if a.Color == b.Color || a.Shape == b.Shape || a.Hatch == b.Hatch {
				t.Errorf("styles %d and %d alike", i, j)
			}
		}
	}
}

// A NaN ends a step line: a run that has ended is not drawn as 0.
func TestStepSegmentsGap(t *testing.T) {
	segs, marks := stepSegments([]float64{0, 1, 2, 3, 4, 5}, []float64{1, 2, math.NaN(), 3, 4, math.NaN()})
	if len(segs) != 2 {
		t.Fatalf("%d segments", len(segs))
	}
	// The first holds 2 from 1 to 2 and stops; the second 4 from 4 to 5.
	if last := segs[0][len(segs[0])-1]; last.X != 2 || last.Y != 2 {
		t.Errorf("first segment ends at %v", last)
	}
	if last := segs[1][len(segs[1])-1]; last.X != 5 || last.Y != 4 {
		t.Errorf("second segment ends at %v", last)
	}
	for _, m := range marks {
		if math.IsNaN(m.Y) {
			t.Error("marker on a gap")
		}
	}
}

// SaveAs writes the paper sizes without the title and note, then restores
// the figure.
func TestSaveAsPaperSize(t *testing.T) {
	p := New("A title", "x", "y")
	f := &Figure{Name: "f", Plot: p, Note: "a note", Legend: []Entry{{Label: "a / b", Style: StyleOf(0)}}}
	Curve(p, "a / b", StyleOf(0), []float64{1, 2}, []float64{3, 4}, nil, 0)
	path := filepath.Join(t.TempDir(), "f-col.pdf")
	if err := f.SaveAs(path, ColumnSize); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !bytes.Contains(b, []byte("/MediaBox [0 0 252.00 187.20]")) || !bytes.Contains(b, []byte("/FontFile2")) {
		t.Errorf("column PDF: size or embedded fonts wrong")
	}
	svg := filepath.Join(t.TempDir(), "f-page.svg")
	if err := f.SaveAs(svg, PageSize); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(svg); bytes.Contains(b, []byte("A title")) || bytes.Contains(b, []byte("a note")) || !bytes.Contains(b, []byte("a / b")) || !bytes.Contains(b, []byte(`width="504pt"`)) {
		t.Errorf("page-width SVG: title or note drawn, legend missing, or not 7 in wide:\n%.400s", b)
	}
	if p.Title.Text != "A title" || f.Note != "a note" || p.X.Tick.Label.Font.Size != 9 || f.legendSize != 0 {
		t.Error("figure not restored after SaveAs")
	}
	if c := f.Caption(); c != "A title. a note" {
		t.Errorf("caption %q", c)
	}
}

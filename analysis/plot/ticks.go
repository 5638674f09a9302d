package plot

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
)

// Ticks places labelled ticks at a "nice" step (1, 2, 2.5 or 5 × 10^k)
// chosen to give about TargetLabels labels over the axis range, with
// unlabelled minor ticks between them, and compact labels: up to six
// significant digits, exponents written as "7.5e6" rather than
// "7500000.00". (gonum's DefaultTicks aims at three labels, too sparse
// for a full-page figure: a utilization axis got only 0.3, 0.6, 0.9.)
type Ticks struct{}

// TargetLabels is the number of labelled ticks Ticks aims at.
const TargetLabels = 8

// Ticks implements plot.Ticker.
func (Ticks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(min, 0) || math.IsInf(max, 0) {
		return relabel(plot.DefaultTicks{}.Ticks(min, max))
	}
	raw := (max - min) / TargetLabels
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	var step, minor float64
	for _, m := range []struct{ step, minors float64 }{{1, 5}, {2, 4}, {2.5, 5}, {5, 5}, {10, 5}} {
		if m.step*mag >= raw*(1-1e-9) {
			step, minor = m.step*mag, m.step*mag/m.minors
			break
		}
	}
	eps := 1e-9 * step
	lo := math.Ceil((min-eps)/step) * step
	var ts []plot.Tick
	for k := 0; ; k++ {
		v := lo + float64(k)*step
		if v > max+eps {
			break
		}
		if math.Abs(v) < eps {
			v = 0
		}
		ts = append(ts, plot.Tick{Value: v, Label: Compact(v)})
	}
	if len(ts) < 2 {
		return relabel(plot.DefaultTicks{}.Ticks(min, max))
	}
	ts = relabel(ts)
	// Minor ticks between and around the labelled ones.
	for v := math.Ceil((min-eps)/minor) * minor; v <= max+eps; v += minor {
		if r := math.Mod(math.Abs(v-lo), step); r < minor/2 || step-r < minor/2 {
			continue
		}
		ts = append(ts, plot.Tick{Value: v})
	}
	return ts
}

// relabel labels the labelled ticks consistently: Compact numbers, or,
// when any of them needs an exponent, every nonzero one with an exponent
// ("2e5", "4e5", …, "1e6" rather than "200000", …, "1e6").
func relabel(ts []plot.Tick) []plot.Tick {
	exp := false
	for _, t := range ts {
		if t.Label != "" && strings.Contains(Compact(t.Value), "e") {
			exp = true
		}
	}
	for i := range ts {
		if ts[i].Label == "" {
			continue
		}
		ts[i].Label = Compact(ts[i].Value)
		if exp && ts[i].Value != 0 {
			ts[i].Label = Exp(ts[i].Value)
		}
	}
	return ts
}

// Exp formats v as mantissa and exponent: "2.5e5", "1e6", "3e-4".
func Exp(v float64) string {
	if v == 0 {
		return "0"
	}
	e := math.Floor(math.Log10(math.Abs(v)))
	m := v / math.Pow(10, e)
	if math.Abs(m) >= 9.9999995 { // rounding: 9.9999999e5 is 1e6
		m /= 10
		e++
	}
	return strconv.FormatFloat(m, 'g', 4, 64) + "e" + strconv.Itoa(int(e))
}

// LogTicks labels the powers of ten of a log axis (and 2 and 5 times them
// when the axis spans fewer than three decades), with unlabelled minor
// ticks at 2..9 times each power, and formats every label alike: plain
// numbers from 0.001 to 10000, else all with exponents ("1e2", …, "1e6").
type LogTicks struct{}

// Ticks implements plot.Ticker.
func (LogTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) || math.IsInf(max, 0) {
		return plot.LogTicks{Prec: -1}.Ticks(math.Max(min, 1e-300), math.Max(max, 1))
	}
	lo, hi := int(math.Floor(math.Log10(min))), int(math.Ceil(math.Log10(max)))
	few := hi-lo <= 3
	var ts []plot.Tick
	for e := lo; e <= hi; e++ {
		p := math.Pow(10, float64(e))
		for m := 1; m <= 9; m++ {
			v := float64(m) * p
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || few && (m == 2 || m == 5) {
				t.Label = "x"
			}
			ts = append(ts, t)
		}
	}
	exp := false
	for _, t := range ts {
		if t.Label != "" && (t.Value >= 1e5*(1-1e-9) || t.Value < 1e-3*(1-1e-9)) {
			exp = true
		}
	}
	labelled := 0
	for i := range ts {
		if ts[i].Label == "" {
			continue
		}
		labelled++
		ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 6, 64)
		if exp {
			ts[i].Label = Exp(ts[i].Value)
		}
	}
	if labelled < 2 { // less than a decade: linear-style labels
		return relabel(Ticks{}.Ticks(min, max))
	}
	return ts
}

// Compact formats v with at most six significant digits and a short
// exponent when needed ("0.3", "2500", "7.5e6", "1e-4").
func Compact(v float64) string {
	if v == 0 || math.Abs(v) < 1e-12*math.Max(1, math.Abs(v)) {
		return "0"
	}
	s := strconv.FormatFloat(v, 'g', 6, 64)
	if a := math.Abs(v); a >= 1e6 || a < 1e-4 {
		s = strconv.FormatFloat(v, 'e', -1, 64)
		if m, e, ok := strings.Cut(s, "e"); ok {
			if len(m) > 6 {
				m = strconv.FormatFloat(v/math.Pow(10, math.Floor(math.Log10(math.Abs(v)))), 'g', 4, 64)
			}
			e = strings.TrimPrefix(e, "+")
			neg := strings.HasPrefix(e, "-")
			e = strings.TrimLeft(strings.TrimPrefix(e, "-"), "0")
			if neg {
				e = "-" + e
			}
			s = m + "e" + e
		}
	}
	return s
}

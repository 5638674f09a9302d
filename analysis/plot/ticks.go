package plot

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
)

// Ticks is gonum's default tick placement with compact labels: up to six
// significant digits, exponents written as "7.5e6" rather than
// "7500000.00".
type Ticks struct{}

// Ticks implements plot.Ticker.
func (Ticks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = Compact(ts[i].Value)
		}
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

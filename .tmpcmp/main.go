package main

import (
	"fmt"
	"math"
	"os"
	"reflect"

	"github.com/schedlab/schedlab/analysis/results"
)

func main() {
	a, err := results.Load(os.Args[1])
	if err != nil {
		panic(err)
	}
	b, err := results.Load(os.Args[2])
	if err != nil {
		panic(err)
	}
	fmt.Println(len(a.Summary), len(b.Summary), len(a.Jobs), len(b.Jobs), string(a.Options) == string(b.Options))
	for i := range a.Summary {
		x, y := a.Summary[i], b.Summary[i]
		vx, vy := reflect.ValueOf(x), reflect.ValueOf(y)
		for f := 0; f < vx.NumField(); f++ {
			n := vx.Type().Field(f).Name
			if n == "Comm" || n == "SizeClasses" {
				continue
			}
			p, q := fmt.Sprint(vx.Field(f).Interface()), fmt.Sprint(vy.Field(f).Interface())
			if p != q {
				if fx, ok := vx.Field(f).Interface().(float64); ok && math.IsNaN(fx) && math.IsNaN(vy.Field(f).Interface().(float64)) {
					continue
				}
				fmt.Println("diff", i, n, p, q)
			}
		}
		if i == 0 {
			fmt.Printf("comm %q -> %q, dispersion %v -> %v\n", x.Comm, y.Comm, x.Dispersion, y.Dispersion)
		}
	}
	for i := range a.Jobs {
		x, y := a.Jobs[i], b.Jobs[i]
		y.Comm = x.Comm
		if !reflect.DeepEqual(x, y) {
			fmt.Println("job diff", i)
			break
		}
	}
}

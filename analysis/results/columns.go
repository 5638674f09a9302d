package results

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unsafe"

	"github.com/parquet-go/parquet-go"

	"github.com/schedlab/schedlab/model/schema"
)

// readColumns reads every row of f into out (room for exactly f.NumRows()
// rows) column by column, page by page: each field of T tagged
// `parquet:"name"` from the column of that name (absent optional columns
// leave the zero value, as the row reader did), strings interned (the
// dictionary columns repeat a few values over millions of rows), and a
// []schema.Piece field from its list's leaf columns, one backing array per
// row group. It costs a fraction of the time and memory of reconstructing
// rows, and gives the same rows.
func readColumns[T any](f *parquet.File, out []T) error {
	rt := reflect.TypeFor[T]()
	sch := f.Schema()
	intern := map[string]string{}
	buf := make([]parquet.Value, 4096)
	base := 0
	for _, rg := range f.RowGroups() {
		n := int(rg.NumRows())
		if base+n > len(out) {
			return fmt.Errorf("more rows than the footer counts")
		}
		rows := reflect.ValueOf(out[base : base+n])
		var zero T
		size := unsafe.Sizeof(zero)
		var p0 unsafe.Pointer
		if n > 0 {
			p0 = unsafe.Pointer(&out[base])
		}
		chunks := rg.ColumnChunks()
		for fi := range rt.NumField() {
			sf := rt.Field(fi)
			name, _, _ := strings.Cut(sf.Tag.Get("parquet"), ",")
			if name == "" || name == "-" {
				continue
			}
			if sf.Type == reflect.TypeFor[[]schema.Piece]() {
				if err := readPieces(sch, chunks, name, rows, fi, buf); err != nil {
					return fmt.Errorf("column %q: %w", name, err)
				}
				continue
			}
			leaf, ok := sch.Lookup(name)
			if !ok {
				continue
			}
			kind := sf.Type.Kind()
			if kind != reflect.String && kind != reflect.Int64 && kind != reflect.Float64 {
				return fmt.Errorf("field %s: unsupported type %s", sf.Name, sf.Type)
			}
			row := 0
			null, nullable := schema.NullValueOf(zero, name)
			err := eachValue(chunks[leaf.ColumnIndex], buf, func(v parquet.Value) error {
				if row >= n {
					return fmt.Errorf("more values than rows")
				}
				fp := unsafe.Add(p0, uintptr(row)*size+sf.Offset)
				row++
				if v.IsNull() {
					if nullable {
						setNull(fp, kind, null)
					}
					return nil
				}
				switch kind {
				case reflect.String:
					b := v.ByteArray()
					s, ok := intern[string(b)]
					if !ok {
						s = string(b)
						if len(intern) < 1<<16 {
							intern[s] = s
						}
					}
					*(*string)(fp) = s
				case reflect.Int64:
					if v.Kind() == parquet.Int32 {
						*(*int64)(fp) = int64(v.Int32())
					} else {
						*(*int64)(fp) = v.Int64()
					}
				case reflect.Float64:
					if v.Kind() == parquet.Float {
						*(*float64)(fp) = float64(v.Float())
					} else {
						*(*float64)(fp) = v.Double()
					}
				}
				return nil
			})
			if err != nil {
				return fmt.Errorf("column %q: %w", name, err)
			}
			if row != n {
				return fmt.Errorf("column %q: %d values for %d rows", name, row, n)
			}
		}
		base += n
	}
	if base != len(out) {
		return fmt.Errorf("%d rows read, the footer counts %d", base, len(out))
	}
	return nil
}

// setNull stores at fp, a field of kind k, the value in memory of a NULL
// in its nullable column.
func setNull(fp unsafe.Pointer, k reflect.Kind, null float64) {
	switch k {
	case reflect.Int64:
		*(*int64)(fp) = int64(null)
	case reflect.Float64:
		*(*float64)(fp) = null
	}
}

// fillNulls sets, in out (the rows of f, read by parquet-go's row reader,
// which reads a NULL as a zero), the value in memory of every NULL of a
// nullable column.
func fillNulls[T any](f *parquet.File, out []T) error {
	var zero T
	rt := reflect.TypeFor[T]()
	sch := f.Schema()
	buf := make([]parquet.Value, 4096)
	for fi := range rt.NumField() {
		sf := rt.Field(fi)
		name, _, _ := strings.Cut(sf.Tag.Get("parquet"), ",")
		null, nullable := schema.NullValueOf(zero, name)
		leaf, ok := sch.Lookup(name)
		if !nullable || !ok || leaf.Node.Required() {
			continue
		}
		base := 0
		for _, rg := range f.RowGroups() {
			row := base
			err := eachValue(rg.ColumnChunks()[leaf.ColumnIndex], buf, func(v parquet.Value) error {
				if row >= len(out) {
					return fmt.Errorf("more values than rows")
				}
				if v.IsNull() {
					setNull(unsafe.Add(unsafe.Pointer(&out[row]), sf.Offset), sf.Type.Kind(), null)
				}
				row++
				return nil
			})
			if err != nil {
				return fmt.Errorf("column %q: %w", name, err)
			}
			base += int(rg.NumRows())
		}
	}
	return nil
}

// columnar reports whether readColumns can read every field of T.
func columnar[T any]() bool {
	rt := reflect.TypeFor[T]()
	for i := range rt.NumField() {
		switch t := rt.Field(i).Type; t.Kind() {
		case reflect.String, reflect.Int64, reflect.Float64:
		default:
			if t != reflect.TypeFor[[]schema.Piece]() {
				return false
			}
		}
	}
	return true
}

// eachValue calls fn with every value of a column chunk, in order.
func eachValue(cc parquet.ColumnChunk, buf []parquet.Value, fn func(parquet.Value) error) error {
	pages := cc.Pages()
	defer pages.Close()
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		vr := p.Values()
		for {
			m, err := vr.ReadValues(buf)
			for _, v := range buf[:m] {
				if err := fn(v); err != nil {
					parquet.Release(p)
					return err
				}
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				parquet.Release(p)
				return err
			}
		}
		parquet.Release(p)
	}
}

// readPieces reads the list column name (list<struct<x, y, w, h, mask>>)
// into field fi of rows: a row starts at repetition level 0, and holds a
// piece for each value defined down to the element.
func readPieces(sch *parquet.Schema, chunks []parquet.ColumnChunk, name string, rows reflect.Value, fi int, buf []parquet.Value) error {
	pt := reflect.TypeFor[schema.Piece]()
	if pt.NumField() != 5 {
		panic("results: schema.Piece changed: update readPieces")
	}
	var leaves []parquet.LeafColumn
	for _, path := range sch.Columns() {
		if len(path) > 1 && path[0] == name {
			if l, ok := sch.Lookup(path...); ok {
				leaves = append(leaves, l)
			}
		}
	}
	if len(leaves) == 0 {
		return nil // absent (optional)
	}
	n := rows.Len()
	var pieces []schema.Piece
	var first []int // index of each row's first piece
	for k := range pt.NumField() {
		tag, _, _ := strings.Cut(pt.Field(k).Tag.Get("parquet"), ",")
		var leaf *parquet.LeafColumn
		for i := range leaves {
			if leaves[i].Path[len(leaves[i].Path)-1] == tag {
				leaf = &leaves[i]
			}
		}
		if leaf == nil {
			return fmt.Errorf("no leaf %q", tag)
		}
		row, at := -1, 0
		fill := k == 0
		err := eachValue(chunks[leaf.ColumnIndex], buf, func(v parquet.Value) error {
			if v.RepetitionLevel() == 0 {
				row++
				if row >= n {
					return fmt.Errorf("more rows than the row group")
				}
				if fill {
					first = append(first, len(pieces))
				}
			}
			if v.DefinitionLevel() < leaf.MaxDefinitionLevel {
				return nil // an empty list
			}
			if fill {
				pieces = append(pieces, schema.Piece{})
			}
			if at >= len(pieces) {
				return fmt.Errorf("leaf %q: more pieces than leaf x", tag)
			}
			var x int32
			if v.Kind() == parquet.Int64 {
				x = int32(v.Int64())
			} else {
				x = v.Int32()
			}
			pc := &pieces[at]
			switch k {
			case 0:
				pc.X = x
			case 1:
				pc.Y = x
			case 2:
				pc.W = x
			case 3:
				pc.H = x
			case 4:
				pc.Mask = x
			}
			at++
			return nil
		})
		if err != nil {
			return err
		}
		if row != n-1 || at != len(pieces) {
			return fmt.Errorf("leaf %q: %d rows and %d pieces, want %d and %d", tag, row+1, at, n, len(pieces))
		}
	}
	for r := range n {
		a, b := first[r], len(pieces)
		if r+1 < n {
			b = first[r+1]
		}
		if b > a {
			rows.Index(r).Field(fi).Set(reflect.ValueOf(pieces[a:b:b]))
		}
	}
	return nil
}

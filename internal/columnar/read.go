package columnar

import (
	"fmt"
	"math"
	"reflect"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"
)

// MaxInt is the largest magnitude of an integer read from a floating-point
// column: 2^53, beyond which a float64 no longer holds every integer.
const MaxInt = 1 << 53

// blockRows is the number of rows filled at once, column after column: a
// block of rows stays in cache while its columns are written.
const blockRows = 512

// pageAhead is the number of decoded pages a column decoder may hold ahead
// of the consumer.
const pageAhead = 2

// Options configures a reader.
type Options struct {
	// Null returns the value in memory of a NULL of numeric column name
	// (nil: 0). A NULL string is "", a NULL list empty.
	Null func(name string) float64
	// Missing returns the value of numeric column name when the file
	// lacks it (nil: 0). A missing string is "", a missing list empty.
	Missing func(name string) float64
	// Stream is for a pass over a file in bounded memory: each Rows.Read
	// reuses the elements of the lists of the previous one (the caller
	// copies what it keeps), and a decoder holds no page ahead beyond the
	// one it decodes while the consumer reads another.
	Stream bool
}

// source is a field of the row type and where the file holds it.
type source struct {
	f        *Field
	leaf     int  // leaf column index (scalars)
	unsigned bool // the column is annotated as an unsigned integer
	null     float64
	missing  float64
	absent   bool
	// A List field: the leaf of each element field, and the levels.
	leaves []int
	maxDef int
}

// plan matches the fields of T to the file's columns, checking their types.
func plan[T any](sch *parquet.Schema, opt *Options) ([]*source, error) {
	s := SchemaOf[T]()
	out := make([]*source, 0, len(s.Fields))
	for i := range s.Fields {
		f := &s.Fields[i]
		src := &source{f: f}
		if opt.Null != nil && f.Kind != String && f.Kind != List {
			src.null = opt.Null(f.Name)
		}
		if opt.Missing != nil && f.Kind != String && f.Kind != List {
			src.missing = opt.Missing(f.Name)
		}
		out = append(out, src)
		if f.Kind == List {
			if err := planList(sch, src); err != nil {
				return nil, &Error{Column: f.Name, RowGroup: -1, Msg: err.Error()}
			}
			continue
		}
		if err := planScalar(sch, src); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// planScalar finds the leaf of scalar field src.f and checks its type.
func planScalar(sch *parquet.Schema, src *source) error {
	f := src.f
	leaf, ok := sch.Lookup(f.Name)
	if !ok {
		src.absent = true
		return nil
	}
	if f.Kind == Other {
		return &Error{Column: f.Name, RowGroup: -1, Msg: fmt.Sprintf("field %s: unsupported type %s", f.GoName, f.Type)}
	}
	if leaf.MaxRepetitionLevel > 0 {
		return &Error{Column: f.Name, RowGroup: -1, Msg: "a repeated column, want one value per row"}
	}
	src.leaf = leaf.ColumnIndex
	typ := leaf.Node.Type()
	if f.Kind == String {
		if typ.Kind() != parquet.ByteArray {
			return &Error{Column: f.Name, RowGroup: -1, Msg: fmt.Sprintf("type %s, want a string", typ)}
		}
		return nil
	}
	switch typ.Kind() {
	case parquet.Int64, parquet.Int32, parquet.Double, parquet.Float:
	default:
		return &Error{Column: f.Name, RowGroup: -1, Msg: fmt.Sprintf("type %s, want a number (int64 or double)", typ)}
	}
	// An integer annotation (INT(32,true), ...) is a plain number; any
	// other (DECIMAL, TIMESTAMP, DATE, ...) would be read wrongly.
	if lt := typ.LogicalType(); lt != nil && lt.Value != nil {
		it, ok := lt.Value.(*format.IntType)
		if !ok {
			return &Error{Column: f.Name, RowGroup: -1, Msg: fmt.Sprintf("type %s, want a plain number (int64 or double)", typ)}
		}
		src.unsigned = !it.IsSigned
	}
	return nil
}

// Floats reads numeric column name of f, a file of size bytes, as
// float64s, NULLs as null: the same decoding as Rows, for a column known
// only at run time.
func Floats(f *parquet.File, size int64, name string, null float64) (out []float64, err error) {
	fd := &Field{Name: name, Kind: Float64, Type: reflect.TypeFor[float64]()}
	src := &source{f: fd, null: null}
	rg := -1
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, &Error{Column: name, RowGroup: rg, Msg: "not a readable Parquet file (" + oneLine(p) + ")"}
		}
	}()
	if err := planScalar(f.Schema(), src); err != nil {
		return nil, err
	}
	if src.absent {
		return nil, &Error{Column: name, RowGroup: -1, Msg: "no such column"}
	}
	out = make([]float64, 0, RowsFor(f.NumRows(), size))
	row := 0
	for i, g := range f.RowGroups() {
		rg = i
		done := make(chan struct{})
		d := &decoder{src: src, rg: i, out: make(chan page, pageAhead), done: done,
			freeI: make(chan []int64, pageAhead+1), freeF: make(chan []float64, pageAhead+1)}
		go d.run(g.ColumnChunks()[src.leaf].Pages(), row)
		cu := &cursor{d: d}
		err := func() error {
			defer func() { close(done); cu.drain() }()
			for left := int(g.NumRows()); left > 0; {
				if cu.off == cu.cur.len() {
					if err := cu.next(); err != nil {
						return err
					}
				}
				k := min(left, cu.cur.len()-cu.off)
				out = append(out, cu.cur.f64[cu.off:cu.off+k]...)
				cu.off += k
				left -= k
			}
			return cu.end()
		}()
		if err != nil {
			return nil, err
		}
		row += int(g.NumRows())
	}
	return out, nil
}

// planList finds the leaves of list field src.f: the columns under its
// name whose last path element names an element field. A list the file
// lacks is absent (every row empty).
func planList(sch *parquet.Schema, src *source) error {
	f := src.f
	src.leaves = make([]int, len(f.Elem))
	found := 0
	for k, e := range f.Elem {
		src.leaves[k] = -1
		for _, path := range sch.Columns() {
			if len(path) > 1 && path[0] == f.Name && path[len(path)-1] == e.Name {
				l, ok := sch.Lookup(path...)
				if !ok {
					continue
				}
				if l.MaxRepetitionLevel != 1 {
					return fmt.Errorf("leaf %s: repetition level %d, want a list of structs", e.Name, l.MaxRepetitionLevel)
				}
				switch l.Node.Type().Kind() {
				case parquet.Int32, parquet.Int64, parquet.Float, parquet.Double:
				default:
					return fmt.Errorf("leaf %s: type %s, want a number", e.Name, l.Node.Type())
				}
				if found > 0 && l.MaxDefinitionLevel != src.maxDef {
					return fmt.Errorf("leaf %s: definition level %d, the others %d", e.Name, l.MaxDefinitionLevel, src.maxDef)
				}
				src.leaves[k], src.maxDef = l.ColumnIndex, l.MaxDefinitionLevel
				found++
			}
		}
	}
	switch {
	case found == 0:
		src.absent = true
	case found != len(f.Elem):
		return fmt.Errorf("%d of the %d leaves", found, len(f.Elem))
	}
	return nil
}

// Rows reads the rows of a Parquet file in order, row group by row group:
// every column chunk of the current row group has a decoder goroutine
// (see the package documentation).
type Rows[T any] struct {
	f     *parquet.File
	opt   Options
	plan  []*source
	rgs   []parquet.RowGroup
	rg    int // current row group; −1 before the first
	left  int // rows left in it
	row   int // rows read
	curs  [][]*cursor
	done  chan struct{}
	err   error
	arena arena
}

// NewRows returns a reader of the rows of f into T.
func NewRows[T any](f *parquet.File, opt Options) (r *Rows[T], err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, &Error{RowGroup: -1, Msg: "not a readable Parquet file (" + oneLine(p) + ")"}
		}
	}()
	p, err := plan[T](f.Schema(), &opt)
	if err != nil {
		return nil, err
	}
	return &Rows[T]{f: f, opt: opt, plan: p, rgs: f.RowGroups(), rg: -1}, nil
}

// Read fills out with the next rows and returns how many: fewer than
// len(out) only at the end of the file (0 then). Every tagged field is set.
func (r *Rows[T]) Read(out []T) (int, error) {
	if r.opt.Stream {
		r.arena.n = 0
	}
	return r.read(out, nil)
}

// read fills out as Read does, calling after(k) once out[:k] are filled,
// after each block.
func (r *Rows[T]) read(out []T, after func(k int) error) (n int, err error) {
	if r.err != nil {
		return 0, r.err
	}
	defer func() {
		if p := recover(); p != nil {
			err = &Error{RowGroup: r.rg, Msg: "not a readable Parquet file (" + oneLine(p) + ")"}
		}
		if err != nil {
			r.err = err
			r.stop()
		}
	}()
	for n < len(out) {
		if r.left == 0 {
			if err := r.next(); err != nil {
				return n, err
			}
			if r.rg >= len(r.rgs) {
				return n, nil
			}
			continue
		}
		k := min(len(out)-n, r.left, blockRows)
		block := out[n : n+k]
		for ci, src := range r.plan {
			if err := r.fill(src, r.curs[ci], block); err != nil {
				return n, err
			}
		}
		n += k
		r.left -= k
		r.row += k
		if after != nil {
			if err := after(n); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// next ends the current row group (checking that no column has values
// left) and starts the next one's decoders.
func (r *Rows[T]) next() error {
	if r.curs != nil {
		for ci, cs := range r.curs {
			for _, c := range cs {
				if err := c.end(); err != nil {
					return r.wrap(ci, err)
				}
			}
		}
		r.stop()
	}
	r.rg++
	if r.rg >= len(r.rgs) {
		return nil
	}
	rg := r.rgs[r.rg]
	r.left = int(rg.NumRows())
	chunks := rg.ColumnChunks()
	r.done = make(chan struct{})
	r.curs = make([][]*cursor, len(r.plan))
	row0 := r.row
	start := func(src *source, leaf int, list bool) *cursor {
		if leaf < 0 || leaf >= len(chunks) {
			panic(fmt.Sprintf("leaf %d of %d", leaf, len(chunks)))
		}
		ahead := pageAhead
		if r.opt.Stream {
			ahead = 0
		}
		d := &decoder{src: src, list: list, rg: r.rg, out: make(chan page, ahead), done: r.done,
			freeI: make(chan []int64, pageAhead+1), freeF: make(chan []float64, pageAhead+1)}
		go d.run(chunks[leaf].Pages(), row0)
		return &cursor{d: d}
	}
	for ci, src := range r.plan {
		switch {
		case src.absent:
		case src.f.Kind == List:
			for _, l := range src.leaves {
				r.curs[ci] = append(r.curs[ci], start(src, l, true))
			}
		default:
			r.curs[ci] = []*cursor{start(src, src.leaf, false)}
		}
	}
	return nil
}

// wrap names the column and row group of a decoding error.
func (r *Rows[T]) wrap(ci int, err error) error {
	switch err.(type) {
	case *Error, *RowError:
		return err
	}
	return &Error{Column: r.plan[ci].f.Name, RowGroup: r.rg, Msg: err.Error()}
}

// stop ends the current row group's decoders.
func (r *Rows[T]) stop() {
	if r.done == nil {
		return
	}
	close(r.done)
	for _, cs := range r.curs {
		for _, c := range cs {
			c.drain()
		}
	}
	r.done, r.curs = nil, nil
}

// Close stops the decoders.
func (r *Rows[T]) Close() { r.stop() }

// fill sets the field of src on every row of block.
func (r *Rows[T]) fill(src *source, cs []*cursor, block []T) error {
	f := src.f
	if src.absent {
		switch f.Kind {
		case String:
			for i := range block {
				*Str(&block[i], f) = ""
			}
		case List:
			for i := range block {
				*(*sliceHeader)(at(&block[i], f)) = sliceHeader{}
			}
		default:
			for i := range block {
				Set(&block[i], f, src.missing)
			}
		}
		return nil
	}
	if f.Kind == List {
		return r.fillList(src, cs, block)
	}
	cu := cs[0]
	if f.Kind == String {
		for i := range block {
			ok, err := cu.more()
			if err != nil {
				return err
			}
			if !ok {
				return cu.d.errorf("fewer values than rows")
			}
			v := cu.vals[cu.off]
			cu.off++
			if v.RepetitionLevel() != 0 {
				return cu.d.errorf("a repeated value")
			}
			s := ""
			if !v.IsNull() {
				s = cu.d.str(v.ByteArray())
			}
			*Str(&block[i], f) = s
		}
		return nil
	}
	for i := 0; i < len(block); {
		avail := cu.cur.len() - cu.off
		if avail == 0 {
			if err := cu.next(); err != nil {
				return err
			}
			continue
		}
		k := min(avail, len(block)-i)
		dst := block[i : i+k]
		switch f.Kind {
		case Int64:
			for j, v := range cu.cur.i64[cu.off : cu.off+k] {
				*Int(&dst[j], f) = v
			}
		case Float64:
			for j, v := range cu.cur.f64[cu.off : cu.off+k] {
				*Float(&dst[j], f) = v
			}
		}
		cu.off += k
		i += k
	}
	return nil
}

// sliceHeader is the memory layout of a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// arena holds the elements of the lists read: rows point into it. A full
// arena is replaced, never moved, so that rows keep their elements.
type arena struct {
	typ  reflect.Type // the element type
	data unsafe.Pointer
	keep reflect.Value // the slice data points into
	n    int           // elements used
	cap  int
	size uintptr
}

// add makes room for one more element after the n used, moving the
// last moved elements (the current row's) along when it replaces the
// arena, and returns the element's address.
func (a *arena) add(f *Field, moved int) unsafe.Pointer {
	if a.typ != f.Type.Elem() {
		a.typ, a.data, a.n, a.cap, a.size = f.Type.Elem(), nil, 0, 0, f.elemSize
	}
	if a.n == a.cap {
		c := max(16, 2*moved, 2*a.cap) // doubling: at most as much again as the elements read
		v := reflect.MakeSlice(reflect.SliceOf(a.typ), c, c)
		p := v.UnsafePointer()
		if moved > 0 {
			reflect.Copy(v, reflect.NewAt(reflect.ArrayOf(moved, a.typ), unsafe.Add(a.data, uintptr(a.n-moved)*a.size)).Elem())
		}
		a.keep, a.data, a.n, a.cap = v, p, moved, c
	}
	p := unsafe.Add(a.data, uintptr(a.n)*a.size)
	a.n++
	return p
}

// fillList reads the lists of block from the element fields' leaves: a
// row starts at repetition level 0 and holds an element for each value
// defined down to the element (an empty or NULL list has one undefined
// value).
func (r *Rows[T]) fillList(src *source, cs []*cursor, block []T) error {
	f := src.f
	for i := range block {
		start, count := r.arena.n, 0
		for first := true; ; first = false {
			if !first {
				more, err := cs[0].peekRepeated()
				if err != nil {
					return err
				}
				if !more {
					break
				}
			}
			var el unsafe.Pointer
			for k, c := range cs {
				v, err := c.value()
				if err != nil {
					return err
				}
				if first != (v.RepetitionLevel() == 0) {
					return &Error{Column: f.Name, RowGroup: r.rg, Msg: fmt.Sprintf("leaf %s: repetition levels disagree", f.Elem[k].Name)}
				}
				if v.DefinitionLevel() < src.maxDef {
					if k > 0 && el != nil {
						return &Error{Column: f.Name, RowGroup: r.rg, Msg: fmt.Sprintf("leaf %s: definition levels disagree", f.Elem[k].Name)}
					}
					continue
				}
				if el == nil {
					if k > 0 {
						return &Error{Column: f.Name, RowGroup: r.rg, Msg: fmt.Sprintf("leaf %s: definition levels disagree", f.Elem[k].Name)}
					}
					el = r.arena.add(f, count)
					start = r.arena.n - 1 - count
					count++
				}
				switch v.Kind() {
				case parquet.Int32:
					setElem(el, &f.Elem[k], int64(v.Int32()), 0, false)
				case parquet.Int64:
					setElem(el, &f.Elem[k], v.Int64(), 0, false)
				case parquet.Float:
					setElem(el, &f.Elem[k], 0, float64(v.Float()), true)
				default:
					setElem(el, &f.Elem[k], 0, v.Double(), true)
				}
			}
		}
		h := (*sliceHeader)(at(&block[i], f))
		if count == 0 {
			*h = sliceHeader{}
		} else {
			*h = sliceHeader{unsafe.Add(r.arena.data, uintptr(start)*r.arena.size), count, count}
		}
	}
	return nil
}

// ReadAll reads every row of f, a file of size bytes. Rows are allocated
// as they are decoded, at first RowsFor the footer's claim: never more
// than the file can fill. check, when set, is called with the rows read
// so far once the rows up to hi are filled (after every block), to
// validate them while in cache; its error stops the reading.
func ReadAll[T any](f *parquet.File, size int64, opt Options, check func(rows []T, hi int) error) (out []T, err error) {
	r, err := NewRows[T](f, opt)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	out = make([]T, 0, RowsFor(f.NumRows(), size))
	for {
		n := len(out)
		if int64(n) >= f.NumRows() {
			var one [1]T
			m, err := r.read(one[:], nil) // the end: checks the last row group
			if err == nil && m > 0 {
				err = &Error{RowGroup: -1, Msg: "more rows than the footer counts"}
			}
			if err != nil {
				return nil, err
			}
			return out, nil
		}
		k := blockRows
		if cap(out)-n >= blockRows {
			k = cap(out) - n // a whole allocation at once
		}
		k = min(k, int(f.NumRows()-int64(n)))
		var after func(int) error
		if check != nil {
			after = func(m int) error { return check(out[:n+m], n+m) }
		}
		out = grow(out, k)
		m, err := r.read(out[n:n+k], after)
		out = out[:n+m]
		if err != nil {
			return nil, err
		}
		if m < k {
			return nil, &Error{RowGroup: -1, Msg: fmt.Sprintf("%d rows, the footer counts %d", n+m, f.NumRows())}
		}
	}
}

// grow makes room for k more rows: one allocation when they fit the
// capacity, else doubling.
func grow[T any](s []T, k int) []T {
	if cap(s)-len(s) >= k {
		return s[:len(s)+k]
	}
	t := make([]T, len(s)+k, max(2*cap(s), len(s)+k))
	copy(t, s)
	return t[:len(s)+k]
}

// page is a page of one column: its values converted to the field's type
// (i64 or f64: one per row, NULLs as the field's null value), or the page
// to read its values from (vr: strings and a list's leaves), unless err is
// set.
type page struct {
	i64 []int64
	f64 []float64
	vr  parquet.ValueReader // a list leaf's page: read by the consumer, levels and all
	pg  parquet.Page        // the page i64 or f64 points into, to release once consumed; nil when they are copies
	err error
}

func (p *page) len() int { return len(p.i64) + len(p.f64) }

func releasePage(p page) {
	if p.pg != nil {
		parquet.Release(p.pg)
	}
}

// decoder reads the pages of one column chunk in its own goroutine.
type decoder struct {
	src    *source
	list   bool // a list leaf: raw values
	rg     int
	out    chan page
	done   chan struct{}
	freeI  chan []int64   // consumed copies, for reuse
	freeF  chan []float64 // consumed copies, for reuse
	most   int            // the largest page's values: the capacity of new copies, so that they are reused
	vals   []parquet.Value
	intern map[string]string
	last   string
}

func (d *decoder) name() string { return d.src.f.Name }

// lazy reports whether the consumer reads the values of the decoded pages
// (a list leaf's, with their levels; strings, whose dictionary pages may
// hold any number of rows), a buffer at a time, rather than the decoder
// converting whole pages.
func (d *decoder) lazy() bool { return d.list || d.src.f.Kind == String }

func (d *decoder) errorf(format string, a ...any) error {
	return &Error{Column: d.name(), RowGroup: d.rg, Msg: fmt.Sprintf(format, a...)}
}

func (d *decoder) run(pages parquet.Pages, row int) {
	defer close(d.out)
	send := func(p page) bool {
		select {
		case d.out <- p:
			return true
		case <-d.done:
			releasePage(p)
			return false
		}
	}
	// The library panics on some corrupt pages: in this goroutine nobody
	// else could recover it, so it becomes the column's error.
	defer func() {
		if r := recover(); r != nil {
			send(page{err: d.errorf("not a readable Parquet page (%s)", oneLine(r))})
		}
	}()
	defer pages.Close()
	for {
		p, err := pages.ReadPage()
		if isEOF(err) {
			return
		}
		if err != nil {
			send(page{err: d.errorf("%s", oneLine(err))})
			return
		}
		n := int(p.NumRows())
		if d.list {
			n = int(p.NumValues())
		}
		if n <= 0 {
			parquet.Release(p)
			continue
		}
		if !d.lazy() && !d.plain(p, n) {
			// Value by value, chunkRows at a time: a dictionary or RLE
			// page may hold any number of rows.
			vr := p.Values()
			for done := 0; done < n; {
				k := min(n-done, chunkRows)
				cp, err := d.fromValues(vr, row+done, k)
				if err == nil && !send(cp) {
					parquet.Release(p)
					return
				}
				if err != nil {
					parquet.Release(p)
					send(page{err: err})
					return
				}
				done += k
			}
			parquet.Release(p)
			row += n
			continue
		}
		cp, err := d.convert(p, row, n)
		if cp.pg == nil {
			parquet.Release(p)
		}
		if err != nil {
			send(page{err: err})
			return
		}
		if !send(cp) {
			return
		}
		row += n
	}
}

// chunkRows is the largest number of rows of a page converted value by
// value at once.
const chunkRows = 8192

// plain reports whether page p of n rows is plain values without nulls,
// converted at once.
func (d *decoder) plain(p parquet.Page, n int) bool {
	if p.Dictionary() != nil || p.NumNulls() != 0 || int(p.NumValues()) != n {
		return false
	}
	v := p.Data()
	switch v.Kind() {
	case encoding.Int64, encoding.Double, encoding.Int32, encoding.Float:
		return true
	}
	return false
}

func (d *decoder) ints(n int) []int64 {
	select {
	case b := <-d.freeI:
		if cap(b) >= n {
			return b[:n]
		}
	default:
	}
	d.most = max(d.most, n)
	return make([]int64, n, d.most)
}

func (d *decoder) floats(n int) []float64 {
	select {
	case b := <-d.freeF:
		if cap(b) >= n {
			return b[:n]
		}
	default:
	}
	d.most = max(d.most, n)
	return make([]float64, n, d.most)
}

// floatToInt converts v, read from a floating-point column, for an integer
// field: it must be integral and at most MaxInt in magnitude.
func (d *decoder) floatToInt(v float64, row int) (int64, error) {
	if v != math.Trunc(v) || math.IsInf(v, 0) {
		return 0, &RowError{row, fmt.Sprintf("column %s: %v is not an integer", d.name(), v)}
	}
	if math.Abs(v) > MaxInt {
		return 0, &RowError{row, fmt.Sprintf("column %s: %v is out of range (integer columns stored as doubles hold at most ±2^53)", d.name(), v)}
	}
	return int64(v), nil
}

// convert returns the n values of page p (its first row is row; a plain
// page, or a list leaf's or strings) in the field's type: the page's own
// buffer when it already is (a plain int64 or double page), else a
// converted copy.
func (d *decoder) convert(p parquet.Page, row, n int) (page, error) {
	if d.lazy() { // decompressed here, its values read by the consumer
		return page{vr: p.Values(), pg: p}, nil
	}
	f := d.src.f
	v := p.Data()
	isInt := f.Kind == Int64
	switch v.Kind() {
	case encoding.Int64:
		if s := v.Int64(); len(s) == n {
			if isInt && !d.src.unsigned {
				return page{i64: s, pg: p}, nil
			}
			return d.fromInt64(s, row)
		}
	case encoding.Double:
		if s := v.Double(); len(s) == n {
			if !isInt {
				return page{f64: s, pg: p}, nil
			}
			return d.fromFloats(s, row)
		}
	case encoding.Int32:
		if s := v.Int32(); len(s) == n {
			if d.src.unsigned {
				return widen(d, unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(s))), n)), nil
			}
			return widen(d, s), nil
		}
	case encoding.Float:
		if s := v.Float(); len(s) == n {
			return d.fromFloat32(s, row)
		}
	}
	return page{}, d.errorf("a plain page of %d rows holds another number of values", n)
}

func (d *decoder) fromInt64(s []int64, row int) (page, error) {
	if d.src.f.Kind == Int64 { // unsigned
		out := d.ints(len(s))
		for i, v := range s {
			if v < 0 { // at least 2^63
				return page{}, &RowError{row + i, fmt.Sprintf("column %s: %d is out of range", d.name(), uint64(v))}
			}
			out[i] = v
		}
		return page{i64: out}, nil
	}
	out := d.floats(len(s))
	for i, v := range s {
		if d.src.unsigned {
			out[i] = float64(uint64(v))
		} else {
			out[i] = float64(v)
		}
	}
	return page{f64: out}, nil
}

func widen[V int32 | uint32](d *decoder, s []V) page {
	if d.src.f.Kind == Int64 {
		out := d.ints(len(s))
		for i, v := range s {
			out[i] = int64(v)
		}
		return page{i64: out}
	}
	out := d.floats(len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return page{f64: out}
}

// fromFloats converts doubles for an integer field: integral values in
// range only.
func (d *decoder) fromFloats(s []float64, row int) (page, error) {
	out := d.ints(len(s))
	for i, v := range s {
		x, err := d.floatToInt(v, row+i)
		if err != nil {
			return page{}, err
		}
		out[i] = x
	}
	return page{i64: out}, nil
}

func (d *decoder) fromFloat32(s []float32, row int) (page, error) {
	if d.src.f.Kind == Int64 {
		out := d.ints(len(s))
		for i, v := range s {
			x, err := d.floatToInt(float64(v), row+i)
			if err != nil {
				return page{}, err
			}
			out[i] = x
		}
		return page{i64: out}, nil
	}
	out := d.floats(len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return page{f64: out}, nil
}

// str returns b as a string, interned (a column repeats a few values over
// millions of rows).
func (d *decoder) str(b []byte) string {
	if string(b) == d.last { // no allocation, no hashing
		return d.last
	}
	if d.intern == nil {
		d.intern = map[string]string{}
	}
	s, ok := d.intern[string(b)]
	if !ok {
		s = string(b)
		if len(d.intern) < 1<<16 {
			d.intern[s] = s
		}
	}
	d.last = s
	return s
}

// fromValues reads the next n values of a page, value by value: pages
// with nulls (pandas makes every column optional) or dictionary-encoded
// (pyarrow's default).
func (d *decoder) fromValues(vr parquet.ValueReader, row, n int) (page, error) {
	f := d.src.f
	var cp page
	switch f.Kind {
	case Int64:
		cp.i64 = d.ints(n)
	case Float64:
		cp.f64 = d.floats(n)
	}
	if cap(d.vals) < 1024 {
		d.vals = make([]parquet.Value, 1024)
	}
	null := d.src.null
	for i := 0; i < n; {
		k, err := vr.ReadValues(d.vals[:min(len(d.vals), n-i)])
		for _, v := range d.vals[:k] {
			var x int64
			var y float64
			isFloat := false
			switch {
			case v.IsNull():
				x, y, isFloat = int64(null), null, f.Kind == Float64
			case v.Kind() == parquet.Int64:
				x = v.Int64()
				if d.src.unsigned && x < 0 {
					if f.Kind == Int64 {
						return page{}, &RowError{row + i, fmt.Sprintf("column %s: %d is out of range", f.Name, uint64(x))}
					}
					y, isFloat = float64(uint64(x)), true
				}
			case v.Kind() == parquet.Int32:
				x = int64(v.Int32())
				if d.src.unsigned {
					x = int64(v.Uint32())
				}
			case v.Kind() == parquet.Double:
				y, isFloat = v.Double(), true
			case v.Kind() == parquet.Float:
				y, isFloat = float64(v.Float()), true
			default:
				return page{}, &RowError{row + i, fmt.Sprintf("column %s: a %s value, want a number", f.Name, v.Kind())}
			}
			switch {
			case f.Kind == Int64 && isFloat:
				var err error
				if x, err = d.floatToInt(y, row+i); err != nil {
					return page{}, err
				}
				cp.i64[i] = x
			case f.Kind == Int64:
				cp.i64[i] = x
			case isFloat:
				cp.f64[i] = y
			default:
				cp.f64[i] = float64(x)
			}
			i++
		}
		if i < n && (k == 0 || err != nil) {
			if err == nil || isEOF(err) {
				return page{}, d.errorf("a page of %d rows holds %d values", n, i)
			}
			return page{}, d.errorf("%s", oneLine(err))
		}
	}
	return cp, nil
}

// cursor consumes the pages of one decoder.
type cursor struct {
	d   *decoder
	cur page
	off int // values of cur (or of vals) consumed
	eof bool
	// A list leaf's values, read from cur.vr a buffer at a time.
	vals, space []parquet.Value
}

// next moves to the next page.
func (cu *cursor) next() error {
	cu.release()
	p, ok := <-cu.d.out
	if !ok {
		cu.eof = true
		return cu.d.errorf("fewer values than rows")
	}
	if p.err != nil {
		return p.err
	}
	cu.cur, cu.off = p, 0
	return nil
}

// release gives the current page back (to parquet-go, or its copy to the
// decoder for reuse).
func (cu *cursor) release() {
	p := cu.cur
	cu.cur = page{}
	switch {
	case p.pg != nil:
		parquet.Release(p.pg)
	case p.i64 != nil:
		select {
		case cu.d.freeI <- p.i64:
		default:
		}
	case p.f64 != nil:
		select {
		case cu.d.freeF <- p.f64:
		default:
		}
	}
}

// more makes vals[off] the next value of a list leaf; false at the end of
// the column chunk.
func (cu *cursor) more() (bool, error) {
	for cu.off >= len(cu.vals) {
		if cu.cur.vr != nil {
			if cu.space == nil {
				cu.space = make([]parquet.Value, 1024)
			}
			k, err := cu.cur.vr.ReadValues(cu.space)
			cu.vals, cu.off = cu.space[:k], 0
			if err != nil && !isEOF(err) {
				return false, cu.d.errorf("%s", oneLine(err))
			}
			if err != nil || k == 0 {
				cu.cur.vr = nil // the page is read
			}
			continue
		}
		if cu.eof {
			return false, nil
		}
		cu.release()
		p, ok := <-cu.d.out
		if !ok {
			cu.eof = true
			return false, nil
		}
		if p.err != nil {
			return false, p.err
		}
		cu.cur = p
	}
	return true, nil
}

// value returns the next value of a list leaf.
func (cu *cursor) value() (parquet.Value, error) {
	ok, err := cu.more()
	if err != nil {
		return parquet.Value{}, err
	}
	if !ok {
		return parquet.Value{}, cu.d.errorf("fewer values than rows")
	}
	v := cu.vals[cu.off]
	cu.off++
	return v, nil
}

// peekRepeated reports whether the next value of a list leaf continues
// the current row (repetition level > 0); false at the end of the chunk.
func (cu *cursor) peekRepeated() (bool, error) {
	ok, err := cu.more()
	if !ok || err != nil {
		return false, err
	}
	return cu.vals[cu.off].RepetitionLevel() > 0, nil
}

// end checks that the column has no values beyond the row group's rows.
func (cu *cursor) end() error {
	if cu.d.lazy() {
		if ok, err := cu.more(); ok || err != nil {
			if err == nil {
				err = cu.d.errorf("more values than rows")
			}
			return err
		}
		return nil
	}
	if cu.cur.len() > cu.off {
		return cu.d.errorf("more values than rows")
	}
	cu.release()
	if cu.eof {
		return nil
	}
	p, ok := <-cu.d.out
	if ok {
		releasePage(p)
		if p.err != nil {
			return p.err
		}
		return cu.d.errorf("more values than rows")
	}
	cu.eof = true
	return nil
}

// drain releases every page still held, once the decoder has been told to
// stop, and waits for it to end.
func (cu *cursor) drain() {
	cu.release()
	for p := range cu.d.out {
		releasePage(p)
	}
}

// ReadInto reads every row of f into out, which has room for exactly the
// file's rows (counted by the caller, who bounds them).
func ReadInto[T any](f *parquet.File, out []T, opt Options) error {
	r, err := NewRows[T](f, opt)
	if err != nil {
		return err
	}
	defer r.Close()
	n, err := r.read(out, nil)
	if err != nil {
		return err
	}
	if n < len(out) {
		return &Error{RowGroup: -1, Msg: fmt.Sprintf("%d rows, the footer counts %d", n, len(out))}
	}
	var one [1]T
	if m, err := r.read(one[:], nil); err != nil || m > 0 {
		if err == nil {
			err = &Error{RowGroup: -1, Msg: "more rows than the footer counts"}
		}
		return err
	}
	return nil
}

// Package columnar is schedlab's one Parquet codec: rows of a Go struct
// type read and written column by column, page by page, through
// parquet-go's page-level API, never row by row.
//
// The schema of a row type is derived once from its struct tags
// (SchemaOf): every field tagged `parquet:"name"` is a column, read and
// written through its offset, the only unsafe code of the module's Parquet
// paths. Reading (Rows, ReadAll), every column chunk of a row group has a
// decoder goroutine that decompresses and converts its pages ahead of the
// consumer, which copies the values into the rows a block at a time, column
// after column, so that the block stays in cache. Writing (Writer), the
// columns of a batch are encoded and compressed in parallel, each by its
// own column writer, handed the same number of values at a time: pages
// depend only on the values and the batch boundaries, never on the
// scheduling, so the bytes are deterministic.
//
// Files from outside are distrusted: Open checks the footer's length
// against the file before the library allocates it and skips the page
// index and bloom filters (unused, and the library's decoding of a corrupt
// one panics); a panic of the library, also inside a decoder goroutine,
// becomes an *Error naming the column and row group; and no allocation is
// sized by the footer's claims beyond what the file can hold.
package columnar

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"
)

// Kind is the in-memory type of a field.
type Kind uint8

// Field kinds.
const (
	Int64   Kind = iota // int64
	Float64             // float64
	String              // string
	List                // a slice of flat structs of int32, int64 and float64 fields
	Other               // anything else: not read by this package
)

// Field is one column of a row type: a struct field tagged
// `parquet:"name[,options]"`.
type Field struct {
	Name   string // Parquet column name
	GoName string // Go field name
	Index  int    // index among the struct's fields
	Offset uintptr
	Kind   Kind
	Type   reflect.Type
	Tag    reflect.StructTag // the whole tag, for the adapters' own keys
	// Elem are the element's fields of a List field, in order.
	Elem []Field
	// elemSize is the size of a List element.
	elemSize uintptr
}

// Schema is the columns of row type T, in field order.
type Schema[T any] struct {
	Fields []Field
	byName map[string]int
}

var schemas sync.Map // reflect.Type → *Schema[T]

// SchemaOf returns the schema of row type T (a struct), derived once.
func SchemaOf[T any]() *Schema[T] {
	rt := reflect.TypeFor[T]()
	if s, ok := schemas.Load(rt); ok {
		return s.(*Schema[T])
	}
	s := &Schema[T]{Fields: fieldsOf(rt), byName: map[string]int{}}
	for i, f := range s.Fields {
		s.byName[f.Name] = i
	}
	got, _ := schemas.LoadOrStore(rt, s)
	return got.(*Schema[T])
}

func fieldsOf(rt reflect.Type) []Field {
	if rt.Kind() != reflect.Struct {
		panic(fmt.Sprintf("columnar: %s is not a struct", rt))
	}
	var out []Field
	for i := range rt.NumField() {
		sf := rt.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("parquet"), ",")
		if name == "" || name == "-" {
			continue
		}
		f := Field{Name: name, GoName: sf.Name, Index: i, Offset: sf.Offset, Type: sf.Type, Tag: sf.Tag, Kind: Other}
		switch sf.Type.Kind() {
		case reflect.Int64:
			f.Kind = Int64
		case reflect.Float64:
			f.Kind = Float64
		case reflect.String:
			f.Kind = String
		case reflect.Int32:
			f.Kind = Other // only as a List element's field
		case reflect.Slice:
			if et := sf.Type.Elem(); et.Kind() == reflect.Struct && flat(et) {
				f.Kind, f.Elem, f.elemSize = List, elemFields(et), et.Size()
			}
		}
		out = append(out, f)
	}
	return out
}

// flat reports whether struct type t holds int32, int64 and float64
// fields only (no pointers: the codec writes them in place).
func flat(t reflect.Type) bool {
	for i := range t.NumField() {
		switch t.Field(i).Type.Kind() {
		case reflect.Int32, reflect.Int64, reflect.Float64:
		default:
			return false
		}
	}
	return true
}

func elemFields(et reflect.Type) []Field {
	var out []Field
	for i := range et.NumField() {
		sf := et.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("parquet"), ",")
		if name == "" {
			name = sf.Name
		}
		out = append(out, Field{Name: name, GoName: sf.Name, Index: i, Offset: sf.Offset, Type: sf.Type, Kind: Other})
	}
	return out
}

// Lookup returns the field of column name.
func (s *Schema[T]) Lookup(name string) (*Field, bool) {
	i, ok := s.byName[name]
	if !ok {
		return nil, false
	}
	return &s.Fields[i], true
}

// Names returns the column names, in order.
func (s *Schema[T]) Names() []string {
	out := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		out[i] = f.Name
	}
	return out
}

// Readable reports whether every field of T is of a kind the reader fills
// (Int64, Float64, String or List).
func (s *Schema[T]) Readable() bool {
	for _, f := range s.Fields {
		if f.Kind == Other {
			return false
		}
	}
	return true
}

// at is the address of field f of row.
func at[T any](row *T, f *Field) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(row), f.Offset) }

// Int returns the address of Int64 field f of row.
func Int[T any](row *T, f *Field) *int64 { return (*int64)(at(row, f)) }

// Float returns the address of Float64 field f of row.
func Float[T any](row *T, f *Field) *float64 { return (*float64)(at(row, f)) }

// Str returns the address of String field f of row.
func Str[T any](row *T, f *Field) *string { return (*string)(at(row, f)) }

// Get returns numeric field f of row as a float64 (an Int64 converted).
func Get[T any](row *T, f *Field) float64 {
	if f.Kind == Int64 {
		return float64(*Int(row, f))
	}
	return *Float(row, f)
}

// Set sets numeric field f of row to v (truncated for an Int64 field).
func Set[T any](row *T, f *Field, v float64) {
	if f.Kind == Int64 {
		*Int(row, f) = int64(v)
	} else {
		*Float(row, f) = v
	}
}

// setElem sets field e (int32, int64 or float64) of the element at p.
func setElem(p unsafe.Pointer, e *Field, x int64, v float64, isFloat bool) {
	q := unsafe.Add(p, e.Offset)
	switch e.Type.Kind() {
	case reflect.Int32:
		if isFloat {
			x = int64(v)
		}
		*(*int32)(q) = int32(x)
	case reflect.Int64:
		if isFloat {
			x = int64(v)
		}
		*(*int64)(q) = x
	case reflect.Float64:
		if !isFloat {
			v = float64(x)
		}
		*(*float64)(q) = v
	}
}

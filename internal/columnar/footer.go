package columnar

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// maxThriftDepth bounds the nesting of a footer's structures (a
// Parquet footer nests a few levels).
const maxThriftDepth = 64

// checkFooter walks a Parquet footer's Thrift compact encoding b without
// decoding it, and refuses a list, set, map or string whose claimed length
// exceeds the bytes left (each element takes at least one), nesting
// deeper than maxThriftDepth, or bytes that end inside a value. The
// Parquet library allocates a list as long as its header claims before
// reading its elements: a damaged length (found by FuzzParquetTrace: 25 GB
// claimed in a 6 KB file) would end the process out of memory, which no
// recover can catch.
func checkFooter(b []byte) error {
	w := thriftWalker{b: b}
	return w.structure(0)
}

// thriftWalker reads Thrift's compact protocol from b at i.
type thriftWalker struct {
	b []byte
	i int
}

var errThriftShort = errors.New("the footer ends inside a value")

func (w *thriftWalker) left() uint64 { return uint64(len(w.b) - w.i) }

func (w *thriftWalker) byte() (byte, error) {
	if w.i >= len(w.b) {
		return 0, errThriftShort
	}
	c := w.b[w.i]
	w.i++
	return c, nil
}

func (w *thriftWalker) uvarint() (uint64, error) {
	v, n := binary.Uvarint(w.b[w.i:])
	if n <= 0 {
		return 0, errThriftShort
	}
	w.i += n
	return v, nil
}

// structure skips a structure's fields up to its stop byte.
func (w *thriftWalker) structure(depth int) error {
	if depth > maxThriftDepth {
		return fmt.Errorf("the footer nests more than %d levels", maxThriftDepth)
	}
	for {
		h, err := w.byte()
		if err != nil {
			return err
		}
		if h == 0 {
			return nil
		}
		if h>>4 == 0 { // the field id follows, in full
			if _, err := w.uvarint(); err != nil {
				return err
			}
		}
		if err := w.value(h&0x0f, depth, false); err != nil {
			return err
		}
	}
}

// value skips a value of compact type typ; elem: an element of a list,
// set or map, where a boolean takes a byte.
func (w *thriftWalker) value(typ byte, depth int, elem bool) error {
	var err error
	switch typ {
	case 1, 2: // boolean: in the field header, or a byte
		if elem {
			_, err = w.byte()
		}
	case 3: // byte
		_, err = w.byte()
	case 4, 5, 6: // i16, i32, i64
		_, err = w.uvarint()
	case 7: // double
		if w.left() < 8 {
			return errThriftShort
		}
		w.i += 8
	case 8: // binary
		n, err := w.uvarint()
		if err != nil {
			return err
		}
		if n > w.left() {
			return fmt.Errorf("the footer claims a string of %d bytes with %d bytes left", n, w.left())
		}
		w.i += int(n)
	case 9, 10: // list, set
		h, err := w.byte()
		if err != nil {
			return err
		}
		n, et := uint64(h>>4), h&0x0f
		if n == 15 {
			if n, err = w.uvarint(); err != nil {
				return err
			}
		}
		if n > w.left() {
			return fmt.Errorf("the footer claims a list of %d elements with %d bytes left", n, w.left())
		}
		for ; n > 0; n-- {
			if err := w.value(et, depth+1, true); err != nil {
				return err
			}
		}
	case 11: // map
		n, err := w.uvarint()
		if err != nil || n == 0 {
			return err
		}
		kv, err := w.byte()
		if err != nil {
			return err
		}
		if n > w.left() {
			return fmt.Errorf("the footer claims a map of %d entries with %d bytes left", n, w.left())
		}
		for ; n > 0; n-- {
			if err := w.value(kv>>4, depth+1, true); err != nil {
				return err
			}
			if err := w.value(kv&0x0f, depth+1, true); err != nil {
				return err
			}
		}
	case 12: // structure
		return w.structure(depth + 1)
	default:
		return fmt.Errorf("the footer holds a value of unknown type %d", typ)
	}
	return err
}

package columnar

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

type elem struct {
	X int32   `parquet:"x"`
	Y int64   `parquet:"y"`
	Z float64 `parquet:"z"`
}

type row struct {
	Name   string  `parquet:"name,dict"`
	ID     int64   `parquet:"id"`
	Time   float64 `parquet:"time"`
	Pieces []elem  `parquet:"pieces,list"`
	Note   string  `parquet:"note"`
	Skip   int     `parquet:"-"`
}

func randomRows(r *rand.Rand, n int) []row {
	out := make([]row, n)
	for i := range out {
		out[i] = row{Name: fmt.Sprint("t", r.IntN(3)), ID: r.Int64(), Time: r.NormFloat64(), Note: strings.Repeat("n", r.IntN(4))}
		for range r.IntN(4) {
			out[i].Pieces = append(out[i].Pieces, elem{r.Int32(), r.Int64(), r.Float64()})
		}
	}
	return out
}

// file writes rows with parquet-go's row writer (another code path than
// the codec's reader), in row groups of rg rows and small pages.
func file(t testing.TB, rows []row, rg int64) []byte {
	var b bytes.Buffer
	w := parquet.NewGenericWriter[row](&b, parquet.MaxRowsPerRowGroup(rg), parquet.PageBufferSize(256))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func open(t testing.TB, b []byte) *parquet.File {
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestSchemaOf(t *testing.T) {
	s := SchemaOf[row]()
	if got := strings.Join(s.Names(), " "); got != "name id time pieces note" {
		t.Fatalf("columns %q", got)
	}
	want := []Kind{String, Int64, Float64, List, String}
	for i, f := range s.Fields {
		if f.Kind != want[i] {
			t.Errorf("%s: kind %d, want %d", f.Name, f.Kind, want[i])
		}
	}
	if p, _ := s.Lookup("pieces"); len(p.Elem) != 3 || p.Elem[2].Name != "z" {
		t.Fatalf("elements %+v", p.Elem)
	}
	if SchemaOf[row]() != s {
		t.Fatal("schema derived twice")
	}
	var r row
	id, _ := s.Lookup("id")
	tm, _ := s.Lookup("time")
	Set(&r, id, 7.9)
	Set(&r, tm, 2.5)
	if r.ID != 7 || r.Time != 2.5 || Get(&r, id) != 7 || Get(&r, tm) != 2.5 {
		t.Fatalf("accessors: %+v", r)
	}
}

// Rows written by the library's row writer read back equal, whatever the
// row groups, pages and read sizes.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 511, 512, 513, 3000} {
		for _, rg := range []int64{1, 700, 1 << 20} {
			rows := randomRows(r, n)
			b := file(t, rows, rg)
			got, err := ReadAll[row](open(t, b), int64(len(b)), Options{}, nil)
			if err != nil {
				t.Fatalf("n %d rg %d: %v", n, rg, err)
			}
			same(t, got, rows)
			for _, chunk := range []int{1, 100, 4096} {
				rd, err := NewRows[row](open(t, b), Options{Stream: true})
				if err != nil {
					t.Fatal(err)
				}
				buf := make([]row, chunk)
				var all []row
				for {
					k, err := rd.Read(buf)
					if err != nil {
						t.Fatal(err)
					}
					if k == 0 {
						break
					}
					for _, x := range buf[:k] {
						x.Pieces = append([]elem(nil), x.Pieces...)
						all = append(all, x)
					}
				}
				rd.Close()
				same(t, all, rows)
			}
		}
	}
}

func same(t *testing.T, got, want []row) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		w := want[i]
		if len(w.Pieces) == 0 {
			w.Pieces = nil
		}
		g := got[i]
		if len(g.Pieces) == 0 && g.Pieces != nil {
			t.Fatalf("row %d: empty non-nil list", i)
		}
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("row %d: %+v, want %+v", i, g, w)
		}
	}
}

type other struct {
	ID      int64   `parquet:"id"`
	Missing float64 `parquet:"missing"`
	Gone    int64   `parquet:"gone"`
	Opt     float64 `parquet:"opt"`
	OptI    int64   `parquet:"opt_i"`
	Word    string  `parquet:"word"`
	List    []elem  `parquet:"list,list"`
}

type nullable struct {
	ID   int64    `parquet:"id"`
	Opt  *float64 `parquet:"opt,optional"`
	OptI *int32   `parquet:"opt_i,optional"`
	Word *string  `parquet:"word,optional"`
}

// Missing columns and NULLs read as the options say; an int32 column
// widens.
func TestNullsAndMissing(t *testing.T) {
	var b bytes.Buffer
	w := parquet.NewGenericWriter[nullable](&b)
	x, k, s := 2.5, int32(-3), "w"
	w.Write([]nullable{{1, &x, &k, &s}, {2, nil, nil, nil}})
	w.Close()
	opt := Options{
		Null:    func(name string) float64 { return map[string]float64{"opt": math.Inf(1), "opt_i": -9}[name] },
		Missing: func(name string) float64 { return map[string]float64{"missing": -1, "gone": 4}[name] },
	}
	got, err := ReadAll[other](open(t, b.Bytes()), int64(b.Len()), opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []other{{1, -1, 4, 2.5, -3, "w", nil}, {2, -1, 4, math.Inf(1), -9, "", nil}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%+v, want %+v", got, want)
	}
}

type floats struct {
	ID float64 `parquet:"id"`
}

// Integer fields take integral doubles up to 2^53, and name the row of
// any other value.
func TestIntegerFromDouble(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{3, ""},
		{MaxInt, ""},
		{2.5, "row 1: column id: 2.5 is not an integer"},
		{MaxInt * 2, "row 1: column id: 1.8014398509481984e+16 is out of range"},
		{math.Inf(-1), "row 1: column id: -Inf is not an integer"},
	} {
		var b bytes.Buffer
		w := parquet.NewGenericWriter[floats](&b)
		w.Write([]floats{{0}, {c.v}})
		w.Close()
		got, err := ReadAll[other](open(t, b.Bytes()), int64(b.Len()), Options{}, nil)
		if c.want == "" {
			if err != nil || got[1].ID != int64(c.v) {
				t.Errorf("%v: %v %v", c.v, got, err)
			}
			continue
		}
		re, ok := err.(*RowError)
		if !ok || !strings.HasPrefix(fmt.Sprintf("row %d: %s", re.Row, re.Msg), c.want) {
			t.Errorf("%v: error %v, want %q", c.v, err, c.want)
		}
	}
}

// withFooter returns b with its footer edited by edit.
func withFooter(t *testing.T, b []byte, edit func(*format.FileMetaData)) []byte {
	f := open(t, b)
	md := *f.Metadata()
	edit(&md)
	foot, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		t.Fatal(err)
	}
	n := binary.LittleEndian.Uint32(b[len(b)-8:])
	out := append([]byte(nil), b[:len(b)-8-int(n)]...)
	out = append(out, foot...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(foot)))
	return append(out, "PAR1"...)
}

// A footer that claims more than the file holds costs no more memory than
// the file can fill, and is a one-line error naming the column and row
// group.
func TestFooterClaims(t *testing.T) {
	rows := randomRows(rand.New(rand.NewPCG(3, 4)), 20)
	b := file(t, rows, 1<<20)
	huge := withFooter(t, b, func(md *format.FileMetaData) {
		md.NumRows = 1e9
		md.RowGroups[0].NumRows = 1e9
	})
	if n := RowsFor(1e9, int64(len(huge))); n > 4096+len(huge) {
		t.Fatalf("RowsFor %d", n)
	}
	_, err := ReadAll[row](open(t, huge), int64(len(huge)), Options{}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "column name, row group 0: fewer values than rows") {
		t.Fatalf("error %v", err)
	}
	// Row groups that disagree with the file's count.
	bad := withFooter(t, b, func(md *format.FileMetaData) { md.RowGroups[0].NumRows = 30 })
	if _, err := Open(bytes.NewReader(bad), int64(len(bad))); err == nil || !strings.Contains(err.Error(), "row group 0: 30 rows past the footer's 20") {
		t.Fatalf("error %v", err)
	}
	bad = withFooter(t, b, func(md *format.FileMetaData) { md.NumRows = 30 })
	if _, err := Open(bytes.NewReader(bad), int64(len(bad))); err == nil || !strings.Contains(err.Error(), "20 rows in row groups, the footer counts 30") {
		t.Fatalf("error %v", err)
	}
	// A footer length of 1 GB in a small file is refused before the
	// library allocates it.
	long := append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(long[len(long)-8:], 1<<30)
	if _, err := Open(bytes.NewReader(long), int64(len(long))); err == nil || !strings.Contains(err.Error(), "the footer claims 1073741824 bytes") {
		t.Fatalf("error %v", err)
	}
	if _, err := Open(bytes.NewReader([]byte("PAR1")), 4); err == nil {
		t.Fatal("4 bytes opened")
	}
}

// Every one-byte change of a small file is read or refused with a
// one-line error: never a panic, in this goroutine or a decoder's.
func TestCorruptBytes(t *testing.T) {
	b := file(t, randomRows(rand.New(rand.NewPCG(5, 6)), 20), 8)
	panics := 0 // library panics in a decoder goroutine, recovered
	for i := range b {
		for _, c := range []byte{0x94, 'D'} {
			m := append([]byte(nil), b...)
			m[i] = c
			f, err := Open(bytes.NewReader(m), int64(len(m)))
			if err == nil {
				_, err = ReadAll[row](f, int64(len(m)), Options{}, nil)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Fatalf("byte %d = %#x: %q", i, c, err)
			}
			if err != nil && strings.Contains(err.Error(), "not a readable Parquet page") {
				panics++
				if !strings.HasPrefix(err.Error(), "column ") || !strings.Contains(err.Error(), ", row group ") {
					t.Fatalf("byte %d = %#x: %q names no column and row group", i, c, err)
				}
			}
		}
	}
	if panics == 0 {
		t.Fatal("no change made a decoder panic: the test lost its subject")
	}
}

// check sees the rows filled so far, block by block, and its error stops
// the reading.
func TestCheck(t *testing.T) {
	rows := randomRows(rand.New(rand.NewPCG(7, 8)), 1500)
	b := file(t, rows, 1000)
	var his []int
	_, err := ReadAll[row](open(t, b), int64(len(b)), Options{}, func(rs []row, hi int) error {
		if len(rs) != hi || rs[hi-1].ID != rows[hi-1].ID {
			return fmt.Errorf("rows %d, hi %d", len(rs), hi)
		}
		his = append(his, hi)
		if hi == 1500 {
			return fmt.Errorf("stop")
		}
		return nil
	})
	if err == nil || err.Error() != "stop" || fmt.Sprint(his) != "[512 1000 1500]" {
		t.Fatalf("%v %v", his, err)
	}
}

func TestFloats(t *testing.T) {
	var b bytes.Buffer
	w := parquet.NewGenericWriter[nullable](&b, parquet.MaxRowsPerRowGroup(1))
	x := 2.5
	w.Write([]nullable{{1, &x, nil, nil}, {2, nil, nil, nil}})
	w.Close()
	got, err := Floats(open(t, b.Bytes()), int64(b.Len()), "opt", -1)
	if err != nil || fmt.Sprint(got) != "[2.5 -1]" {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := Floats(open(t, b.Bytes()), int64(b.Len()), "word", -1); err == nil {
		t.Fatal("a string column read as numbers")
	}
}

type wrow struct {
	A int64   `parquet:"a"`
	B float64 `parquet:"b"`
}

// The Writer's bytes are those of the library's row writer cut at the
// same places, whatever GOMAXPROCS, and its row groups have the size asked.
func TestWriter(t *testing.T) {
	rows := make([]wrow, 5000)
	for i := range rows {
		rows[i] = wrow{int64(i * i), float64(i) / 3}
	}
	write := func() []byte {
		var b bytes.Buffer
		pw := parquet.NewGenericWriter[wrow](&b, parquet.PageBufferSize(1024))
		w, err := NewWriter("w.parquet", pw, []string{"a", "b"}, 2000)
		if err != nil {
			t.Fatal(err)
		}
		for lo := 0; lo < len(rows); {
			n := min(len(rows)-lo, 700, w.Room())
			err := w.Write(n, func(ci, a, z int, vals []parquet.Value) []parquet.Value {
				for _, r := range rows[lo+a : lo+z] {
					if ci == 0 {
						vals = append(vals, parquet.Int64Value(r.A).Level(0, 0, 0))
					} else {
						vals = append(vals, parquet.DoubleValue(r.B).Level(0, 0, 1))
					}
				}
				return vals
			})
			if err != nil {
				t.Fatal(err)
			}
			lo += n
		}
		if err := pw.Close(); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	a := write()
	prev := runtime.GOMAXPROCS(1)
	one := write()
	runtime.GOMAXPROCS(prev)
	if !bytes.Equal(a, one) {
		t.Fatal("the bytes depend on GOMAXPROCS")
	}
	f := open(t, a)
	if len(f.RowGroups()) != 3 || f.RowGroups()[0].NumRows() != 2000 {
		t.Fatalf("%d row groups", len(f.RowGroups()))
	}
	got, err := ReadAll[wrow](f, int64(len(a)), Options{}, nil)
	if err != nil || !reflect.DeepEqual(got, rows) {
		t.Fatalf("read back: %v", err)
	}
	if _, err := NewWriter("w", parquet.NewGenericWriter[wrow](&bytes.Buffer{}), []string{"a", "c"}, 10); err == nil {
		t.Fatal("wrong column names accepted")
	}
}

func TestEach(t *testing.T) {
	hit := make([]int, 100)
	err := Each(100, func(i int) error {
		hit[i]++
		if i == 70 || i == 40 {
			return fmt.Errorf("e%d", i)
		}
		return nil
	})
	if err == nil || err.Error() != "e40" {
		t.Fatalf("error %v, want the first in index order", err)
	}
	for i, h := range hit {
		if h != 1 {
			t.Fatalf("f(%d) called %d times", i, h)
		}
	}
}

// A list, string or map in the footer that claims more elements than the
// footer has bytes left is refused before the library allocates it (the
// FuzzParquetTrace input under trace/testdata claimed 25 GB); every
// footer written, and every prefix of one, is walked without a panic.
func TestFooterLengths(t *testing.T) {
	b := file(t, randomRows(rand.New(rand.NewPCG(5, 6)), 20), 1<<20)
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	footer := b[len(b)-8-n : len(b)-8]
	if err := checkFooter(footer); err != nil {
		t.Fatalf("a written footer: %v", err)
	}
	for i := range footer {
		checkFooter(footer[:i]) // no panic
	}
	cases := map[string][]byte{
		// field 1 (list) of 10^9 i32 elements, then nothing
		"the footer claims a list of 1000000000 elements with 0 bytes left": {0x19, 0xf5, 0x80, 0x94, 0xeb, 0xdc, 0x03},
		// field 1 (binary) of 2^31 bytes
		"the footer claims a string of 2147483648 bytes with 0 bytes left": {0x18, 0x80, 0x80, 0x80, 0x80, 0x08},
		// field 1 (map) of 10^6 entries
		"the footer claims a map of 1000000 entries with 0 bytes left": {0x1b, 0xc0, 0x84, 0x3d, 0x55},
		"the footer ends inside a value":                               {0x15},
		"the footer holds a value of unknown type 13":                  {0x1d},
	}
	for want, enc := range cases {
		if err := checkFooter(enc); err == nil || err.Error() != want {
			t.Errorf("%x: %v, want %s", enc, err, want)
		}
	}
	deep := make([]byte, 0, 200)
	for range 100 {
		deep = append(deep, 0x1c) // field 1, a structure
	}
	if err := checkFooter(deep); err == nil || !strings.Contains(err.Error(), "nests more than 64 levels") {
		t.Errorf("deep: %v", err)
	}
	// In a file: one line, before any allocation of the claim.
	bad := append(append(append([]byte(nil), b[:len(b)-8-n]...), cases["the footer claims a list of 1000000000 elements with 0 bytes left"]...), 0, 0, 0, 0, 'P', 'A', 'R', '1')
	binary.LittleEndian.PutUint32(bad[len(bad)-8:], 7)
	if _, err := Open(bytes.NewReader(bad), int64(len(bad))); err == nil || err.Error() != "unreadable footer (the footer claims a list of 1000000000 elements with 0 bytes left)" {
		t.Errorf("file: %v", err)
	}
}

package plot

import (
	"reflect"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// Epoch is the creation and modification date written into every PDF, so
// that the same results give byte-identical files (no wall-clock time in
// outputs).
var Epoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

var detOnce sync.Once

// Deterministic sets fpdf's process-wide defaults so that every PDF it
// creates afterwards has a fixed creation/modification date (Epoch) and
// sorted resource catalogs. It is called by NewPDF.
func Deterministic() {
	detOnce.Do(func() {
		fpdf.SetDefaultCreationDate(Epoch)
		fpdf.SetDefaultModificationDate(Epoch)
		fpdf.SetDefaultCatalogSort(true)
	})
}

// PDF is a vgpdf canvas that transcodes text to the Windows-1252 code page
// its embedded fonts use (vgpdf passes UTF-8 bytes through, which shows
// "±" as "Â±"). Runes outside the code page print as '?'.
type PDF struct {
	*vgpdf.Canvas
}

// NewPDF returns a PDF canvas with fonts embedded and deterministic output
// (fixed creation date, sorted catalogs); see Deterministic.
func NewPDF(w, h vg.Length) *PDF {
	Deterministic()
	c := vgpdf.New(w, h)
	c.EmbedFonts(true)
	return &PDF{c}
}

// FillString implements vg.Canvas.
func (c *PDF) FillString(f font.Face, pt vg.Point, s string) {
	c.Canvas.FillString(f, pt, ToCP1252(s))
}

// ToCP1252 encodes s in Windows-1252 (unmappable runes become '?'). ASCII
// strings are returned unchanged.
func ToCP1252(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r < utf8.RuneSelf {
			b = append(b, byte(r))
			continue
		}
		if e, ok := charmap.Windows1252.EncodeRune(r); ok {
			b = append(b, e)
		} else {
			b = append(b, '?')
		}
	}
	return string(b)
}

// Bookmark adds an entry to the PDF's outline (the bookmarks a viewer
// shows beside the pages) pointing to the top of the current page; level
// 0 is a top-level entry, level k+1 a child of the last level-k one.
func (c *PDF) Bookmark(title string, level int) {
	// vgpdf keeps its fpdf document unexported; the outline is fpdf's.
	v := reflect.ValueOf(c.Canvas).Elem().FieldByName("doc")
	doc := *(**fpdf.Fpdf)(unsafe.Pointer(v.UnsafeAddr()))
	doc.Bookmark(ToCP1252(title), level, 0)
}

package policy

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Family describes a machine family to the registry: everything outside
// the family's package needs to know about its machines. A family's
// package registers it from an init function (RegisterFamily), the way it
// lists its policies; the runner, the catalog, the planner and the report
// ask the registry and never switch on a kind. The engine knows no
// family: it sees processors, jobs' needs and pieces.
type Family struct {
	Kind   string // the name before the colon: "mesh"
	Syntax string // how a machine is written: "mesh:WxH"
	Doc    string // one line, for `replay list`
	Order  int    // listing order (the built-in families: 10, 20, ...)

	// Parse parses the text after "kind:" (Kind is filled in by
	// ParseMachine); its error need not repeat the machine.
	Parse func(arg string) (Machine, error)
	// Format writes m after "kind:" ("32x32"), the inverse of Parse.
	Format func(m Machine) string
	// Words names m in words, for report titles ("a 32×32 mesh"); nil
	// gives "N processors".
	Words func(m Machine) string

	// Allocators returns the family's allocators (their Kinds name it);
	// Schedulers, when set, the schedulers of its own (the malleable
	// policies), after the scheduling families' in the catalog.
	Allocators func() []AllocatorSpec
	Schedulers func() []SchedulerSpec
	// Request is how its jobs ask for processors (RequestCount,
	// RequestRect, RequestSubcube): the workload models draw job sizes of
	// that form.
	Request string
	// Exclusive says only the policies naming this kind fit its machines
	// (a spec with no Kinds fits every other family, not this one).
	Exclusive bool
	// MaxJob, when set, is the largest processor count a trace job may
	// give on m (larger ones are rejected when converted); nil is m.Procs.
	MaxJob func(m Machine) int
	// Jobs, when set, turns converted trace jobs into this family's
	// requests on m (a mesh shape, a subcube's 2^k nodes): it returns the
	// jobs kept, in order, and how many it rejected.
	Jobs func(m Machine, jobs []Job, o JobOptions) (kept []Job, rejected int)
	// Check, when set, checks the jobs to replay on m (those Jobs kept,
	// partial records dropped) and may complete them (malleable jobs' run
	// times); an error stops the run.
	Check func(m Machine, jobs []Job) error

	// Placements says every run records its jobs' placements, for the
	// dispersion and pieces summary columns.
	Placements bool
	// Dispersion, when set, is the mean hop distance between two nodes of
	// a placement (NaN for fewer than two nodes); nil: the machine has no
	// topology, placements are not counted in the summary.
	Dispersion func(m Machine, ps []Piece) float64
	// Locality, when set, measures a placement's locality on m (see
	// Locality); nil: the family reports only Dispersion.
	Locality func(m Machine, ps []Piece) Locality
	// Hops, when set, returns the hop distance between two node numbers
	// of m (those of Nodes, or of range pieces), with Locality's
	// measure: the run-time stretch model (model/stretch) grows the best
	// placement of k nodes from it. nil: no stretch on this family.
	Hops func(m Machine) func(a, b int) int
	// Nodes, when set, appends the node numbers of piece p on m to dst;
	// nil: pieces are ranges of node numbers (X..X+W−1).
	Nodes func(m Machine, p Piece, dst []int) []int
	// Valid reports whether p is a well-formed piece of a placement on m.
	Valid func(m Machine, p Piece) bool
	// View says how placement views draw nodes: the axis label of node
	// numbers and how an occupancy chart reads ("" for the defaults:
	// processor indexes and ranges); Grid draws placements as W×H
	// rectangles (the report's mesh pages, report serve).
	View struct {
		Axis, How string
		Grid      bool
		// Layout and Rects, when set, lay the nodes out on a W×H plane
		// for the placement views of report serve (a 3-D machine: its
		// planes side by side): the plane's size, and the rectangles
		// (x, y, w, h; y = 0 the bottom row) of piece p appended to dst.
		Layout func(m Machine) (w, h int)
		Rects  func(m Machine, p Piece, dst [][4]int32) [][4]int32
		// Note says how that layout reads ("a column per router, ...").
		Note string
	}

	// Network, when set, returns the W×H mesh the communication models
	// (model/network) run on for m; nil: no communication model fits.
	Network func(m Machine) (w, h int)
	// Summary, when set, returns the family's extra summary columns of a
	// finished run, by column name, from its scheduler (malleable:
	// capped_share).
	Summary func(s Scheduler) map[string]float64

	// Mode, when set, is the replay mode whose runs this family's machines
	// are ("malleable"): results record a machine m of this family as the
	// Base machine of the same arguments with this mode, and `--mode Mode`
	// turns a Base machine into one of this family.
	Mode string
	Base string
}

// Locality is a placement's locality on its machine's network, in hops
// (links between routers or switches on the path between two nodes).
type Locality struct {
	MeanHops float64 // mean hop distance over distinct node pairs (NaN below two nodes)
	MaxHops  int     // the largest hop distance between two of its nodes
	Span     int     // switches (fat tree), groups (dragonfly) or planes (3-D) the placement touches
	// HopBytes is the hop-bytes of an all-to-all exchange of one byte
	// between every ordered pair of distinct nodes: the sum of their hops.
	HopBytes float64
}

// How a family's jobs ask for processors (Family.Request).
const (
	RequestCount   = "count"   // a processor count (flat)
	RequestRect    = "rect"    // a w×h submesh of a W×H grid (mesh)
	RequestSubcube = "subcube" // a k-dimensional subcube of 2^k nodes (hypercube)
)

// RequestOf returns how jobs ask for processors on machines of kind
// (Family.Request); RequestCount when the family says nothing or is not
// registered.
func RequestOf(kind string) string {
	if f := lookup(kind); f != nil && f.Request != "" {
		return f.Request
	}
	return RequestCount
}

// ParseProcs parses arg as a machine of kind with a positive number of
// interchangeable nodes (flat:N, malleable:P): a Family.Parse.
func ParseProcs(kind, arg string) (Machine, error) {
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 || n > MaxProcs {
		return Machine{}, fmt.Errorf("processor count must be an integer in 1..%d", MaxProcs)
	}
	return Machine{Kind: kind, Procs: n}, nil
}

// JobOptions are the replay options a family's job conversion reads.
type JobOptions struct {
	Shape string // mesh: the shaping rule of jobs that give only a processor count
}

// ModeRigid is the default replay mode: jobs hold their processors from
// start to end.
const ModeRigid = "rigid"

var (
	famMu    sync.RWMutex
	families = map[string]*Family{}
)

// RegisterFamily adds f to the registry; a family's package calls it from
// init. A second family of the same kind panics.
func RegisterFamily(f Family) {
	if f.Kind == "" || f.Parse == nil || f.Format == nil {
		panic("policy: RegisterFamily: a family needs a kind, a parser and a formatter")
	}
	famMu.Lock()
	defer famMu.Unlock()
	if _, dup := families[f.Kind]; dup {
		panic("policy: RegisterFamily: family " + f.Kind + " registered twice")
	}
	families[f.Kind] = &f
}

func lookup(kind string) *Family {
	famMu.RLock()
	defer famMu.RUnlock()
	return families[kind]
}

// FamilyOf returns the family of kind; ok is false when none is
// registered.
func FamilyOf(kind string) (f Family, ok bool) {
	p := lookup(kind)
	if p == nil {
		return Family{}, false
	}
	return *p, true
}

// Families returns the registered families in listing order.
func Families() []Family {
	famMu.RLock()
	out := make([]Family, 0, len(families))
	for _, f := range families {
		out = append(out, *f)
	}
	famMu.RUnlock()
	sort.Slice(out, func(a, b int) bool {
		if out[a].Order != out[b].Order {
			return out[a].Order < out[b].Order
		}
		return out[a].Kind < out[b].Kind
	})
	return out
}

// syntaxes is "flat:N, mesh:WxH or cube:n".
func syntaxes() string {
	var s []string
	for _, f := range Families() {
		s = append(s, f.Syntax)
	}
	return orList(s)
}

// kindList is "flat, mesh or cube".
func kindList() string {
	var s []string
	for _, f := range Families() {
		s = append(s, f.Kind)
	}
	return orList(s)
}

func orList(s []string) string {
	if len(s) == 0 {
		return "a machine family, and none is registered (a program registers them by importing model/catalog)"
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// Modes returns the replay modes: rigid, then those of the families.
func Modes() []string {
	out := []string{ModeRigid}
	for _, f := range Families() {
		if f.Mode != "" {
			out = append(out, f.Mode)
		}
	}
	return out
}

// CheckMode returns an error unless mode is "" (rigid) or one of Modes.
func CheckMode(mode string) error {
	if mode == "" {
		return nil
	}
	ms := Modes()
	for _, m := range ms {
		if mode == m {
			return nil
		}
	}
	return fmt.Errorf("mode %q: want %s", mode, orList(ms))
}

// InMode returns machine m replayed in mode: m itself in the rigid mode
// ("" or ModeRigid) or when m's family is mode's; a machine of the mode's
// Base kind becomes the mode family's machine of the same arguments
// (flat:100 in mode malleable is malleable:100). Any other machine is an
// error.
func InMode(m Machine, mode string) (Machine, error) {
	if err := CheckMode(mode); err != nil {
		return Machine{}, err
	}
	if mode == "" || mode == ModeRigid {
		return m, nil
	}
	for _, f := range Families() {
		if f.Mode != mode {
			continue
		}
		switch m.Kind {
		case f.Kind:
			return m, nil
		case f.Base:
			_, arg, _ := strings.Cut(m.String(), ":")
			return ParseMachine(f.Kind + ":" + arg)
		}
		return Machine{}, fmt.Errorf("machine %s: %s mode runs on %s machines only (%s)", m, mode, f.Base, f.Syntax)
	}
	return m, nil
}

// Recorded returns how results record machine m: its machine column and
// replay mode ("" for rigid runs). A family with a Mode records its
// machines as the Base machine of the same arguments in that mode
// (malleable:100 is "flat:100" in mode "malleable").
func Recorded(m Machine) (machine, mode string) {
	f := lookup(m.Kind)
	if f == nil || f.Mode == "" {
		return m.String(), ""
	}
	_, arg, _ := strings.Cut(m.String(), ":")
	return f.Base + ":" + arg, f.Mode
}

// FromRecord is the inverse of Recorded: the machine of results that
// record machine in mode ("" or ModeRigid: rigid).
func FromRecord(machine, mode string) (Machine, error) {
	m, err := ParseMachine(machine)
	if err != nil {
		return Machine{}, err
	}
	return InMode(m, mode)
}

// Fits reports whether a policy of the given kinds fits machines of kind:
// kinds lists it, or kinds is empty and kind's family is not Exclusive.
func Fits(kinds []string, kind string) bool {
	if len(kinds) == 0 {
		f := lookup(kind)
		return f == nil || !f.Exclusive
	}
	return Supports(kinds, kind)
}

// FitsMode reports whether a policy of the given kinds runs in replay mode
// mode: on the machines of the mode's family, or, in the rigid mode (""
// or ModeRigid), on those of some family without a mode.
func FitsMode(kinds []string, mode string) bool {
	rigid := mode == "" || mode == ModeRigid
	for _, f := range Families() {
		if (rigid && f.Mode == "" || !rigid && f.Mode == mode) && Fits(kinds, f.Kind) {
			return true
		}
	}
	return false
}

package ext

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// sysProcAttr puts the process in a group of its own (killed whole) and
// has the kernel kill it if this process dies first.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// cpuMask is a Linux CPU affinity mask (1,024 CPUs).
type cpuMask [16]uint64

func (m *cpuMask) has(c int) bool { return m[c/64]&(1<<(c%64)) != 0 }

func getAffinity(tid int, m *cpuMask) error {
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, uintptr(tid), unsafe.Sizeof(*m), uintptr(unsafe.Pointer(m)))
	if e != 0 {
		return e
	}
	return nil
}

func setAffinity(tid int, m *cpuMask) error {
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, uintptr(tid), unsafe.Sizeof(*m), uintptr(unsafe.Pointer(m)))
	if e != 0 {
		return e
	}
	return nil
}

var (
	pinMu   sync.Mutex
	pinUsed = map[int]int{} // CPU -> external processes pinned to it
)

// pin binds the calling goroutine's thread to one CPU, so that the
// process started next from it (which inherits the binding) and the
// engine take turns on that CPU: a round trip then needs no wake-up of an
// idle CPU, which costs more than the rest of it. The CPU is the least
// used by other pinned runs of this process among those allowed (the
// thread's current one on a tie). It returns the undo function and the
// CPU, or nil and -1 when there is nothing to gain (one CPU allowed) or it
// failed.
func pin() (func(), int) {
	runtime.LockOSThread()
	tid := syscall.Gettid()
	var old cpuMask
	if err := getAffinity(tid, &old); err != nil {
		runtime.UnlockOSThread()
		return nil, -1
	}
	cur := currentCPU()
	pinMu.Lock()
	best, n := -1, 0
	for c := 0; c < len(old)*64; c++ {
		if !old.has(c) {
			continue
		}
		n++
		if best < 0 || pinUsed[c] < pinUsed[best] || (pinUsed[c] == pinUsed[best] && c == cur) {
			best = c
		}
	}
	if n < 2 {
		pinMu.Unlock()
		runtime.UnlockOSThread()
		return nil, -1
	}
	var one cpuMask
	one[best/64] = 1 << (best % 64)
	if err := setAffinity(tid, &one); err != nil {
		pinMu.Unlock()
		runtime.UnlockOSThread()
		return nil, -1
	}
	pinUsed[best]++
	pinMu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			setAffinity(tid, &old)
			pinMu.Lock()
			if pinUsed[best]--; pinUsed[best] == 0 {
				delete(pinUsed, best)
			}
			pinMu.Unlock()
			runtime.UnlockOSThread() // a no-op on another goroutine: the thread then ends with its goroutine
		})
	}, best
}

// currentCPU is the CPU the calling thread last ran on (field 39 of
// /proc/thread-self/stat), -1 when unknown.
func currentCPU() int {
	b, err := os.ReadFile("/proc/thread-self/stat")
	if err != nil {
		return -1
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+1:]
	}
	f := strings.Fields(s)
	if len(f) < 37 { // fields from 3 on
		return -1
	}
	c, err := strconv.Atoi(f[36])
	if err != nil {
		return -1
	}
	return c
}

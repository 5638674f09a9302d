package trace

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// MemAvailable returns the memory available to a new process (MemAvailable
// of /proc/meminfo), in bytes; ok is false when it cannot be read.
func MemAvailable() (n int64, ok bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, found := strings.Cut(sc.Text(), ":")
		if !found || k != "MemAvailable" {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		if err != nil {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}

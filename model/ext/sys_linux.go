package ext

import "syscall"

// sysProcAttr puts the process in a group of its own (killed whole) and
// has the kernel kill it if this process dies first.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

//go:build !linux

package ext

import "syscall"

// sysProcAttr puts the process in a group of its own (killed whole).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// pin does nothing here (Linux only): nil, -1.
func pin() (func(), int) { return nil, -1 }

package reportcli

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// F19 (issue 25): report serve stopped by Ctrl-C (SIGINT) says it was
// interrupted, exits 130, and does not speak of partial output, which it
// has none of.
func TestServeInterruptMessage(t *testing.T) {
	cmd := exec.Command(os.Args[0], "serve", smallResults(t), "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "REPORT_TEST_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var out []string
	select {
	case l := <-lines:
		out = append(out, l)
		if !strings.HasPrefix(l, "serving ") {
			t.Fatalf("first line %q, want serving ...", l)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not start within 30 s")
	}
	cmd.Process.Signal(syscall.SIGINT)
	for l := range lines {
		if l != "" {
			out = append(out, l)
		}
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit %v, want 130", err)
	}
	if len(out) != 2 || out[1] != "report: interrupted (interrupt)" {
		t.Errorf("stderr %q, want the serving line and \"report: interrupted (interrupt)\"", out)
	}
}

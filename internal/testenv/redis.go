package testenv

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// RedisServer starts a redis-server of the test's own on a free loopback
// port (args first, so a config file can lead them: Sentinel rewrites
// its file, so one named *.conf is made afresh in the test's folder),
// for tests that stop Redis or run Sentinel or Cluster. It skips without
// redis-server, except in CI. stop kills it and waits; it also runs when
// the test ends.
func RedisServer(t *testing.T, args ...string) (port int, stop func()) {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but redis-server is not installed: .ci/run installs it")
		}
		t.Skip("redis-server is not installed")
	}
	port = FreePort(t)
	dir := t.TempDir()
	if len(args) > 0 && strings.HasSuffix(args[0], ".conf") {
		args[0] = filepath.Join(dir, filepath.Base(args[0]))
		if err := os.WriteFile(args[0], []byte(fmt.Sprintf("port %d\nbind 127.0.0.1\n", port)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, append(args, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "")...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	redisProcs.Store(port, cmd.Process)
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cmd.Process.Kill()
			cmd.Wait()
		}
	}
	t.Cleanup(stop)
	waitPort(t, port)
	return port, stop
}

// redisProcs are the processes RedisServer started, by port, for Freeze.
var redisProcs sync.Map

// Freeze stops the redis-server RedisServer started on port with SIGSTOP,
// as a Redis that hangs (swapping, a stalled disk, a paused VM) does: it
// accepts connections and reads nothing. thaw resumes it (SIGCONT); it
// also runs when the test ends.
func Freeze(t *testing.T, port int) (thaw func()) {
	t.Helper()
	p, ok := redisProcs.Load(port)
	if !ok {
		t.Fatalf("no redis-server of RedisServer on port %d", port)
	}
	proc := p.(*os.Process)
	if err := proc.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	thaw = func() { once.Do(func() { proc.Signal(syscall.SIGCONT) }) }
	t.Cleanup(thaw)
	return thaw
}

// waitPort waits until something listens on the loopback port.
func waitPort(t *testing.T, port int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing listens on %d", port)
		}
	}
}

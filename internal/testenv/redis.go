package testenv

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	// A redis-server that could not bind its port (another test's child
	// took it between FreePort and the start) exits at once: start it
	// again on another port rather than fail the test.
	for attempt := 1; ; attempt++ {
		var (
			cmd    *exec.Cmd
			exited <-chan struct{}
		)
		port, cmd, exited = startRedis(t, bin, args)
		stopped := false
		stop = func() {
			if !stopped {
				stopped = true
				cmd.Process.Kill()
				<-exited
			}
		}
		if waitListening(port, exited) {
			redisProcs.Store(port, cmd.Process)
			t.Cleanup(stop)
			return port, stop
		}
		stop()
		if attempt == 3 {
			t.Fatalf("redis-server %v: nothing listens on %d (tried 3 ports)", args, port)
		}
	}
}

// startRedis starts redis-server with args on a free port; exited closes
// when the process has ended and been reaped. A Cluster node also binds
// its bus on port+10000: that port must be free too and below the
// ephemeral range, where outgoing connections of tests beside this one
// would take it (CI once failed TestCluster so).
func startRedis(t *testing.T, bin string, args []string) (int, *exec.Cmd, <-chan struct{}) {
	t.Helper()
	port := FreePort(t)
	if slices.Contains(args, "--cluster-enabled") {
		port = clusterPort(t)
	}
	dir := t.TempDir()
	args = slices.Clone(args)
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
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	return port, cmd, exited
}

// clusterPort is a free port whose bus port (port+10000) is free as well,
// both below the ephemeral range.
func clusterPort(t *testing.T) int {
	t.Helper()
	for range 100 {
		port := FreePort(t)
		if port+10000 >= ephemeralLow() {
			continue
		}
		if ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port+10000)); err == nil {
			ln.Close()
			return port
		}
	}
	t.Fatal("no free port pair for a Redis Cluster node")
	return 0
}

// waitListening waits up to 10 s until something listens on the loopback
// port; false if nothing does or the process exits first.
func waitListening(port int, exited <-chan struct{}) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return true
		}
		select {
		case <-exited:
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
	return false
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

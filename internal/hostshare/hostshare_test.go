package hostshare

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestCount: workers that joined count until they leave; a worker
// process that died (SIGKILL, no Leave) stops counting and its file goes.
func TestCount(t *testing.T) {
	if os.Getenv("HOSTSHARE_CHILD") != "" {
		if _, err := Join(os.Getenv("HOSTSHARE_CHILD")); err != nil {
			os.Exit(1)
		}
		os.Stdout.WriteString("joined\n")
		time.Sleep(time.Minute)
		return
	}
	dir := t.TempDir()
	a, err := Join(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := a.Count(); n != 1 {
		t.Fatalf("one worker: %d", n)
	}
	b, err := Join(dir)
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command(os.Args[0], "-test.run", "^TestCount$")
	child.Env = append(os.Environ(), "HOSTSHARE_CHILD="+dir)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 7)
	if _, err := out.Read(buf); err != nil || string(buf) != "joined\n" {
		t.Fatalf("child: %q %v", buf, err)
	}
	if n := a.Count(); n != 3 {
		t.Errorf("two workers here and one in a child: %d", n)
	}
	child.Process.Kill()
	child.Wait()
	b.Leave()
	if n := a.Count(); n != 1 {
		t.Errorf("after a SIGKILL and a Leave: %d, want 1", n)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files left, want 1 (the dead worker's is removed)", len(entries))
	}
}

package memrelease

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// retained is the heap memory the process holds from the OS without
// using it: free heap pages not yet released.
func retained() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

var sink [][]byte

// TestReleaseWhenIdle: a job that leaves 64 MiB of garbage behind; once
// the releaser has seen no job for its delay, the free heap it held is
// back with the OS. A job that starts within the delay puts the release
// off until it ends.
func TestReleaseWhenIdle(t *testing.T) {
	r := New(50 * time.Millisecond)
	r.Start()
	for range 64 {
		sink = append(sink, make([]byte, 1<<20))
	}
	sink = nil
	runtime.GC() // the garbage is now free heap, still held
	r.Done()
	r.Start() // a second job within the delay
	time.Sleep(150 * time.Millisecond)
	if n := r.Released(); n != 0 {
		t.Fatalf("released %d times while a job ran", n)
	}
	before := retained()
	r.Done()
	deadline := time.Now().Add(5 * time.Second)
	for r.Released() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if r.Released() != 1 {
		t.Fatalf("released %d times after the last job, want 1", r.Released())
	}
	after := retained()
	t.Logf("free heap held: %d KiB before the release, %d KiB after", before>>10, after>>10)
	if after > 8<<20 {
		t.Errorf("after the release the process still holds %d MiB of free heap", after>>20)
	}
}

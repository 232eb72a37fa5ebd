// Package hostshare counts the Kiln workers running on this machine, so
// that a default memory budget computed from the machine's memory is
// shared among them instead of promised to each: two workers of two
// slots on 24 GB would otherwise each give a job 9 GB.
//
// Each worker holds an exclusive flock on a file of its own in a shared
// directory for as long as it runs; the kernel drops the lock when the
// process dies, however it dies, so a count never includes a dead worker.
package hostshare

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Dir is where workers register by default: the machine's temporary
// directory, which every process on it sees.
func Dir() string { return filepath.Join(os.TempDir(), "kiln-workers") }

// Member is one registered worker.
type Member struct {
	dir string
	f   *os.File
}

// Join registers a worker in dir until Leave.
func Join(dir string) (*Member, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, fmt.Sprintf("%d-*.lock", os.Getpid()))
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &Member{dir: dir, f: f}, nil
}

// Count is how many workers are registered in m's directory now, m
// included (at least 1). A file whose lock can be taken belongs to a
// worker that is gone, and is removed.
func (m *Member) Count() int {
	entries, err := os.ReadDir(m.dir)
	if err != nil {
		return 1
	}
	n := 0
	for _, e := range entries {
		name := filepath.Join(m.dir, e.Name())
		if !strings.HasSuffix(name, ".lock") {
			continue
		}
		if name == m.f.Name() {
			n++
			continue
		}
		f, err := os.OpenFile(name, os.O_RDWR, 0)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			n++ // held: a live worker
		} else {
			os.Remove(name)
		}
		f.Close()
	}
	return max(n, 1)
}

// Leave unregisters the worker.
func (m *Member) Leave() {
	os.Remove(m.f.Name())
	m.f.Close()
}

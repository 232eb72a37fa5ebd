package disk_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/storage/blobtest"
	"github.com/kilnhq/kiln/storage/disk"
)

func TestContract(t *testing.T) {
	blobtest.Run(t, func(t *testing.T) kiln.BlobStore {
		s, err := disk.New(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestLayout checks what an operator sees in the data folder: one file per
// blob at its key's path, no folders left behind by Delete, no temporary
// files left by a failed Put.
func TestLayout(t *testing.T) {
	dir := t.TempDir()
	s, err := disk.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	key := "objects/obj_abc/model.glb"
	if _, err := s.Put(t.Context(), key, strings.NewReader("glb"), 3, "model/gltf-binary"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "objects", "obj_abc", "model.glb")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("blob file: %v, %v", fi, err)
	}
	if _, err := s.Put(t.Context(), "objects/obj_abc/other", strings.NewReader("short"), 10, ""); err == nil {
		t.Error("Put of a short body: no error")
	}
	if tmp, err := os.ReadDir(filepath.Join(dir, ".tmp")); err != nil || len(tmp) != 0 {
		t.Errorf(".tmp after a failed Put: %v, %v; want empty", tmp, err)
	}
	if err := s.Delete(t.Context(), key); err != nil {
		t.Fatal(err)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 1 || entries[0].Name() != ".tmp" {
		t.Errorf("folder after Delete: %v, %v; want only .tmp", entries, err)
	}
}

func TestPresignPut(t *testing.T) {
	s, err := disk.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if url, ok, err := s.PresignPut(t.Context(), "k", 10, time.Hour); ok || url != "" || err != nil {
		t.Errorf("PresignPut = %q, %v, %v; want no URL", url, ok, err)
	}
}

// TestPingUnwritable replaces the temporary folder with a file, which
// stops even root (as CI may run) from writing there.
func TestPingUnwritable(t *testing.T) {
	dir := t.TempDir()
	s, err := disk.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, ".tmp")
	if err := os.Remove(tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tmp, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(t.Context()); kiln.KindOf(err) != kiln.KindUnavailable {
		t.Errorf("Ping = %v, want kind unavailable", err)
	}
}

func TestNewOnFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := disk.New(file); err == nil {
		t.Error("New on a file: no error")
	}
}

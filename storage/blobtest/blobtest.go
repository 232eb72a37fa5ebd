// Package blobtest is the contract suite of kiln.BlobStore. Every adapter
// runs it, so that the api and the workers can rely on one behaviour
// whichever store is configured.
package blobtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kilnhq/kiln"
)

// Run runs the suite. newStore returns an empty store, and is called once
// per subtest.
func Run(t *testing.T, newStore func(t *testing.T) kiln.BlobStore) {
	tests := []struct {
		name string
		run  func(t *testing.T, s kiln.BlobStore)
	}{
		{"RoundTrip", testRoundTrip},
		{"Missing", testMissing},
		{"Delete", testDelete},
		{"List", testList},
		{"Range", testRange},
		{"Overwrite", testOverwrite},
		{"FailedPut", testFailedPut},
		{"ConcurrentOverwrite", testConcurrentOverwrite},
		{"Large", testLarge},
		{"Copy", testCopy},
		{"InvalidKey", testInvalidKey},
		{"Ping", testPing},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore(t)) })
	}
}

func testRoundTrip(t *testing.T, s kiln.BlobStore) {
	cases := []struct {
		name        string
		data        []byte
		size        int64 // -1: unknown
		contentType string
		wantType    string
	}{
		{"known size", []byte("glTF binary, pretend"), 20, "model/gltf-binary", "model/gltf-binary"},
		{"unknown size", pattern(1 << 20), -1, "image/webp", "image/webp"},
		{"empty", nil, 0, "text/plain", "text/plain"},
		{"empty unknown size", nil, -1, "text/plain", "text/plain"},
		{"no content type", []byte("x"), 1, "", "application/octet-stream"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := fmt.Sprintf("objects/obj_%d/model.glb", i)
			put, err := s.Put(t.Context(), key, bytes.NewReader(c.data), c.size, c.contentType)
			if err != nil {
				t.Fatalf("Put: %v", err)
			}
			want := kiln.BlobInfo{Key: key, Size: int64(len(c.data)), ContentType: c.wantType, ETag: put.ETag}
			checkInfo(t, "Put", put, want)
			if len(put.ETag) < 3 || put.ETag[0] != '"' || put.ETag[len(put.ETag)-1] != '"' {
				t.Errorf("ETag %s is not a quoted string", put.ETag)
			}
			if put.LastModified.IsZero() {
				t.Error("Put: LastModified is zero")
			}

			stat, err := s.Stat(t.Context(), key)
			if err != nil {
				t.Fatalf("Stat: %v", err)
			}
			checkInfo(t, "Stat", stat, want)

			got, info := read(t, s, key)
			if !bytes.Equal(got, c.data) {
				t.Errorf("Get: read %d bytes, want the %d put", len(got), len(c.data))
			}
			checkInfo(t, "Get", info, want)
			if !info.LastModified.Equal(stat.LastModified) {
				t.Errorf("Get: LastModified %v, Stat said %v", info.LastModified, stat.LastModified)
			}
		})
	}
}

func testMissing(t *testing.T, s kiln.BlobStore) {
	put(t, s, "a/b/c", []byte("x"))
	// "a/b" exists only as a prefix of "a/b/c"; "a/b/c/d" goes below a blob.
	for _, key := range []string{"nope", "a/b", "a/b/c/d", "a/bc"} {
		_, err := s.Stat(t.Context(), key)
		wantKind(t, "Stat "+key, err, kiln.KindNotFound)
		b, err := s.Get(t.Context(), key)
		wantKind(t, "Get "+key, err, kiln.KindNotFound)
		if b != nil {
			t.Errorf("Get %s: non-nil blob with error", key)
		}
	}
}

func testDelete(t *testing.T, s kiln.BlobStore) {
	put(t, s, "objects/obj_1/model.glb", []byte("one"))
	put(t, s, "objects/obj_2/model.glb", []byte("two"))
	if err := s.Delete(t.Context(), "objects/obj_1/model.glb"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	_, err := s.Stat(t.Context(), "objects/obj_1/model.glb")
	wantKind(t, "Stat after Delete", err, kiln.KindNotFound)
	_, err = s.Get(t.Context(), "objects/obj_1/model.glb")
	wantKind(t, "Get after Delete", err, kiln.KindNotFound)
	for _, key := range []string{"objects/obj_1/model.glb", "never/was", "objects", "objects/obj_2"} {
		if err := s.Delete(t.Context(), key); err != nil {
			t.Errorf("Delete of missing key %s: %v, want nil", key, err)
		}
	}
	if got, _ := read(t, s, "objects/obj_2/model.glb"); string(got) != "two" {
		t.Errorf("the other blob reads %.32q after Delete, want %q", got, "two")
	}
	checkKeys(t, s, "", "objects/obj_2/model.glb")
	put(t, s, "objects/obj_1/model.glb", []byte("again"))
	if got, _ := read(t, s, "objects/obj_1/model.glb"); string(got) != "again" {
		t.Errorf("Put after Delete reads %.32q, want %q", got, "again")
	}
}

func testList(t *testing.T, s kiln.BlobStore) {
	keys := []string{"b/1", "a/2/x", "ab", "a/10", "a-b", "a/1"}
	infos := map[string]kiln.BlobInfo{}
	for i, k := range keys {
		infos[k] = put(t, s, k, bytes.Repeat([]byte{'k'}, i+1))
	}
	cases := []struct {
		prefix string
		want   []string
	}{
		{"", []string{"a-b", "a/1", "a/10", "a/2/x", "ab", "b/1"}},
		{"a", []string{"a-b", "a/1", "a/10", "a/2/x", "ab"}},
		{"a/", []string{"a/1", "a/10", "a/2/x"}},
		{"a/1", []string{"a/1", "a/10"}},
		{"a/2/", []string{"a/2/x"}},
		{"b/1", []string{"b/1"}},
		{"c/", nil},
		{"a/2/x/", nil},
	}
	for _, c := range cases {
		list := checkKeys(t, s, c.prefix, c.want...)
		for _, got := range list {
			want := infos[got.Key]
			if got.Size != want.Size || got.ETag != want.ETag {
				t.Errorf("List(%q): %s has size %d, ETag %s; Put said %d, %s", c.prefix, got.Key, got.Size, got.ETag, want.Size, want.ETag)
			}
		}
	}
}

func testRange(t *testing.T, s kiln.BlobStore) {
	data := pattern(100)
	info := put(t, s, "r", data)

	b := get(t, s, "r")
	if n, err := b.Seek(10, io.SeekStart); err != nil || n != 10 {
		t.Fatalf("Seek(10, start) = %d, %v", n, err)
	}
	got := make([]byte, 10)
	if _, err := io.ReadFull(b, got); err != nil || !bytes.Equal(got, data[10:20]) {
		t.Errorf("bytes 10-19: %v, %v; want %v", got, err, data[10:20])
	}
	if n, err := b.Seek(-5, io.SeekEnd); err != nil || n != 95 {
		t.Fatalf("Seek(-5, end) = %d, %v", n, err)
	}
	if got, err := io.ReadAll(b); err != nil || !bytes.Equal(got, data[95:]) {
		t.Errorf("last 5 bytes: %v, %v; want %v", got, err, data[95:])
	}

	cases := []struct {
		name       string
		header     map[string]string
		wantStatus int
		wantBody   []byte
	}{
		{"range", map[string]string{"Range": "bytes=10-19"}, http.StatusPartialContent, data[10:20]},
		{"suffix range", map[string]string{"Range": "bytes=-3"}, http.StatusPartialContent, data[97:]},
		{"if-none-match", map[string]string{"If-None-Match": info.ETag}, http.StatusNotModified, nil},
		{"stale if-range", map[string]string{"Range": "bytes=10-19", "If-Range": `"stale"`}, http.StatusOK, data},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := get(t, s, "r")
			req := httptest.NewRequest(http.MethodGet, "/r", nil)
			for k, v := range c.header {
				req.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			w.Header().Set("ETag", b.Info().ETag)
			http.ServeContent(w, req, "r", b.Info().LastModified, b)
			if w.Code != c.wantStatus || !bytes.Equal(w.Body.Bytes(), c.wantBody) {
				t.Errorf("status %d, body %v; want %d, %v", w.Code, w.Body.Bytes(), c.wantStatus, c.wantBody)
			}
		})
	}
}

func testOverwrite(t *testing.T, s kiln.BlobStore) {
	old := put(t, s, "k", []byte("old content"))
	info, err := s.Put(t.Context(), "k", strings.NewReader("new"), -1, "text/plain")
	if err != nil {
		t.Fatalf("Put: %v", err)
	}
	if info.ETag == old.ETag {
		t.Errorf("new content kept the old ETag %s", old.ETag)
	}
	got, ginfo := read(t, s, "k")
	if string(got) != "new" {
		t.Errorf("read %.32q, want %q", got, "new")
	}
	checkInfo(t, "Get", ginfo, kiln.BlobInfo{Key: "k", Size: 3, ContentType: "text/plain", ETag: info.ETag})
	checkKeys(t, s, "", "k")
}

var errReader = errors.New("reader broke")

// failingReader yields n bytes, then fails with errReader.
type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, errReader
	}
	p = p[:min(len(p), r.n)]
	r.n -= len(p)
	clear(p)
	return len(p), nil
}

// cancellingReader yields n bytes, cancels, then goes on yielding as a
// client still sending would.
type cancellingReader struct {
	n      int
	cancel context.CancelFunc
}

func (r *cancellingReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		r.cancel()
	} else {
		p = p[:min(len(p), r.n)]
		r.n -= len(p)
	}
	clear(p)
	return len(p), nil
}

func testFailedPut(t *testing.T, s kiln.BlobStore) {
	const half = 256 << 10
	cases := []struct {
		name    string
		size    int64
		reader  func(cancel context.CancelFunc) io.Reader
		is      error // the cause Put reports, for errors.Is
		invalid bool  // the client's fault: KindInvalid
	}{
		{"reader error", -1, func(context.CancelFunc) io.Reader { return &failingReader{n: half} }, errReader, false},
		{"reader error, known size", 2 * half, func(context.CancelFunc) io.Reader { return &failingReader{n: half} }, errReader, false},
		{"cancelled", -1, func(c context.CancelFunc) io.Reader {
			return io.LimitReader(&cancellingReader{n: half, cancel: c}, 2*half)
		}, context.Canceled, false},
		{"cancelled, known size", 2 * half, func(c context.CancelFunc) io.Reader {
			return io.LimitReader(&cancellingReader{n: half, cancel: c}, 2*half)
		}, context.Canceled, false},
		{"body shorter than size", 2 * half, func(context.CancelFunc) io.Reader { return bytes.NewReader(make([]byte, half)) }, nil, true},
		{"body longer than size", half, func(context.CancelFunc) io.Reader { return bytes.NewReader(make([]byte, 2*half)) }, nil, true},
	}
	old := put(t, s, "old/k", []byte("old content"))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, key := range []string{"old/k", "new/k"} {
				ctx, cancel := context.WithCancel(t.Context())
				_, err := s.Put(ctx, key, c.reader(cancel), c.size, "application/octet-stream")
				cancel()
				if err == nil {
					t.Errorf("Put %s: no error", key)
				}
				if c.is != nil && !errors.Is(err, c.is) {
					t.Errorf("Put %s: %v, want an error wrapping %v", key, err, c.is)
				}
				if c.invalid {
					wantKind(t, "Put "+key, err, kiln.KindInvalid)
				}
			}
			info, err := s.Stat(t.Context(), "old/k")
			if err != nil || info.ETag != old.ETag || info.Size != old.Size {
				t.Errorf("Stat of the old blob: %+v, %v; want %+v", info, err, old)
			}
			if got, _ := read(t, s, "old/k"); string(got) != "old content" {
				t.Errorf("old blob reads %d bytes: %.32q", len(got), got)
			}
			_, err = s.Stat(t.Context(), "new/k")
			wantKind(t, "Stat of the failed new blob", err, kiln.KindNotFound)
			checkKeys(t, s, "", "old/k")
		})
	}
}

func testConcurrentOverwrite(t *testing.T, s kiln.BlobStore) {
	contents := [][]byte{bytes.Repeat([]byte{'a'}, 256<<10), bytes.Repeat([]byte{'b'}, 384<<10)}
	etags := map[byte]string{}
	for _, c := range contents {
		etags[c[0]] = put(t, s, "k", c).ETag
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(done)
		for i := range 30 {
			c := contents[i%2]
			if _, err := s.Put(t.Context(), "k", bytes.NewReader(c), int64(len(c)), "application/octet-stream"); err != nil {
				t.Errorf("Put: %v", err)
				return
			}
		}
	})
	reads := make([]int, 2)
	for r := range reads {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				got, info := read(t, s, "k")
				want := contents[0]
				if len(got) > 0 && got[0] == 'b' {
					want = contents[1]
				}
				if !bytes.Equal(got, want) {
					t.Errorf("read %d bytes of mixed or partial content", len(got))
					return
				}
				if info.ETag != etags[want[0]] || info.Size != int64(len(want)) {
					t.Errorf("content of %c has Info %+v, want ETag %s", want[0], info, etags[want[0]])
				}
				reads[r]++
			}
		})
	}
	wg.Wait()
	if reads[0]+reads[1] == 0 {
		t.Error("no read completed during the overwrites")
	}
}

// testLarge streams a blob bigger than any buffer the adapters may hold,
// and checks through the allocation counter that none held it whole.
func testLarge(t *testing.T, s kiln.BlobStore) {
	if testing.Short() {
		t.Skip("40 MiB blob")
	}
	const size = 40 << 20
	gen := func() io.Reader { return io.LimitReader(rand.NewChaCha8([32]byte{1}), size) }
	want := sha256.New()
	io.Copy(want, gen())

	allocated := allocations(func() {
		info, err := s.Put(t.Context(), "large", gen(), -1, "application/octet-stream")
		if err != nil || info.Size != size {
			t.Fatalf("Put: %+v, %v", info, err)
		}
	})
	t.Logf("Put allocated %d KiB", allocated>>10)
	if allocated >= size {
		t.Errorf("Put allocated %d MiB for a %d MiB blob", allocated>>20, size>>20)
	}

	allocated = allocations(func() {
		b := get(t, s, "large")
		h := sha256.New()
		n, err := io.Copy(h, b)
		if err != nil || n != size || !bytes.Equal(h.Sum(nil), want.Sum(nil)) {
			t.Errorf("Get: read %d bytes, %v; or a different hash", n, err)
		}
	})
	t.Logf("Get allocated %d KiB", allocated>>10)
	if allocated >= size {
		t.Errorf("Get allocated %d MiB for a %d MiB blob", allocated>>20, size>>20)
	}
}

func allocations(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// testCopy: the copy reads like the original, keeps its content type, and
// stays as it was when the original is overwritten or deleted (the API
// relies on this to keep an upload URL away from a processed source).
func testCopy(t *testing.T, s kiln.BlobStore) {
	data := pattern(3 << 20)
	if _, err := s.Put(t.Context(), "incoming/o/src.glb", bytes.NewReader(data), int64(len(data)), "model/gltf-binary"); err != nil {
		t.Fatalf("Put: %v", err)
	}
	info, err := s.Copy(t.Context(), "incoming/o/src.glb", "uploads/o/src.glb")
	if err != nil {
		t.Fatalf("Copy: %v", err)
	}
	if info.Key != "uploads/o/src.glb" || info.Size != int64(len(data)) || info.ContentType != "model/gltf-binary" {
		t.Errorf("Copy said %+v, want key uploads/o/src.glb, %d bytes, model/gltf-binary", info, len(data))
	}
	put(t, s, "incoming/o/src.glb", []byte("replaced"))
	if got, gotInfo := read(t, s, "uploads/o/src.glb"); !bytes.Equal(got, data) || gotInfo.ETag != info.ETag {
		t.Errorf("the copy reads %d bytes (ETag %s) after its source was overwritten, want the %d copied (ETag %s)", len(got), gotInfo.ETag, len(data), info.ETag)
	}
	if err := s.Delete(t.Context(), "incoming/o/src.glb"); err != nil {
		t.Fatal(err)
	}
	if got, _ := read(t, s, "uploads/o/src.glb"); !bytes.Equal(got, data) {
		t.Errorf("the copy reads %d bytes after its source was deleted, want %d", len(got), len(data))
	}
	_, err = s.Copy(t.Context(), "incoming/o/src.glb", "uploads/o/other.glb")
	wantKind(t, "Copy of a missing blob", err, kiln.KindNotFound)
	_, err = s.Stat(t.Context(), "uploads/o/other.glb")
	wantKind(t, "Stat of a failed copy's target", err, kiln.KindNotFound)
	_, err = s.Copy(t.Context(), "uploads/o/src.glb", "../escape")
	wantKind(t, "Copy to an invalid key", err, kiln.KindInvalid)
}

func testInvalidKey(t *testing.T, s kiln.BlobStore) {
	for _, key := range []string{"", "/abs", "..", "a/../b", "a/..", "../a", "a//b", "a/", "./a", "a/./b",
		".tmp/x", `a\b`, `..\a`, "a\x00b", strings.Repeat("k", 1025)} {
		_, err := s.Put(t.Context(), key, strings.NewReader("x"), 1, "text/plain")
		wantKind(t, fmt.Sprintf("Put %q", key), err, kiln.KindInvalid)
		_, err = s.Get(t.Context(), key)
		wantKind(t, fmt.Sprintf("Get %q", key), err, kiln.KindInvalid)
		_, err = s.Stat(t.Context(), key)
		wantKind(t, fmt.Sprintf("Stat %q", key), err, kiln.KindInvalid)
		wantKind(t, fmt.Sprintf("Delete %q", key), s.Delete(t.Context(), key), kiln.KindInvalid)
	}
	for _, prefix := range []string{"../", "/", "a//", `a\`} {
		_, err := s.List(t.Context(), prefix)
		wantKind(t, fmt.Sprintf("List %q", prefix), err, kiln.KindInvalid)
	}
	checkKeys(t, s, "")
}

func testPing(t *testing.T, s kiln.BlobStore) {
	if err := s.Ping(t.Context()); err != nil {
		t.Errorf("Ping: %v", err)
	}
}

// pattern returns n bytes that differ at every offset of a small window,
// so that a read from a wrong offset shows.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i>>8)
	}
	return b
}

func put(t *testing.T, s kiln.BlobStore, key string, data []byte) kiln.BlobInfo {
	t.Helper()
	info, err := s.Put(t.Context(), key, bytes.NewReader(data), int64(len(data)), "application/octet-stream")
	if err != nil {
		t.Fatalf("Put %s: %v", key, err)
	}
	return info
}

func get(t *testing.T, s kiln.BlobStore, key string) kiln.Blob {
	t.Helper()
	b, err := s.Get(t.Context(), key)
	if err != nil {
		t.Fatalf("Get %s: %v", key, err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// read is safe in goroutines: it reports with Errorf, not Fatalf.
func read(t *testing.T, s kiln.BlobStore, key string) ([]byte, kiln.BlobInfo) {
	t.Helper()
	b, err := s.Get(t.Context(), key)
	if err != nil {
		t.Errorf("Get %s: %v", key, err)
		return nil, kiln.BlobInfo{}
	}
	defer b.Close()
	data, err := io.ReadAll(b)
	if err != nil {
		t.Errorf("reading %s: %v", key, err)
	}
	return data, b.Info()
}

func checkInfo(t *testing.T, what string, got, want kiln.BlobInfo) {
	t.Helper()
	got.LastModified = want.LastModified
	if got != want {
		t.Errorf("%s: %+v, want %+v", what, got, want)
	}
}

func checkKeys(t *testing.T, s kiln.BlobStore, prefix string, want ...string) []kiln.BlobInfo {
	t.Helper()
	list, err := s.List(t.Context(), prefix)
	if err != nil {
		t.Fatalf("List(%q): %v", prefix, err)
	}
	var got []string
	for _, info := range list {
		got = append(got, info.Key)
	}
	if !slices.Equal(got, want) {
		t.Errorf("List(%q) = %q, want %q", prefix, got, want)
	}
	return list
}

func wantKind(t *testing.T, what string, err error, kind kiln.Kind) {
	t.Helper()
	if got := kiln.KindOf(err); err == nil || got != kind {
		t.Errorf("%s: error %v of kind %v, want kind %v", what, err, got, kind)
	}
}

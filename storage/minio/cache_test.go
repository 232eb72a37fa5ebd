package minio

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/storage/blobcache"
	"github.com/kilnhq/kiln/storage/blobtest"
)

// testCacheContract runs the BlobStore contract through an on-node cache
// in front of a real MinIO, and checks that a cached blob comes back as a
// file with MinIO's ETag.
func testCacheContract(t *testing.T) {
	testConfig(t)
	cached := func(t *testing.T) *blobcache.Cache {
		c, err := blobcache.New(newStore(t, testConfig(t)), filepath.Join(t.TempDir(), "cache"), 64<<20)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	blobtest.Run(t, func(t *testing.T) kiln.BlobStore { return cached(t) })

	c := cached(t)
	info, err := c.Put(t.Context(), "avatars/a/variants/v.glb", strings.NewReader("glTF"), 4, "model/gltf-binary")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		b, err := c.Get(t.Context(), "avatars/a/variants/v.glb")
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(b)
		b.Close()
		if _, isFile := b.(*blobcache.File); !isFile || string(data) != "glTF" || b.Info().ETag != info.ETag {
			t.Errorf("cached get: file=%v %q %+v", isFile, data, b.Info())
		}
	}
}

// testPresignGet: the signed URL downloads the blob straight from MinIO,
// through the cache too; the expiry is bounded as PresignPut's.
func testPresignGet(t *testing.T) {
	s := newStore(t, testConfig(t))
	if _, err := s.Put(t.Context(), "avatars/a/model.glb", strings.NewReader("signed"), 6, "model/gltf-binary"); err != nil {
		t.Fatal(err)
	}
	c, err := blobcache.New(s, filepath.Join(t.TempDir(), "cache"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []kiln.GetPresigner{s, c} {
		u, ok, err := p.PresignGet(t.Context(), "avatars/a/model.glb", time.Minute)
		if err != nil || !ok {
			t.Fatalf("PresignGet: %v, %v", ok, err)
		}
		res, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || string(body) != "signed" {
			t.Errorf("GET the presigned URL: %s %q", res.Status, body)
		}
	}
	if _, _, err := s.PresignGet(t.Context(), "avatars/a/model.glb", 8*24*time.Hour); kiln.KindOf(err) != kiln.KindInvalid {
		t.Errorf("PresignGet for 8 days: %v, want kind invalid", err)
	}
}

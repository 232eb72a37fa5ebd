package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/testenv"
	"github.com/kilnhq/kiln/storage/blobcache"
	"github.com/kilnhq/kiln/storage/disk"
	miniostore "github.com/kilnhq/kiln/storage/minio"
)

// blobServer serves key through serveStored on a real listener (sendfile
// needs a TCP connection), as immutable under /v, as a mutable blob under
// /b and as a public one that is revalidated (an avatar's) under /a.
func blobServer(t *testing.T, blobs kiln.BlobStore, redirect bool, key string) *httptest.Server {
	t.Helper()
	s := New(Config{Blobs: blobs, DownloadRedirect: redirect, Registry: prometheus.NewRegistry()})
	r := gin.New()
	for path, cache := range map[string]cachePolicy{"/v": cacheImmutable, "/b": cacheRevalidate, "/a": cacheShared} {
		h := func(c *gin.Context) { s.serveStored(c, key, "m.glb", "model/gltf-binary", cache) }
		r.GET(path, h)
		r.HEAD(path, h)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv
}

func do(t *testing.T, method, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

// TestStoredDownloads: through the on-node cache (the sendfile path) and
// straight from the store (local disk, and a real MinIO when
// KILN_TEST_S3_ENDPOINT names one: a response body streamed through), a download answers the whole blob, its ETag,
// a 304 on If-None-Match, a 206 range, a bodiless HEAD with the length;
// variants are immutable, public without credentials and private with.
func TestStoredDownloads(t *testing.T) {
	d, err := disk.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cache, err := blobcache.New(d, filepath.Join(t.TempDir(), "cache"), 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("glTF-binary-bytes-"), 100_000) // 1.8 MB
	info, err := d.Put(context.Background(), "avatars/a/variants/v.glb", bytes.NewReader(data), int64(len(data)), "model/gltf-binary")
	if err != nil {
		t.Fatal(err)
	}
	stores := map[string]kiln.BlobStore{"cache": cache, "store": d}
	etags := map[string]string{"cache": info.ETag, "store": info.ETag}
	if endpoint := os.Getenv("KILN_TEST_S3_ENDPOINT"); endpoint != "" {
		m, err := miniostore.New(t.Context(), miniostore.Config{
			Endpoint: endpoint, AccessKey: os.Getenv("KILN_TEST_S3_ACCESS_KEY"), SecretKey: os.Getenv("KILN_TEST_S3_SECRET_KEY"),
			Bucket: testenv.Bucket(t),
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Delete(context.Background(), "avatars/a/variants/v.glb") })
		mi, err := m.Put(t.Context(), "avatars/a/variants/v.glb", bytes.NewReader(data), int64(len(data)), "model/gltf-binary")
		if err != nil {
			t.Fatal(err)
		}
		mcache, err := blobcache.New(m, filepath.Join(t.TempDir(), "mcache"), 64<<20)
		if err != nil {
			t.Fatal(err)
		}
		stores["minio"], stores["minio cache"] = m, mcache
		etags["minio"], etags["minio cache"] = mi.ETag, mi.ETag
	}
	for name, store := range stores {
		info := kiln.BlobInfo{ETag: etags[name]}
		srv := blobServer(t, store, false, "avatars/a/variants/v.glb")
		for range 2 { // a miss, then a hit
			res, body := do(t, "GET", srv.URL+"/v")
			if res.StatusCode != 200 || !bytes.Equal(body, data) || res.Header.Get("ETag") != info.ETag {
				t.Fatalf("%s GET: %s, %d bytes, ETag %q", name, res.Status, len(body), res.Header.Get("ETag"))
			}
			if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
				t.Errorf("%s variant Cache-Control %q", name, cc)
			}
		}
		res, _ := do(t, "GET", srv.URL+"/v", "Authorization", "Bearer kiln_x")
		if cc := res.Header.Get("Cache-Control"); cc != "private, max-age=31536000, immutable" {
			t.Errorf("%s variant with credentials: Cache-Control %q", name, cc)
		}
		res, _ = do(t, "GET", srv.URL+"/b")
		if cc := res.Header.Get("Cache-Control"); cc != "private, max-age=0, must-revalidate" {
			t.Errorf("%s mutable blob: Cache-Control %q", name, cc)
		}
		for auth, want := range map[string]string{"": "public, no-cache", "Bearer kiln_x": "private, no-cache"} {
			res, _ = do(t, "GET", srv.URL+"/a", "Authorization", auth)
			if cc := res.Header.Get("Cache-Control"); cc != want || res.Header.Get("ETag") != info.ETag {
				t.Errorf("%s avatar file (Authorization %q): Cache-Control %q, ETag %q", name, auth, cc, res.Header.Get("ETag"))
			}
		}
		if res, _ := do(t, "GET", srv.URL+"/a", "If-None-Match", info.ETag); res.StatusCode != 304 {
			t.Errorf("%s avatar file If-None-Match: %s, want 304", name, res.Status)
		}
		res, body := do(t, "GET", srv.URL+"/v", "If-None-Match", info.ETag)
		if res.StatusCode != 304 || len(body) != 0 {
			t.Errorf("%s If-None-Match: %s, %d bytes", name, res.Status, len(body))
		}
		res, body = do(t, "GET", srv.URL+"/v", "Range", "bytes=1000-1999999")
		if res.StatusCode != 206 || !bytes.Equal(body, data[1000:]) || res.Header.Get("Content-Range") != "bytes 1000-1799999/1800000" {
			t.Errorf("%s Range: %s, %d bytes, %q", name, res.Status, len(body), res.Header.Get("Content-Range"))
		}
		res, body = do(t, "HEAD", srv.URL+"/v")
		if res.StatusCode != 200 || len(body) != 0 || res.ContentLength != int64(len(data)) {
			t.Errorf("%s HEAD: %s, %d bytes, length %d", name, res.Status, len(body), res.ContentLength)
		}
		// Errors net/http's ServeContent answers in plain text come in
		// the error body, with the 416's Content-Range kept.
		for _, tc := range []struct {
			header, value string
			status        int
			code, also    string
		}{
			{"Range", "bytes=2000000-2000100", 416, "range_not_satisfiable", "1800000 bytes"},
			{"If-Match", `"not-the-etag"`, 412, "precondition_failed", "If-Match"},
		} {
			res, body = do(t, "GET", srv.URL+"/v", tc.header, tc.value)
			var e errorBody
			if res.StatusCode != tc.status || json.Unmarshal(body, &e) != nil || e.Status != "error" || e.Error.Code != tc.code ||
				!strings.Contains(e.Error.Message, tc.also) || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
				t.Errorf("%s %s: %s %q %s", name, tc.header, res.Status, res.Header.Get("Content-Type"), body)
			}
			if tc.status == 416 && res.Header.Get("Content-Range") != "bytes */1800000" {
				t.Errorf("%s 416: Content-Range %q, want bytes */1800000", name, res.Header.Get("Content-Range"))
			}
		}
	}
}

// TestDownloadRedirect: with KILN_DOWNLOAD_REDIRECT and a real MinIO, a
// variant download is a 302 to a presigned URL that serves the blob, a
// matching If-None-Match is still Kiln's 304, HEAD and mutable blobs are
// served; on local disk nothing redirects.
func TestDownloadRedirect(t *testing.T) {
	d, err := disk.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Put(context.Background(), "k", strings.NewReader("glTF"), 4, "model/gltf-binary"); err != nil {
		t.Fatal(err)
	}
	if res, _ := do(t, "GET", blobServer(t, d, true, "k").URL+"/v"); res.StatusCode != 200 {
		t.Errorf("on local disk: %s, want 200", res.Status)
	}

	endpoint := os.Getenv("KILN_TEST_S3_ENDPOINT")
	if endpoint == "" {
		t.Skip("KILN_TEST_S3_ENDPOINT is unset: the redirect needs a real MinIO")
	}
	m, err := miniostore.New(t.Context(), miniostore.Config{
		Endpoint: endpoint, AccessKey: os.Getenv("KILN_TEST_S3_ACCESS_KEY"), SecretKey: os.Getenv("KILN_TEST_S3_SECRET_KEY"),
		Bucket: testenv.Bucket(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Delete(context.Background(), "avatars/a/v.glb") })
	info, err := m.Put(t.Context(), "avatars/a/v.glb", strings.NewReader("signed glTF"), 11, "model/gltf-binary")
	if err != nil {
		t.Fatal(err)
	}
	cache, err := blobcache.New(m, filepath.Join(t.TempDir(), "cache"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	srv := blobServer(t, cache, true, "avatars/a/v.glb")
	res, _ := do(t, "GET", srv.URL+"/v")
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusFound || !strings.HasPrefix(loc, "http://"+endpoint+"/") {
		t.Fatalf("GET: %s to %q, want a 302 to MinIO", res.Status, loc)
	}
	if res, body := do(t, "GET", loc); res.StatusCode != 200 || string(body) != "signed glTF" {
		t.Errorf("the presigned URL: %s %q", res.Status, body)
	}
	if res, _ := do(t, "GET", srv.URL+"/v", "If-None-Match", info.ETag); res.StatusCode != 304 {
		t.Errorf("If-None-Match: %s, want 304", res.Status)
	}
	if res, _ := do(t, "HEAD", srv.URL+"/v"); res.StatusCode != 200 || res.ContentLength != 11 {
		t.Errorf("HEAD: %s, length %d", res.Status, res.ContentLength)
	}
	if res, body := do(t, "GET", srv.URL+"/b"); res.StatusCode != 200 || string(body) != "signed glTF" {
		t.Errorf("a mutable blob: %s %q, want served", res.Status, body)
	}
	if res, body := do(t, "GET", srv.URL+"/a"); res.StatusCode != 200 || string(body) != "signed glTF" {
		t.Errorf("an avatar's file, which an edit replaces: %s %q, want served, not redirected", res.Status, body)
	}
}

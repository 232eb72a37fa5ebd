package minio

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/storage/blobtest"
)

// testConfig points at the MinIO of KILN_TEST_S3_* with a fresh bucket
// name, so that tests never see each other's blobs.
func testConfig(t *testing.T) Config {
	t.Helper()
	endpoint := os.Getenv("KILN_TEST_S3_ENDPOINT")
	if endpoint == "" {
		t.Skip("KILN_TEST_S3_ENDPOINT is unset; CI sets it, with KILN_TEST_S3_ACCESS_KEY and KILN_TEST_S3_SECRET_KEY, to a real MinIO server")
	}
	var b [6]byte
	rand.Read(b[:])
	return Config{
		Endpoint:  endpoint,
		AccessKey: os.Getenv("KILN_TEST_S3_ACCESS_KEY"),
		SecretKey: os.Getenv("KILN_TEST_S3_SECRET_KEY"),
		Bucket:    "kiln-test-" + hex.EncodeToString(b[:]),
	}
}

// newStore opens a store on a fresh bucket and removes the bucket, with
// its objects and unfinished uploads, when the test ends.
func newStore(t *testing.T, cfg Config) *Store {
	t.Helper()
	s, err := New(t.Context(), cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		objects := s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Recursive: true})
		for res := range s.client.RemoveObjects(ctx, s.bucket, objects, minio.RemoveObjectsOptions{}) {
			t.Errorf("removing %s: %v", res.ObjectName, res.Err)
		}
		for up := range s.client.ListIncompleteUploads(ctx, s.bucket, "", true) {
			if err := s.client.RemoveIncompleteUpload(ctx, s.bucket, up.Key); err != nil {
				t.Errorf("aborting the upload of %s: %v", up.Key, err)
			}
		}
		if err := s.client.RemoveBucket(ctx, s.bucket); err != nil {
			t.Errorf("removing bucket %s: %v", s.bucket, err)
		}
	})
	return s
}

// TestMinIO runs every test that needs the real MinIO of KILN_TEST_S3_*
// as its subtests, so that without one the package skips once, naming
// the server (go test -run 'TestMinIO/Contract' picks one).
func TestMinIO(t *testing.T) {
	testConfig(t)
	for _, tt := range []struct {
		name string
		run  func(*testing.T)
	}{
		{"Contract", testContract},
		{"NewCreatesBucket", testNewCreatesBucket},
		{"PresignPut", testPresignPut},
		{"PresignPutLength", testPresignPutLength},
		{"PresignPutPublicEndpoint", testPresignPutPublicEndpoint},
		{"CacheContract", testCacheContract},
		{"PresignGet", testPresignGet},
		{"DownloadKeepsConnection", testDownloadKeepsConnection},
		{"DownloadSplices", testDownloadSplices},
	} {
		t.Run(tt.name, tt.run)
	}
}

func testContract(t *testing.T) {
	testConfig(t) // skips once rather than in every subtest
	blobtest.Run(t, func(t *testing.T) kiln.BlobStore { return newStore(t, testConfig(t)) })
}

func testNewCreatesBucket(t *testing.T) {
	cfg := testConfig(t)
	client, err := minio.New(cfg.Endpoint, &minio.Options{Creds: credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, "")})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := client.BucketExists(t.Context(), cfg.Bucket); err != nil || ok {
		t.Fatalf("bucket %s before New: exists=%v, %v", cfg.Bucket, ok, err)
	}
	newStore(t, cfg)
	if ok, err := client.BucketExists(t.Context(), cfg.Bucket); err != nil || !ok {
		t.Fatalf("bucket %s after New: exists=%v, %v", cfg.Bucket, ok, err)
	}
	if _, err := New(t.Context(), cfg); err != nil {
		t.Errorf("New on an existing bucket: %v", err)
	}
}

func testPresignPut(t *testing.T) {
	s := newStore(t, testConfig(t))
	url, ok, err := s.PresignPut(t.Context(), "uploads/u1", 0, time.Minute)
	if err != nil || !ok {
		t.Fatalf("PresignPut: %v, %v", ok, err)
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPut, url, strings.NewReader("uploaded"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("PUT to the presigned URL: %s", res.Status)
	}
	info, err := s.Stat(t.Context(), "uploads/u1")
	if err != nil || info.Size != int64(len("uploaded")) {
		t.Errorf("Stat after the presigned PUT: %+v, %v", info, err)
	}
	_, _, err = s.PresignPut(t.Context(), "uploads/u2", 0, 8*24*time.Hour)
	if kiln.KindOf(err) != kiln.KindInvalid {
		t.Errorf("PresignPut for 8 days: %v, want kind invalid", err)
	}
}

// testPresignPutLength: a URL signed for n bytes takes a body of n bytes
// and MinIO itself refuses any other length, so nothing is stored.
func testPresignPutLength(t *testing.T) {
	s := newStore(t, testConfig(t))
	cases := []struct {
		name   string
		body   string
		wantOK bool
	}{
		{"longer", "twelve bytes", false},
		{"shorter", "four", false},
		{"declared", "eight by", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := "incoming/" + c.name
			u, ok, err := s.PresignPut(t.Context(), key, 8, time.Minute)
			if err != nil || !ok {
				t.Fatalf("PresignPut: %v, %v", ok, err)
			}
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPut, u, strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if got := res.StatusCode == http.StatusOK; got != c.wantOK {
				t.Fatalf("PUT of %d bytes to a URL signed for 8: %s", len(c.body), res.Status)
			}
			info, err := s.Stat(t.Context(), key)
			switch {
			case c.wantOK && (err != nil || info.Size != 8):
				t.Errorf("Stat after the PUT: %+v, %v; want 8 bytes", info, err)
			case !c.wantOK && kiln.KindOf(err) != kiln.KindNotFound:
				t.Errorf("Stat after a refused PUT: %+v, %v; want not found", info, err)
			}
		})
	}
}

// testPresignPutPublicEndpoint signs for the name clients use (here the
// same server as 127.0.0.1 when Kiln knows it as localhost, or the other
// way round): the URL carries that host, and a PUT to it lands in the
// bucket Kiln reads.
func testPresignPutPublicEndpoint(t *testing.T) {
	cfg := testConfig(t)
	host, port, err := net.SplitHostPort(cfg.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	public := "127.0.0.1"
	if host == public {
		public = "localhost"
	}
	cfg.PublicEndpoint = net.JoinHostPort(public, port)
	s := newStore(t, cfg)
	u, ok, err := s.PresignPut(t.Context(), "uploads/pub", 0, time.Minute)
	if err != nil || !ok {
		t.Fatalf("PresignPut: %v, %v", ok, err)
	}
	if !strings.HasPrefix(u, "http://"+cfg.PublicEndpoint+"/") {
		t.Fatalf("presigned URL %s is not on the public endpoint %s", u, cfg.PublicEndpoint)
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPut, u, strings.NewReader("public"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("PUT to the public presigned URL: %s", res.Status)
	}
	if info, err := s.Stat(t.Context(), "uploads/pub"); err != nil || info.Size != int64(len("public")) {
		t.Errorf("Stat after the public PUT: %+v, %v", info, err)
	}
}

// TestUnreachable needs no server: it dials a loopback port just closed.
func TestUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := l.Addr().String()
	l.Close()

	cfg := Config{Endpoint: endpoint, AccessKey: "k", SecretKey: "secret", Bucket: "kiln"}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err = New(ctx, cfg)
	if kiln.KindOf(err) != kiln.KindUnavailable {
		t.Errorf("New: %v, want kind unavailable", err)
	}
	t.Logf("New: %v", err)

	client, err := minio.New(endpoint, &minio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := &Store{client: client, bucket: "kiln"}
	_, err = s.Stat(ctx, "objects/obj_1/model.glb")
	if kiln.KindOf(err) != kiln.KindUnavailable {
		t.Errorf("Stat: %v, want kind unavailable", err)
	}
	if err := s.Ping(ctx); kiln.KindOf(err) != kiln.KindUnavailable {
		t.Errorf("Ping: %v, want kind unavailable", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v despite a 2 s deadline", d)
	}
}

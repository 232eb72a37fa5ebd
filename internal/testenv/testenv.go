// Package testenv points integration tests at the real servers that
// .ci/run starts (KILN_TEST_REDIS_URL, KILN_TEST_S3_*), or at the embedded
// defaults of kiln serve when they are not set, so the same tests run in
// both places.
package testenv

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln/internal/config"
)

// Config returns a configuration for one test: a fresh data dir, listeners
// on free loopback ports, and the real Redis (database db, flushed) and a
// fresh S3 bucket when the environment names them. Each test package that
// uses Redis takes its own db number, because go test runs packages in
// parallel and their workers must not take each other's tasks.
func Config(t *testing.T, db int) *config.Config {
	t.Helper()
	env := map[string]string{
		"KILN_DATA_DIR":      t.TempDir(),
		"KILN_PLATFORM_ADDR": "127.0.0.1:0",
		"KILN_AVATAR_ADDR":   "127.0.0.1:0",
		"KILN_WORKER_ADDR":   "127.0.0.1:0",
		"KILN_LOG_LEVEL":     "warn",
		"KILN_ADMIN_KEY":     "test-admin-key-0123456789",
		// A warm-up builds avatars at start: a test that wants one turns it on.
		"KILN_CREATOR_WARM": "false",
	}
	if u := os.Getenv("KILN_TEST_REDIS_URL"); u != "" {
		url := fmt.Sprintf("%s/%d", strings.TrimRight(u, "/"), db)
		opt, err := goredis.ParseURL(url)
		if err != nil {
			t.Fatalf("KILN_TEST_REDIS_URL: %v", err)
		}
		rdb := goredis.NewClient(opt)
		if err := rdb.FlushDB(context.Background()).Err(); err != nil {
			t.Fatalf("flush test redis: %v", err)
		}
		rdb.Close()
		env["KILN_REDIS_URL"] = url
	}
	if ep := os.Getenv("KILN_TEST_S3_ENDPOINT"); ep != "" {
		env["KILN_S3_ENDPOINT"] = ep
		env["KILN_S3_ACCESS_KEY"] = os.Getenv("KILN_TEST_S3_ACCESS_KEY")
		env["KILN_S3_SECRET_KEY"] = os.Getenv("KILN_TEST_S3_SECRET_KEY")
		env["KILN_S3_BUCKET"] = Bucket(t)
	}
	cfg, err := config.FromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Bucket names a fresh bucket for t and, on a real MinIO, removes it with
// its objects when t ends: a developer's MinIO outlives test runs, and
// each run used to leave hundreds of buckets and gigabytes behind.
func Bucket(t *testing.T) string {
	name := strings.ToLower(t.Name())
	var b strings.Builder
	for _, r := range name {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	s := b.String()
	if len(s) > 40 {
		s = s[:40]
	}
	bucket := fmt.Sprintf("kiln-test-%s-%d", s, os.Getpid()%100000)
	if ep := os.Getenv("KILN_TEST_S3_ENDPOINT"); ep != "" {
		t.Cleanup(func() { removeBucket(t, ep, bucket) })
	}
	return bucket
}

// removeBucket empties and removes bucket if it exists. It runs after the
// cleanups the test registered later (the servers that wrote to it).
func removeBucket(t *testing.T, endpoint, bucket string) {
	c, err := minio.New(endpoint, &minio.Options{
		Creds: credentials.NewStaticV4(os.Getenv("KILN_TEST_S3_ACCESS_KEY"), os.Getenv("KILN_TEST_S3_SECRET_KEY"), ""),
	})
	if err != nil {
		t.Logf("test bucket %s left: %v", bucket, err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if ok, err := c.BucketExists(ctx, bucket); err != nil || !ok {
		return
	}
	objects := c.ListObjects(ctx, bucket, minio.ListObjectsOptions{Recursive: true})
	for res := range c.RemoveObjects(ctx, bucket, objects, minio.RemoveObjectsOptions{}) {
		t.Logf("test bucket %s: removing %s: %v", bucket, res.ObjectName, res.Err)
	}
	if err := c.RemoveBucket(ctx, bucket); err != nil {
		t.Logf("test bucket %s left: %v", bucket, err)
	}
}

// Real reports which servers are real, for test logs.
func Real() string {
	var parts []string
	if os.Getenv("KILN_TEST_REDIS_URL") != "" {
		parts = append(parts, "redis")
	}
	if os.Getenv("KILN_TEST_S3_ENDPOINT") != "" {
		parts = append(parts, "minio")
	}
	if len(parts) == 0 {
		return "embedded defaults"
	}
	return "real " + strings.Join(parts, " and ")
}

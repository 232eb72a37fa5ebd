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

// Bucket names a fresh bucket for t.
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
	return fmt.Sprintf("kiln-test-%s-%d", s, os.Getpid()%100000)
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

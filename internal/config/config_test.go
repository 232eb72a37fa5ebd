package config

import (
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaults(t *testing.T) {
	c, err := FromEnv(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.PlatformAddr != ":8080" || c.AvatarAddr != ":8081" || c.PublicAvatarURL != "http://localhost:8081" ||
		c.DataDir != "./data" || !c.Embedded() || c.S3.Endpoint != "" || c.S3.Bucket != "kiln" ||
		c.Blender != "blender" || c.ShutdownTimeout != 20*time.Second || c.Concurrency < 1 {
		t.Fatalf("defaults: %+v", c)
	}
}

func TestValues(t *testing.T) {
	c, err := FromEnv(env(map[string]string{
		"KILN_REDIS_URL":         "redis://:pw@redis:6379/2",
		"KILN_S3_ENDPOINT":       "minio:9000",
		"KILN_S3_ACCESS_KEY":     "a",
		"KILN_S3_SECRET_KEY":     "b",
		"KILN_S3_SECURE":         "true",
		"KILN_PUBLIC_AVATAR_URL": "https://avatars.example.com/",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Embedded() || !c.S3.Secure || c.PublicAvatarURL != "https://avatars.example.com" {
		t.Fatalf("%+v", c)
	}
}

func TestErrorsNameTheVariable(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"KILN_PLATFORM_ADDR": "8080"}, "KILN_PLATFORM_ADDR: must be host:port"},
		{map[string]string{"KILN_AVATAR_ADDR": ":99999"}, "KILN_AVATAR_ADDR: port must be"},
		{map[string]string{"KILN_PUBLIC_AVATAR_URL": "localhost:8081"}, "KILN_PUBLIC_AVATAR_URL:"},
		{map[string]string{"KILN_REDIS_URL": "mysql://x"}, "KILN_REDIS_URL: scheme must be one of redis, rediss"},
		{map[string]string{"KILN_S3_ENDPOINT": "http://minio:9000", "KILN_S3_ACCESS_KEY": "a", "KILN_S3_SECRET_KEY": "b"}, "KILN_S3_ENDPOINT: must be host:port without a scheme"},
		{map[string]string{"KILN_S3_ENDPOINT": "minio:9000", "KILN_S3_ACCESS_KEY": "a"}, "KILN_S3_SECRET_KEY: must be set"},
		{map[string]string{"KILN_S3_BUCKET": "My_Bucket"}, "KILN_S3_BUCKET: must be 3 to 63"},
		{map[string]string{"KILN_S3_SECURE": "yes please"}, "KILN_S3_SECURE: must be true or false"},
		{map[string]string{"KILN_ADMIN_KEY": "short"}, "KILN_ADMIN_KEY: must be at least 16"},
		{map[string]string{"KILN_WORKER_CONCURRENCY": "0"}, "KILN_WORKER_CONCURRENCY: must be a whole number from 1"},
		{map[string]string{"KILN_SHUTDOWN_TIMEOUT": "soon"}, "KILN_SHUTDOWN_TIMEOUT: must be a duration"},
		{map[string]string{"KILN_LOG_LEVEL": "loud"}, "KILN_LOG_LEVEL: must be one of"},
	} {
		_, err := FromEnv(env(tc.env))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: got %v, want one line starting %q", tc.env, err, tc.want)
		}
	}
}

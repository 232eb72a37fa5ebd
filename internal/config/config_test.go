package config

import (
	"cmp"
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

func TestTrackingRateAndAI(t *testing.T) {
	for _, tc := range []struct {
		env   map[string]string
		rate  float64
		burst int
	}{
		{nil, 50, 100},
		{map[string]string{"KILN_TRACKING_RATE": "20"}, 20, 40},
		{map[string]string{"KILN_TRACKING_RATE": "0.5, 3"}, 0.5, 3},
		{map[string]string{"KILN_TRACKING_RATE": "0"}, 0, 0},
	} {
		c, err := FromEnv(env(tc.env))
		if err != nil {
			t.Fatal(err)
		}
		if c.TrackingRate != tc.rate || c.TrackingBurst != tc.burst {
			t.Errorf("%v: rate %v burst %d, want %v %d", tc.env, c.TrackingRate, c.TrackingBurst, tc.rate, tc.burst)
		}
	}
	c, err := FromEnv(env(map[string]string{"KILN_AI_URL": "http://127.0.0.1:11434/v1/", "KILN_AI_MODEL": "llama3", "KILN_AI_KEY": "sk"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.AI != (AI{URL: "http://127.0.0.1:11434/v1", Model: "llama3", Key: "sk"}) {
		t.Errorf("AI: %+v", c.AI)
	}
}

func TestMail(t *testing.T) {
	c, err := FromEnv(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.SMTPURL != "" || c.MailFrom != "Kiln <kiln@localhost>" || c.PublicPlatformURL != "http://localhost:8080" {
		t.Errorf("mail defaults: %q %q %q", c.SMTPURL, c.MailFrom, c.PublicPlatformURL)
	}
	c, err = FromEnv(env(map[string]string{
		"KILN_SMTP_URL": "smtp://u:p@mailpit:1025", "KILN_MAIL_FROM": "3D <3d@example.com>",
		"KILN_PUBLIC_PLATFORM_URL": "https://kiln.example.com/",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.SMTPURL != "smtp://u:p@mailpit:1025" || c.MailFrom != "3D <3d@example.com>" || c.PublicPlatformURL != "https://kiln.example.com" {
		t.Errorf("mail values: %q %q %q", c.SMTPURL, c.MailFrom, c.PublicPlatformURL)
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
		{map[string]string{"KILN_TRUSTED_PROXIES": "10.0.0.0/8, proxy.local"}, "KILN_TRUSTED_PROXIES: must be comma-separated"},
		{map[string]string{"KILN_SMTP_URL": "mailpit:1025"}, "KILN_SMTP_URL:"},
		{map[string]string{"KILN_SMTP_URL": "http://mailpit:1025"}, "KILN_SMTP_URL: scheme must be one of smtp, smtps"},
		{map[string]string{"KILN_MAIL_FROM": "kiln at example"}, "KILN_MAIL_FROM: must be an e-mail address"},
		{map[string]string{"KILN_PUBLIC_PLATFORM_URL": "kiln.example.com"}, "KILN_PUBLIC_PLATFORM_URL:"},
		{map[string]string{"KILN_AI_URL": "localhost:11434"}, "KILN_AI_URL:"},
		{map[string]string{"KILN_AI_URL": "ftp://ai.example.com"}, "KILN_AI_URL: scheme must be one of http, https"},
		{map[string]string{"KILN_AI_URL": "http://127.0.0.1:11434/v1"}, "KILN_AI_MODEL: must be set when KILN_AI_URL is"},
		{map[string]string{"KILN_TRACKING_RATE": "fast"}, "KILN_TRACKING_RATE: must be RATE or RATE,BURST"},
		{map[string]string{"KILN_TRACKING_RATE": "-1"}, "KILN_TRACKING_RATE: must be RATE"},
		{map[string]string{"KILN_TRACKING_RATE": "10,0"}, "KILN_TRACKING_RATE: BURST must be"},
		{map[string]string{"KILN_TRACKING_RATE": "10,many"}, "KILN_TRACKING_RATE: BURST must be"},
		{map[string]string{"KILN_AVATAR_DEFAULT": "someone"}, "KILN_AVATAR_DEFAULT: must be random, default-male"},
		{map[string]string{"KILN_AVATAR_DEFAULT": `{"version":"1","body":{"height":9}}`}, "KILN_AVATAR_DEFAULT: not a valid avatar configuration"},
		{map[string]string{"KILN_AVATAR_DEFAULT": `{"version":`}, "KILN_AVATAR_DEFAULT: not a valid avatar configuration"},
		{map[string]string{"KILN_CORS_ORIGINS": "app.example.com"}, "KILN_CORS_ORIGINS: must be * or comma-separated origins"},
		{map[string]string{"KILN_CORS_ORIGINS": "https://app.example.com/shop"}, "KILN_CORS_ORIGINS: must be * or"},
		{map[string]string{"KILN_CORS_ORIGINS": "ftp://files.example.com"}, "KILN_CORS_ORIGINS: must be * or"},
		{map[string]string{"KILN_S3_PUBLIC_ENDPOINT": "localhost:9000"}, "KILN_S3_PUBLIC_ENDPOINT: needs KILN_S3_ENDPOINT"},
		{map[string]string{"KILN_DOWNLOAD_REDIRECT": "true"}, "KILN_DOWNLOAD_REDIRECT: needs KILN_S3_ENDPOINT"},
		{map[string]string{"KILN_DOWNLOAD_REDIRECT": "sometimes"}, "KILN_DOWNLOAD_REDIRECT: must be true or false"},
		{map[string]string{"KILN_BLOB_CACHE_MB": "-1"}, "KILN_BLOB_CACHE_MB:"},
		{map[string]string{"KILN_BLOB_CACHE_MB": "1GB"}, "KILN_BLOB_CACHE_MB:"},
		{map[string]string{"KILN_CREATOR_DOMAIN": "https://avatars.example.com"}, "KILN_CREATOR_DOMAIN:"},
		{map[string]string{"KILN_CREATOR_DOMAIN": "localhost"}, "KILN_CREATOR_DOMAIN:"},
		{map[string]string{"KILN_CREATOR_DOMAIN": "avatars.example.com:8081"}, "KILN_CREATOR_DOMAIN:"},
		{map[string]string{"KILN_S3_ENDPOINT": "minio:9000", "KILN_S3_ACCESS_KEY": "a", "KILN_S3_SECRET_KEY": "b", "KILN_S3_PUBLIC_ENDPOINT": "ftp://s3.example.com"}, "KILN_S3_PUBLIC_ENDPOINT: scheme must be http or https"},
		{map[string]string{"KILN_S3_ENDPOINT": "minio:9000", "KILN_S3_ACCESS_KEY": "a", "KILN_S3_SECRET_KEY": "b", "KILN_S3_PUBLIC_ENDPOINT": "https://s3.example.com/kiln"}, "KILN_S3_PUBLIC_ENDPOINT: must be host:port"},
	} {
		_, err := FromEnv(env(tc.env))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: got %v, want one line starting %q", tc.env, err, tc.want)
		}
	}
}

func TestCreatorDomain(t *testing.T) {
	for in, want := range map[string]string{"": "", "Avatars.Example.com.": "avatars.example.com", "a-1.example.io": "a-1.example.io"} {
		c, err := FromEnv(env(map[string]string{"KILN_CREATOR_DOMAIN": in}))
		if err != nil {
			t.Errorf("KILN_CREATOR_DOMAIN=%q: %v", in, err)
		} else if c.CreatorDomain != want {
			t.Errorf("KILN_CREATOR_DOMAIN=%q: %q, want %q", in, c.CreatorDomain, want)
		}
	}
}

func TestCORSOriginsAndPublicEndpoint(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want []string
	}{
		{nil, []string{"*"}},
		{map[string]string{"KILN_CORS_ORIGINS": " , "}, []string{"*"}},
		{map[string]string{"KILN_CORS_ORIGINS": "https://App.example.com, http://localhost:5173"}, []string{"https://app.example.com", "http://localhost:5173"}},
		{map[string]string{"KILN_CORS_ORIGINS": "*,https://a.example"}, []string{"*", "https://a.example"}},
	} {
		c, err := FromEnv(env(tc.env))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(c.CORSOrigins, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%v: origins %q, want %q", tc.env, c.CORSOrigins, tc.want)
		}
	}
	s3 := map[string]string{"KILN_S3_ENDPOINT": "minio:9000", "KILN_S3_ACCESS_KEY": "a", "KILN_S3_SECRET_KEY": "b"}
	for _, tc := range []struct {
		public, secure string
		endpoint       string
		https          bool
	}{
		{"", "", "", false},
		{"localhost:9000", "", "localhost:9000", false},
		{"s3.example.com", "true", "s3.example.com", true},
		{"https://s3.example.com/", "", "s3.example.com", true},
		{"http://localhost:9000", "true", "localhost:9000", false},
	} {
		e := map[string]string{"KILN_S3_PUBLIC_ENDPOINT": tc.public, "KILN_S3_SECURE": tc.secure}
		for k, v := range s3 {
			e[k] = v
		}
		c, err := FromEnv(env(e))
		if err != nil {
			t.Fatal(err)
		}
		if c.S3.PublicEndpoint != tc.endpoint || c.S3.PublicSecure != tc.https {
			t.Errorf("%q (secure %q): public %q https %v, want %q %v", tc.public, tc.secure, c.S3.PublicEndpoint, c.S3.PublicSecure, tc.endpoint, tc.https)
		}
	}
}

func TestAvatarDefault(t *testing.T) {
	for _, v := range []string{"", "random", "default-male", "default-female", `{"version":"1","body":{"type":"feminine"}}`} {
		c, err := FromEnv(env(map[string]string{"KILN_AVATAR_DEFAULT": v}))
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		if want := cmp.Or(v, "random"); c.AvatarDefault != want {
			t.Errorf("%q: got %q", v, c.AvatarDefault)
		}
	}
}

func TestBadURLDoesNotPrintPassword(t *testing.T) {
	_, err := FromEnv(env(map[string]string{"KILN_REDIS_URL": "redis://user:s3cret@[bad"}))
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("error %v shows the password", err)
	}
}

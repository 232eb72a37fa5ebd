package kiln_test

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// compose runs docker-compose config on the repository's compose file
// with the given env file ("" for none, and an empty environment for the
// secrets), skipping where docker-compose is absent, except in CI.
func compose(t *testing.T, envFile string) (string, error) {
	t.Helper()
	bin, err := exec.LookPath("docker-compose")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but docker-compose is not installed: .ci/run installs it")
		}
		t.Skip("docker-compose is not installed")
	}
	args := []string{"-f", "docker-compose.yml"}
	if envFile != "" {
		args = append([]string{"--env-file", envFile}, args...)
	}
	cmd := exec.CommandContext(t.Context(), bin, append(args, "config")...)
	// Only PATH and HOME: a developer's own KILN_* or MINIO_* must not
	// fill in what the compose file has to refuse.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestComposeRefusesWithoutSecrets: with no .env, compose stops and names
// the secret to set, rather than starting with a default everyone knows.
func TestComposeRefusesWithoutSecrets(t *testing.T) {
	out, err := compose(t, "")
	if err == nil {
		t.Fatalf("docker-compose config without an env file succeeded:\n%s", out)
	}
	if !regexp.MustCompile(`(KILN_ADMIN_KEY|MINIO_ROOT_USER|MINIO_ROOT_PASSWORD) in \.env`).MatchString(out) {
		t.Errorf("the refusal does not name a secret to set in .env:\n%s", out)
	}
}

// TestComposeDeployable checks the compose file as .env.example fills it:
// ports on loopback, every dependency gated on health, grace periods
// longer than the shutdown timeout, secrets taken from the env file,
// presigned URLs on a public endpoint, and the worker built with Blender.
func TestComposeDeployable(t *testing.T) {
	out, err := compose(t, ".env.example")
	if err != nil {
		t.Fatalf("docker-compose config with .env.example: %v\n%s", err, out)
	}
	var cfg struct {
		Services map[string]struct {
			Build *struct {
				Target string `yaml:"target"`
			} `yaml:"build"`
			Environment     map[string]string                     `yaml:"environment"`
			Ports           []string                              `yaml:"ports"`
			DependsOn       map[string]struct{ Condition string } `yaml:"depends_on"`
			Healthcheck     *struct{ Test []string }              `yaml:"healthcheck"`
			StopGracePeriod string                                `yaml:"stop_grace_period"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal([]byte(out), &cfg); err != nil {
		t.Fatalf("docker-compose config output: %v", err)
	}
	env := readEnvFile(t, ".env.example")
	for name, s := range cfg.Services {
		for _, p := range s.Ports {
			if !strings.HasPrefix(p, "127.0.0.1:") {
				t.Errorf("%s publishes %s beyond 127.0.0.1", name, p)
			}
		}
		for dep, d := range s.DependsOn {
			if d.Condition != "service_healthy" {
				t.Errorf("%s waits for %s to be %q, want service_healthy", name, dep, d.Condition)
			}
			if cfg.Services[dep].Healthcheck == nil {
				t.Errorf("%s waits for the health of %s, which has no healthcheck", name, dep)
			}
		}
		if s.Build == nil {
			continue
		}
		// Kiln's own services.
		shutdown, err := time.ParseDuration(s.Environment["KILN_SHUTDOWN_TIMEOUT"])
		if err != nil {
			t.Errorf("%s: KILN_SHUTDOWN_TIMEOUT %q: %v", name, s.Environment["KILN_SHUTDOWN_TIMEOUT"], err)
		}
		grace, err := time.ParseDuration(s.StopGracePeriod)
		if err != nil || grace <= shutdown {
			t.Errorf("%s: stop_grace_period %q, want longer than KILN_SHUTDOWN_TIMEOUT %v", name, s.StopGracePeriod, shutdown)
		}
		if s.Healthcheck == nil {
			t.Errorf("%s has no healthcheck", name)
		}
		for k, v := range map[string]string{"KILN_ADMIN_KEY": "KILN_ADMIN_KEY", "KILN_S3_ACCESS_KEY": "MINIO_ROOT_USER", "KILN_S3_SECRET_KEY": "MINIO_ROOT_PASSWORD"} {
			if s.Environment[k] == "" || s.Environment[k] != env[v] {
				t.Errorf("%s: %s is %q, want %s from the env file (%q)", name, k, s.Environment[k], v, env[v])
			}
		}
		if pub := s.Environment["KILN_S3_PUBLIC_ENDPOINT"]; pub == "" || strings.HasPrefix(pub, "minio:") {
			t.Errorf("%s: KILN_S3_PUBLIC_ENDPOINT %q, want a name browsers reach", name, pub)
		}
	}
	w, ok := cfg.Services["worker"]
	if !ok || w.Build == nil || w.Build.Target == "" {
		t.Fatal("no worker service built from a Dockerfile target")
	}
	if !dockerfileStageInstalls(t, w.Build.Target, "blender") {
		t.Errorf("the worker's Dockerfile stage %q does not install blender: product renderings would fail", w.Build.Target)
	}
}

// readEnvFile reads KEY=value lines, skipping comments.
func readEnvFile(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			env[k] = v
		}
	}
	return env
}

// dockerfileStageInstalls reports whether the Dockerfile stage target, or
// a stage it is built FROM, runs an install naming pkg.
func dockerfileStageInstalls(t *testing.T, target, pkg string) bool {
	t.Helper()
	b, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	from := map[string]string{}
	runs := map[string]string{}
	stage := ""
	for _, line := range strings.Split(strings.ReplaceAll(string(b), "\\\n", " "), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 4 && strings.EqualFold(f[0], "FROM") && strings.EqualFold(f[2], "AS"):
			stage = f[3]
			from[stage] = f[1]
		case len(f) > 0 && strings.EqualFold(f[0], "RUN"):
			runs[stage] += line + "\n"
		}
	}
	for s := target; s != ""; s = from[s] {
		if regexp.MustCompile(`apt-get install[^\n]*\b` + regexp.QuoteMeta(pkg) + `\b`).MatchString(runs[s]) {
			return true
		}
		if _, ok := from[from[s]]; !ok {
			break
		}
	}
	return false
}

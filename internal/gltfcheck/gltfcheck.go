// Package gltfcheck runs the Khronos glTF Validator (npm gltf-validator,
// installed by .ci/run into tools/gltf-validator) over GLB bytes in tests.
// Every GLB Kiln writes must pass it with zero errors.
package gltfcheck

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Report is what the validator said of one file.
type Report struct {
	NumErrors   int            `json:"numErrors"`
	NumWarnings int            `json:"numWarnings"`
	Errors      []string       `json:"errors"`
	Info        map[string]any `json:"info"`
	// Skipped says the validator is not installed here: the report is
	// empty, and a test checks what needs no validator only.
	Skipped bool `json:"-"`
}

// script is the absolute path of tools/gltf-validator/validate.mjs.
func script() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "tools", "gltf-validator", "validate.mjs")
}

// Available reports whether node and the validator package are installed.
func Available() bool {
	if _, err := exec.LookPath("node"); err != nil {
		return false
	}
	_, err := os.Stat(filepath.Join(filepath.Dir(script()), "node_modules", "gltf-validator"))
	return err == nil
}

// Validate runs the validator over glb. Without the validator the rest
// of the test goes on (its other checks need no tool) and the report says
// Skipped, unless CI is set, where its absence is a failure: .ci/run
// installs it.
func Validate(t testing.TB, glb []byte) Report {
	t.Helper()
	if !Available() {
		if os.Getenv("CI") != "" {
			t.Fatal("gltf-validator is not installed: run npm ci in tools/gltf-validator")
		}
		t.Log("gltf-validator not installed (npm ci in tools/gltf-validator): the validation is skipped, the other checks run")
		return Report{Skipped: true}
	}
	f := filepath.Join(t.TempDir(), "model.glb")
	if err := os.WriteFile(f, glb, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", script(), f).Output()
	if err != nil {
		t.Fatalf("gltf-validator: %v", err)
	}
	var r Report
	if err := json.Unmarshal(bytes.TrimSpace(out), &r); err != nil {
		t.Fatalf("gltf-validator output %q: %v", out, err)
	}
	return r
}

// RequireValid fails the test when the validator reports any error.
func RequireValid(t testing.TB, glb []byte) Report {
	t.Helper()
	r := Validate(t, glb)
	if r.NumErrors != 0 {
		t.Fatalf("gltf-validator: %d errors: %v", r.NumErrors, r.Errors)
	}
	return r
}

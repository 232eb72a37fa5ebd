package worker

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/chai2010/webp"
	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/imagemeta"
	"github.com/kilnhq/kiln/jobs"
)

// blenderScripts are Kiln's Blender Python scripts, in the binary so that
// a worker needs nothing beside Blender itself.
//
//go:embed blender/render.py blender/make_setups.py
var blenderScripts embed.FS

// RenderingStore keeps rendering records.
type RenderingStore interface {
	Rendering(ctx context.Context, id string) (*kiln.Rendering, error)
	UpdateRendering(ctx context.Context, id string, fn func(*kiln.Rendering) error) (*kiln.Rendering, error)
}

// Renderer is the Blender a worker runs (KILN_BLENDER). As a /readyz
// check it reports a missing Blender; the API reports it without failing
// readiness, since only renderings need it.
type Renderer string

// Ping reports whether the Blender executable can be found.
func (r Renderer) Ping(context.Context) error {
	if _, err := exec.LookPath(string(r)); err != nil {
		return fmt.Errorf("missing: %s not found (KILN_BLENDER): product renderings fail with renderer_unavailable", r)
	}
	return nil
}

// Codes of failed renderings.
const (
	codeRendererUnavailable = "renderer_unavailable"
	codeRenderFailed        = "render_failed"
	codeObjectGone          = "object_not_found"
)

// renderExitCode is what Blender exits with when render.py or
// make_setups.py fails (--python-exit-code, and the scripts' own exit).
const renderExitCode = 2

// RenderProduct renders a product rendering with Blender: the viewer's
// object GLB imported into the rendering's setup. A missing Blender or a
// failing script fails the rendering at once; anything else (a killed
// Blender, storage down) is retried and fails the rendering on the last
// attempt.
func (w *Worker) RenderProduct(ctx context.Context, t *asynq.Task) error {
	const op = "worker.RenderProduct"
	var p jobs.RenderProduct
	if err := jobs.Decode(t, &p); err != nil {
		return err
	}
	if !kiln.ValidID(p.RenderingID) {
		return jobs.Permanent(fmt.Errorf("%s: invalid rendering id %q", op, p.RenderingID))
	}
	r, err := w.Renderings.Rendering(ctx, p.RenderingID)
	if err != nil {
		return kiln.E(op, err)
	}
	if r.State == kiln.RenderingDone || r.State == kiln.RenderingFailed {
		return nil
	}
	blender, err := exec.LookPath(w.Blender)
	if err != nil {
		return w.failRendering(ctx, r.ID, codeRendererUnavailable,
			fmt.Sprintf("the renderer is unavailable: Blender (%s) is not installed on the worker", w.Blender), true)
	}
	if _, err := w.Renderings.UpdateRendering(ctx, r.ID, func(r *kiln.Rendering) error {
		r.State = kiln.RenderingRendering
		return nil
	}); err != nil {
		return kiln.E(op, err)
	}
	secs, err := w.render(ctx, blender, r)
	var failed *renderError
	if errors.As(err, &failed) {
		return w.failRendering(ctx, r.ID, failed.code, failed.msg, true)
	}
	if err != nil {
		if lastAttempt(ctx) {
			return w.failRendering(ctx, r.ID, codeRenderFailed, err.Error(), false)
		}
		return kiln.E(op, err)
	}
	now := time.Now().UTC()
	if _, err := w.Renderings.UpdateRendering(ctx, r.ID, func(r *kiln.Rendering) error {
		r.State, r.Duration, r.FinishedAt, r.ErrorCode, r.Error = kiln.RenderingDone, secs, &now, "", ""
		return nil
	}); err != nil {
		return kiln.E(op, err)
	}
	return nil
}

// renderError is a failure that running again cannot fix.
type renderError struct{ code, msg string }

func (e *renderError) Error() string { return e.code + ": " + e.msg }

// failRendering records the failure and ends the task: Permanent when
// asked, so Asynq does not retry what cannot succeed.
func (w *Worker) failRendering(ctx context.Context, id, code, msg string, permanent bool) error {
	now := time.Now().UTC()
	if _, err := w.Renderings.UpdateRendering(ctx, id, func(r *kiln.Rendering) error {
		r.State, r.ErrorCode, r.Error, r.FinishedAt = kiln.RenderingFailed, code, msg, &now
		return nil
	}); err != nil {
		return kiln.E("worker.failRendering", err)
	}
	err := fmt.Errorf("rendering %s: %s: %s", id, code, msg)
	if permanent {
		return jobs.Permanent(err)
	}
	return err
}

// render runs Blender in a temporary folder and stores the image; it
// returns Blender's wall time in seconds.
func (w *Worker) render(ctx context.Context, blender string, r *kiln.Rendering) (float64, error) {
	o, err := w.Objects.Object(ctx, r.ObjectID)
	if kiln.KindOf(err) == kiln.KindNotFound {
		return 0, &renderError{codeObjectGone, "the viewer's object " + r.ObjectID + " no longer exists"}
	}
	if err != nil {
		return 0, err
	}
	dir, err := os.MkdirTemp("", "kiln-render-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	if err := writeScripts(dir); err != nil {
		return 0, err
	}
	model := filepath.Join(dir, "model.glb")
	if err := w.fetch(ctx, o.GLBKey(0), model); err != nil {
		if kiln.KindOf(err) == kiln.KindNotFound {
			return 0, &renderError{codeObjectGone, "the object " + o.ID + " has no model"}
		}
		return 0, err
	}
	setup, err := w.setupFile(ctx, blender, dir, r)
	if err != nil {
		return 0, err
	}
	out := filepath.Join(dir, "out.png")
	format := "PNG"
	if r.Format == "jpeg" {
		out, format = filepath.Join(dir, "out.jpg"), "JPEG"
	}
	cam := kiln.DefaultRenderCamera
	if r.Settings.Camera != nil {
		cam = *r.Settings.Camera
	}
	ftoa := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	transparent := "0"
	if r.Settings.Transparent {
		transparent = "1"
	}
	start := time.Now()
	if err := runBlender(ctx, blender, dir, setup, "render.py", model, out,
		strconv.Itoa(r.Settings.Resolution[0]), strconv.Itoa(r.Settings.Resolution[1]), strconv.Itoa(r.Settings.Samples),
		transparent, ftoa(cam.Yaw), ftoa(cam.Pitch), ftoa(cam.Distance), format); err != nil {
		return 0, err
	}
	secs := time.Since(start).Seconds()
	data, err := os.ReadFile(out)
	if err != nil {
		return 0, &renderError{codeRenderFailed, "Blender wrote no image: " + err.Error()}
	}
	if r.Format == "webp" {
		if data, err = toWebP(data); err != nil {
			return 0, &renderError{codeRenderFailed, err.Error()}
		}
	}
	// Blender writes the job's temporary paths into the file.
	if data, err = imagemeta.Strip(data); err != nil {
		return 0, &renderError{codeRenderFailed, "Blender's image: " + err.Error()}
	}
	if _, err := w.Blobs.Put(ctx, r.FileKey(), bytes.NewReader(data), int64(len(data)), r.ContentType()); err != nil {
		return 0, err
	}
	return secs, nil
}

// toWebP converts Blender's PNG: Blender 3.4 writes no WebP.
func toWebP(pngData []byte) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return nil, fmt.Errorf("read Blender's PNG: %w", err)
	}
	var b bytes.Buffer
	if err := webp.Encode(&b, img, &webp.Options{Quality: 90}); err != nil {
		return nil, fmt.Errorf("encode WebP: %w", err)
	}
	return b.Bytes(), nil
}

// setupFile puts the rendering's setup .blend into dir. A built-in setup
// missing from storage is made with make_setups.py and stored, so the
// first rendering in a fresh deployment makes it and the next ones reuse
// it; none is committed as a binary.
func (w *Worker) setupFile(ctx context.Context, blender, dir string, r *kiln.Rendering) (string, error) {
	path := filepath.Join(dir, "setup.blend")
	err := w.fetch(ctx, r.SetupKey, path)
	if err == nil || kiln.KindOf(err) != kiln.KindNotFound {
		return path, err
	}
	builtIn := kiln.BuiltInSetup(r.TemplateID)
	if builtIn == nil || builtIn.BlobKey() != r.SetupKey {
		return "", &renderError{codeRenderFailed, "the render setup " + r.TemplateID + " was deleted"}
	}
	if err := runBlender(ctx, blender, dir, "", "make_setups.py", builtIn.ID, path); err != nil {
		return "", err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", &renderError{codeRenderFailed, "make_setups.py wrote no setup: " + err.Error()}
	}
	defer f.Close()
	if _, err := w.Blobs.Put(ctx, r.SetupKey, f, -1, "application/x-blender"); err != nil {
		return "", err
	}
	return path, nil
}

// fetch copies a blob to a file.
func (w *Worker) fetch(ctx context.Context, key, path string) error {
	src, err := w.Blobs.Get(ctx, key)
	if err != nil {
		return err
	}
	defer src.Close()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, src); err != nil {
		f.Close()
		return kiln.E("worker.fetch", kiln.KindUnavailable, err)
	}
	return f.Close()
}

func writeScripts(dir string) error {
	for _, name := range []string{"render.py", "make_setups.py"} {
		b, err := blenderScripts.ReadFile("blender/" + name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// runBlender runs one of Kiln's scripts headless, on blend when given,
// else on factory settings. An exit with renderExitCode is the script's
// own clear failure (a model it cannot import, bad arguments): it comes
// back as a renderError with the script's message. Other failures
// (killed, crashed) come back as plain errors, to be retried.
func runBlender(ctx context.Context, blender, dir, blend, script string, args ...string) error {
	argv := []string{"-b"}
	if blend != "" {
		argv = append(argv, blend)
	} else {
		argv = append(argv, "--factory-startup")
	}
	argv = append(argv, "--python-exit-code", strconv.Itoa(renderExitCode), "--python", filepath.Join(dir, script), "--")
	cmd := exec.CommandContext(ctx, blender, append(argv, args...)...)
	cmd.Dir = dir
	// Blender keeps its user configuration under HOME; a throwaway one
	// keeps workers from sharing or needing a writable home.
	cmd.Env = append(os.Environ(), "HOME="+dir)
	var output tail
	cmd.Stdout, cmd.Stderr = &output, &output
	err := cmd.Run()
	if err == nil {
		return nil
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == renderExitCode {
		return &renderError{codeRenderFailed, scriptMessage(output.String())}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("blender %s: %w: %s", script, err, lastLines(output.String(), 5))
}

// scriptMessage picks the scripts' "kiln ...py:" lines, or else Python's
// traceback end, out of Blender's output.
func scriptMessage(out string) string {
	var msgs []string
	for line := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(line, "kiln render.py: ") || strings.HasPrefix(line, "kiln make_setups.py: ") {
			msgs = append(msgs, line)
		}
	}
	if len(msgs) > 0 {
		return strings.Join(msgs, "; ")
	}
	return "Blender's script failed: " + lastLines(out, 5)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// tail keeps the last 16 KB written to it: Blender prints a line per
// tile and sample, and only the end says why it failed.
type tail struct{ b []byte }

func (t *tail) Write(p []byte) (int, error) {
	const keep = 16 << 10
	t.b = append(t.b, p...)
	if len(t.b) > keep {
		t.b = append(t.b[:0], t.b[len(t.b)-keep:]...)
	}
	return len(p), nil
}

func (t *tail) String() string { return string(t.b) }

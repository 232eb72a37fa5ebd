package api

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/priority"
)

// The creator's live shaping: POST /creator/builds answers the GLB of an
// unsaved configuration with, as morph targets, the offsets per unit of
// the sliders the page asks for (avatar.Basis). The page moves the model
// with them in the frame of the input event and, once the person stops,
// asks for the build of where they stopped and swaps it in, so what it
// shows settles on exactly the server's model.

const (
	// maxCreatorSliders bounds the targets of one build: the body's six
	// and the largest face feature's nineteen, with room.
	maxCreatorSliders = 40
	// creatorBuildTimeout bounds a build, queueing included.
	creatorBuildTimeout = 60 * time.Second
	// creatorBuildCacheBytes bounds the builds kept for the page's undo,
	// redo and back-and-forth between styles.
	creatorBuildCacheBytes = 96 << 20
)

// creatorBuildRate is what a client address may ask: a build costs about
// a second of a core, and a person settles a slider every few seconds.
var creatorBuildRate = kiln.RateLimit{Rate: 0.5, Burst: 30}

// creatorBuilds runs and keeps the creator's whole builds and, apart
// from them, the style parts (creator_part.go).
type creatorBuilds struct {
	whole, parts slotCache

	mu sync.Mutex
	// sessions holds each person's latest whole build request
	// (supersede).
	sessions map[string]*sessionBuild
}

// sessionBuild is a whole build request a person waits on.
type sessionBuild struct {
	key    string
	cancel context.CancelCauseFunc
}

// errSuperseded ends a build request that the same person's newer one
// replaced.
var errSuperseded = errors.New("superseded by a newer build of the same session")

// supersede registers a whole build request of session for key and ends
// the session's earlier request for another key, if it still waits: the
// page shows only the latest configuration, so the older build, never
// started or stopped at its next stage once no one else waits for it
// (slotCache), no longer holds a slot or the cores a style's part needs.
// The returned context ends with the cause errSuperseded when a newer
// request replaces this one; done unregisters it.
func (b *creatorBuilds) supersede(ctx context.Context, session, key string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	me := &sessionBuild{key: key, cancel: cancel}
	b.mu.Lock()
	if b.sessions == nil {
		b.sessions = map[string]*sessionBuild{}
	}
	if prev := b.sessions[session]; prev != nil && prev.key != key {
		prev.cancel(errSuperseded)
	}
	b.sessions[session] = me
	b.mu.Unlock()
	return ctx, func() {
		b.mu.Lock()
		if b.sessions[session] == me {
			delete(b.sessions, session)
		}
		b.mu.Unlock()
		cancel(nil)
	}
}

// creatorSessionHeader names the page that asks (any opaque string of
// at most 128 bytes, e.g. a random id per page load): a new whole build
// of a session supersedes its earlier one. Without it, the client
// address and the User-Agent stand for the session.
const creatorSessionHeader = "Kiln-Creator-Session"

// creatorSession is who a build request belongs to, for supersede.
func creatorSession(c *gin.Context) string {
	if s := c.GetHeader(creatorSessionHeader); s != "" && len(s) <= 128 {
		return "s:" + s
	}
	ua := sha256.Sum256([]byte(c.GetHeader("User-Agent")))
	return "ip:" + c.ClientIP() + ":" + hex.EncodeToString(ua[:8])
}

// build is the gzipped GLB of a basis, from the cache or built in a free
// slot when the gate admits class (priority.Build for the avatar a person
// waits on, priority.Background for the warm-up's).
func (b *creatorBuilds) build(ctx context.Context, key string, class priority.Class, cfg avatar.Config, sliders []string) ([]byte, error) {
	return b.whole.do(ctx, key, class, creatorBuildCacheBytes, func(ctx context.Context) ([]byte, error) {
		// A build nobody waits for any more (superseded by the same
		// person's next, or its client gone) stops between stages: the
		// generator itself runs to its end once started, so the checks
		// are before it and before the GLB's writing and compression.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sc, err := avatar.Basis(cfg, sliders)
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		glb, err := scene.Write(sc)
		if err != nil {
			return nil, err
		}
		// Kept and sent gzipped: the targets are mostly zeros.
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
		_, _ = zw.Write(glb)
		if err := zw.Close(); err != nil {
			return nil, err
		}
		return gz.Bytes(), nil
	})
}

// buildKey names a build: the configuration resolved (so {} and the
// default it stands for are one build) and the sliders' targets.
func buildKey(cfg avatar.Config, sliders []string) (string, error) {
	resolved, err := json.Marshal(cfg)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write(resolved)
	h.Write([]byte(strings.Join(sliders, ",")))
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// creatorBuildRequest is POST /creator/builds' body.
type creatorBuildRequest struct {
	Configuration json.RawMessage `json:"configuration"`
	Sliders       []string        `json:"sliders"`
}

// createCreatorBuild serves POST /creator/builds: no key (the page is
// public), limited per client address, bounded in size and time.
func (s *Server) createCreatorBuild(c *gin.Context) {
	if !s.limitPreview(c, "creator-build:ip:"+c.ClientIP(), creatorBuildRate) {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxAvatarConfig))
	if err != nil {
		fail(c, err)
		return
	}
	var req creatorBuildRequest
	if err := json.Unmarshal(body, &req); err != nil {
		fail(c, invalidf("invalid_json", "the body must be {\"configuration\":{...},\"sliders\":[...]}"))
		return
	}
	cfg, err := creatorConfig(req.Configuration)
	if err != nil {
		fail(c, err)
		return
	}
	sliders, err := avatar.SliderSet(req.Sliders)
	if err != nil {
		fail(c, err)
		return
	}
	if len(sliders) > maxCreatorSliders {
		fail(c, invalidf("too_many_sliders", "%d sliders; ask for at most %d", len(sliders), maxCreatorSliders))
		return
	}
	key, err := buildKey(cfg, sliders)
	if err != nil {
		fail(c, err)
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), creatorBuildTimeout)
	defer cancel()
	ctx, done := s.creatorBuilds.supersede(ctx, creatorSession(c), key)
	defer done()
	gz, err := s.creatorBuilds.build(ctx, key, priority.Build, cfg, sliders)
	if err != nil && errors.Is(context.Cause(ctx), errSuperseded) {
		// A 503, which the page asks again after a second while the
		// configuration is still the one shown (two pages behind one
		// address and browser, without the session header), and drops
		// when the person has moved on.
		c.Header("Retry-After", "1")
		fail(c, kiln.Errorf(kiln.KindUnavailable, "build_superseded", "a newer build of the same session replaced this one; ask again if it is still the one wanted"))
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	c.Header("ETag", `"`+key+`"`)
	c.Header("Cache-Control", "no-store")
	c.Header("Vary", "Accept-Encoding")
	if strings.Contains(c.GetHeader("Accept-Encoding"), "gzip") {
		c.Header("Content-Encoding", "gzip")
		c.Data(http.StatusOK, "model/gltf-binary", gz)
		return
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		fail(c, err)
		return
	}
	c.DataFromReader(http.StatusOK, -1, "model/gltf-binary", zr, nil)
}

// creatorPalettes serves GET /creator/palettes: the colour names of the
// configuration with their values, for the creator's swatches.
func creatorPalettes(c *gin.Context) {
	c.Header("Cache-Control", "public, max-age=3600")
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": avatar.Palettes()})
}

// creatorRandom serves GET /creator/random?seed=: a random configuration,
// the one POST /avatar with {} would draw (avatar.Random), for the
// creator's Shuffle, so the page draws from the same looks-good ranges
// and matching outfits as the service does rather than from its own. The
// same seed gives the same configuration; no seed, a new one each call.
func creatorRandom(c *gin.Context) {
	seed := mrand.Int64()
	if v, ok := c.GetQuery("seed"); ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			fail(c, invalidf("invalid_seed", "seed must be an integer, got %q", v))
			return
		}
		seed = n
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": gin.H{"seed": seed, "configuration": avatar.Random(seed)}})
}

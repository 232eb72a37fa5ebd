package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/priority"
)

// The creator's style swap: POST /creator/parts answers the meshes of one
// style category (avatar.BuildPart) for a configuration, a few hundred
// kilobytes built in a fraction of a whole build's time. The page swaps
// them into the avatar it shows, bound to its skeleton, the moment they
// arrive, while the whole build of the same configuration (POST
// /creator/builds), asked at the same time, follows and replaces the
// avatar; what is saved and exported is always the whole build.

const (
	// creatorPartTimeout bounds a part, queueing included: a part that
	// has not come by then is not worth showing, the whole build is near.
	creatorPartTimeout = 20 * time.Second
	// creatorPartCacheBytes bounds the parts kept for back-and-forth
	// between styles.
	creatorPartCacheBytes = 32 << 20
)

// creatorPartRate is what a client address may ask: a part costs a tenth
// of a build, and a person picks a style every second or two at most.
var creatorPartRate = kiln.RateLimit{Rate: 2, Burst: 30}

// buildPart is the GLB of a configuration's part, from the parts' cache
// or built in one of their slots when the gate admits class.
func (b *creatorBuilds) buildPart(ctx context.Context, key string, class priority.Class, cfg avatar.Config, category, standOn string) ([]byte, error) {
	return b.parts.do(ctx, key, class, creatorPartCacheBytes, func(ctx context.Context) ([]byte, error) {
		t0 := time.Now()
		if class == priority.Part {
			// A whole build beside it pauses at its next texture.
			defer avatar.HoldPaints()()
		}
		// Stopped at its next stage once nobody waits for it (the page
		// dropped the part it asked ahead when the person picked).
		sc, err := avatar.BuildPartContext(ctx, cfg, category, standOn)
		if err != nil {
			return nil, err
		}
		t1 := time.Now()
		glb, err := scene.Write(sc)
		if b.parts.log != nil {
			b.parts.log.Debug("creator part built", "key", key[:8], "part", category, "style", cfg.Style(category),
				"build_ms", t1.Sub(t0).Milliseconds(), "write_ms", time.Since(t1).Milliseconds())
		}
		return glb, err
	})
}

// partKey names a part: the configuration resolved, the category and the
// footwear it stands on.
func partKey(cfg avatar.Config, part, standOn string) (string, error) {
	resolved, err := json.Marshal(cfg)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write(resolved)
	h.Write([]byte("\x00" + part + "\x00" + standOn))
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// creatorPartRequest is POST /creator/parts' body.
type creatorPartRequest struct {
	Configuration json.RawMessage `json:"configuration"`
	Part          string          `json:"part"`
	// StandOn is the footwear style of the avatar the page shows.
	StandOn string `json:"standOn"`
}

// createCreatorPart serves POST /creator/parts: no key (the page is
// public), limited per client address, bounded in size and time, as a
// build is.
func (s *Server) createCreatorPart(c *gin.Context) {
	asked := time.Now()
	ctx, cancel := context.WithTimeout(c.Request.Context(), creatorPartTimeout)
	defer cancel()
	limitKey := "creator-part:ip:" + c.ClientIP()
	limit, ok := s.limitPreviewBeside(c, limitKey, creatorPartRate, cancel)
	if !ok {
		return
	}
	limited := time.Since(asked)
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxAvatarConfig))
	if err != nil {
		fail(c, err)
		return
	}
	var req creatorPartRequest
	if err := json.Unmarshal(body, &req); err != nil {
		fail(c, invalidf("invalid_json", "the body must be {\"configuration\":{...},\"part\":\"<category>\"}"))
		return
	}
	if _, ok := avatar.PartMeshes[req.Part]; !ok {
		cats := make([]string, 0, len(avatar.PartMeshes))
		for k := range avatar.PartMeshes {
			cats = append(cats, k)
		}
		sort.Strings(cats)
		fail(c, invalidf("invalid_part", "part %q is not a style category; one of %s", req.Part, strings.Join(cats, ", ")))
		return
	}
	cfg, err := creatorConfig(req.Configuration)
	if err != nil {
		fail(c, err)
		return
	}
	key, err := partKey(cfg, req.Part, req.StandOn)
	if err != nil {
		fail(c, err)
		return
	}
	glb, err := s.creatorBuilds.buildPart(ctx, key, priority.Part, cfg, req.Part, req.StandOn)
	wait := limit.verdict()
	s.log.Debug("creator part answered", "key", key[:8], "part", req.Part, "style", cfg.Style(req.Part),
		"limit_ms", limited.Milliseconds(), "ms", time.Since(asked).Milliseconds(), "err", err)
	if wait > 0 {
		s.refuse(c, limitKey, creatorPartRate, wait)
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	c.Header("ETag", `"`+key+`"`)
	c.Header("Cache-Control", "no-store")
	c.Data(http.StatusOK, "model/gltf-binary", glb)
}

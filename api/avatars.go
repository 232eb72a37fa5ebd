package api

import (
	"bytes"
	"context"
	"encoding/json"
	"hash/fnv"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/animation"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/avatar/face"
	"github.com/kilnhq/kiln/jobs"
)

// AvatarStore keeps avatar records.
type AvatarStore interface {
	CreateAvatar(ctx context.Context, a *kiln.Avatar) error
	Avatar(ctx context.Context, id string) (*kiln.Avatar, error)
}

// maxAvatarConfig bounds a POST /avatar body: a configuration is a few
// hundred bytes.
const maxAvatarConfig = 64 << 10

func (s *Server) avatarRoutes(r *gin.Engine) {
	r.POST("/avatar", s.require(kiln.ScopeAvatarWrite), s.createAvatar)
	getFile(r, "/avatar/schema.json", avatarSchema)
	getFile(r, "/model/:file", s.avatarModel)
	r.GET("/animations", listAnimations)
	getFile(r, "/animations/:gender/:file", animationGLB)
	r.POST("/creator/builds", s.createCreatorBuild)
	r.GET("/creator/palettes", creatorPalettes)
}

// createAvatar registers a configuration (`{}` or an empty body resolves
// the project default), stores it resolved, and enqueues the build of
// lod 0 so that the first download finds it under way or done.
func (s *Server) createAvatar(c *gin.Context) {
	if !s.limit(c, "avatar-create:"+callerKey(c).Account, s.AvatarCreateRate) {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxAvatarConfig))
	if err != nil {
		fail(c, err)
		return
	}
	id := kiln.NewID("av")
	var cfg avatar.Config
	if emptyObject(body) {
		cfg, err = s.defaultAvatar(id)
	} else {
		cfg, err = avatar.ParseConfig(body)
	}
	if err != nil {
		fail(c, err)
		return
	}
	raw, err := json.Marshal(cfg)
	if err != nil {
		fail(c, err)
		return
	}
	now := time.Now().UTC()
	a := &kiln.Avatar{ID: id, Account: callerKey(c).Account, Configuration: raw, State: kiln.AvatarBuilding, CreatedAt: now, UpdatedAt: now}
	if err := s.Avatars.CreateAvatar(c.Request.Context(), a); err != nil {
		fail(c, err)
		return
	}
	// The first download enqueues the same job when this one is lost, so
	// a queue that does not answer now costs time, not the avatar.
	build := jobs.ModelVariant{AvatarID: id, Variant: kiln.Variant{TextureFormat: "webp", MorphTargets: defaultMorphTargets()}}
	if err := s.Jobs.Enqueue(c.Request.Context(), jobs.For(a.Account, build)); err != nil {
		logger(c).Warn("avatar build not enqueued", "avatar_id", id, "err", err)
	}
	base := s.PublicAvatarURL
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": gin.H{
		"modelId":    id,
		"modelUrl":   base + "/model/" + id + ".glb",
		"previewUrl": base + "/preview/" + id + ".png",
	}})
}

// emptyObject reports whether a body asks for the project default: `{}`,
// or nothing at all.
func emptyObject(body []byte) bool {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return true
	}
	var m map[string]json.RawMessage
	return json.Unmarshal(body, &m) == nil && m != nil && len(m) == 0
}

// defaultAvatar resolves KILN_AVATAR_DEFAULT for a new avatar: a random
// configuration seeded by the id (so it is the same whenever the avatar
// is built again), a built-in one, or the configured JSON.
func (s *Server) defaultAvatar(id string) (avatar.Config, error) {
	switch s.AvatarDefault {
	case "", "random":
		h := fnv.New64a()
		h.Write([]byte(id))
		return avatar.Random(int64(h.Sum64())), nil
	case kiln.AvatarDefaultMale:
		return avatar.Default(avatar.Masculine), nil
	case kiln.AvatarDefaultFemale:
		return avatar.Default(avatar.Feminine), nil
	}
	return avatar.ParseConfig([]byte(s.AvatarDefault))
}

// avatarModel serves GET /model/{id}.glb: every download is a variant
// (absent parameters take the spec's defaults), built once by a
// model:variant job and then streamed from storage with an ETag.
func (s *Server) avatarModel(c *gin.Context) {
	id, ok := strings.CutSuffix(c.Param("file"), ".glb")
	if !ok {
		notFound(c)
		return
	}
	if err := kiln.CheckID("id", id); err != nil {
		fail(c, err)
		return
	}
	v, _, err := kiln.ParseVariant(c.Request.URL.Query())
	if err != nil {
		fail(c, err)
		return
	}
	if v.Animations, err = animationParam(c.Query("animations")); err != nil {
		fail(c, err)
		return
	}
	if v.MorphTargets, err = morphTargetsParam(c.Request.URL.Query()); err != nil {
		fail(c, err)
		return
	}
	owner, err := s.checkAvatar(c, id)
	if err != nil {
		fail(c, err)
		return
	}
	s.serveModelVariant(c, owner, kiln.AvatarVariantKey(id, v.Key()), id+"-"+v.Key()+".glb", jobs.ModelVariant{AvatarID: id, Variant: v})
}

// animationParam reads the animations parameter of spec 4.1: all, none,
// a group (locomotion, gesture, in singular or plural), or a
// comma-separated list of names and groups. It answers the sorted set of
// clip names; unknown names are a 400 naming each.
func animationParam(q string) ([]string, error) {
	if q == "" || q == "none" {
		return nil, nil
	}
	var names, unknown []string
	for _, tok := range strings.Split(q, ",") {
		tok = strings.TrimSpace(tok)
		switch tok {
		case "":
		case "all":
			names = append(names, animation.Names()...)
		case "locomotion", "locomotions", "gesture", "gestures":
			prefix := strings.TrimSuffix(tok, "s") + "_"
			for _, n := range animation.Names() {
				if strings.HasPrefix(n, prefix) {
					names = append(names, n)
				}
			}
		default:
			if !slices.Contains(animation.Names(), tok) {
				unknown = append(unknown, strconv.Quote(tok))
				continue
			}
			names = append(names, tok)
		}
	}
	if len(unknown) > 0 {
		return nil, invalidf("invalid_animations", "animations: unknown %s; use all, none, locomotion, gesture or names from GET /animations", strings.Join(unknown, ", "))
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// morphTargetsParam reads the morphTargets parameter as the leader takes
// it: ARKit, Oculus Visemes, Default, none, or a comma-separated list of
// those and of shape names (face.Names). Absent, it is Default (mouthOpen,
// mouthSmile), as with the leader. It answers the sorted set of names;
// unknown names are a 400 naming each.
func morphTargetsParam(q url.Values) ([]string, error) {
	if !q.Has("morphTargets") {
		return defaultMorphTargets(), nil
	}
	names, err := face.Names(q.Get("morphTargets"))
	if err != nil {
		return nil, invalidf("invalid_morph_targets", "morphTargets: %v", err)
	}
	slices.Sort(names)
	return names, nil
}

// defaultMorphTargets is the set an avatar download keeps when it names
// none, as a Variant holds it.
func defaultMorphTargets() []string {
	return slices.Sorted(slices.Values(face.Default))
}

// avatarSchema serves the JSON Schema of the avatar configuration.
func avatarSchema(c *gin.Context) {
	serveBytes(c, "application/schema+json", avatar.Schema)
}

// checkAvatar reports why a download of avatar id cannot be built: not
// registered (404) or its generation failed (422). The built-in ids always
// can. owner is whose share of the job queues its builds take
// (jobs.For): the avatar's account.
func (s *Server) checkAvatar(c *gin.Context, id string) (owner string, err error) {
	if kiln.BuiltInAvatar(id) {
		// Anyone may download the built-in avatars: their builds queue
		// fairly per client address.
		return "ip:" + c.ClientIP(), nil
	}
	a, err := s.Avatars.Avatar(c.Request.Context(), id)
	if kiln.KindOf(err) == kiln.KindNotFound {
		return "", kiln.Errorf(kiln.KindNotFound, "avatar_not_found", "no avatar %s; register one with POST /avatar", id)
	}
	if err != nil {
		return "", err
	}
	if a.State == kiln.AvatarFailed {
		return "", kiln.Errorf(kiln.KindUnprocessable, "avatar_failed", "the model of avatar %s could not be generated: %s", id, a.Error)
	}
	return a.Account, nil
}

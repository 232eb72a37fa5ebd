package api

import (
	"encoding/json"
	"path"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
)

// The leader's URLs had no path segment: {host}/{id}.glb, .png, .jpg and
// .json. Apps and engine SDKs saved them, so the avatar listener answers
// them at its root beside the spec's /model/ and /preview/.

// leaderRoutes registers the one root route; static routes (/healthz,
// /openapi.json, ...) win over it in Gin.
func (s *Server) leaderRoutes(r *gin.Engine) {
	r.GET("/", s.avatarHome)
	getFile(r, "/:file", s.rootFile)
}

// rootFile dispatches /{id}.{ext} by extension; a bare id or another
// extension is a 404, as a missing .glb was with the leader.
func (s *Server) rootFile(c *gin.Context) {
	h := s.rootHandler(path.Ext(c.Param("file")))
	if h == nil {
		notFound(c)
		return
	}
	h(c)
}

// rootHandler is the handler of a root URL's extension. Each reads the
// file name from the "file" parameter, as under /model/ and /preview/.
func (s *Server) rootHandler(ext string) gin.HandlerFunc {
	switch ext {
	case ".glb", ".vrm":
		return s.avatarModel
	case ".png", ".jpg":
		return s.avatarRender
	case ".json":
		return s.avatarMetadata
	}
	return nil
}

// leaderMetadata is the leader's {id}.json, which its engine SDKs fetch
// beside every .glb and refuse an avatar without (NOTES.md).
type leaderMetadata struct {
	// BodyType is always fullbody: Kiln's avatars are full bodies, and the
	// Unity SDK refuses anything but fullbody, halfbody, fullbody-xr.
	BodyType     string `json:"bodyType"`
	OutfitGender string `json:"outfitGender"`
	// OutfitVersion is the leader's outfit generation; its avatars of the
	// last years (and so the clients) were at 2.
	OutfitVersion int    `json:"outfitVersion"`
	SkinTone      string `json:"skinTone"`
	CreatedAt     string `json:"createdAt"`
	UpdatedAt     string `json:"updatedAt"`
}

// leaderTime is the leader's timestamp form, which the Unity SDK parses
// as yyyy-MM-ddTHH:mm:ss.fffZ: milliseconds always, UTC as Z.
const leaderTime = "2006-01-02T15:04:05.000Z"

// builtInSince is the creation time the built-in avatars report: they
// have no record, and a fixed time keeps their metadata cacheable.
var builtInSince = time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)

// avatarMetadata serves GET /{id}.json.
func (s *Server) avatarMetadata(c *gin.Context) {
	id := strings.TrimSuffix(c.Param("file"), ".json")
	if err := kiln.CheckID("id", id); err != nil {
		fail(c, err)
		return
	}
	var cfg avatar.Config
	created, updated := builtInSince, builtInSince
	switch id {
	case kiln.AvatarDefaultMale:
		cfg = avatar.Default(avatar.Masculine)
	case kiln.AvatarDefaultFemale:
		cfg = avatar.Default(avatar.Feminine)
	default:
		if _, _, err := s.checkAvatar(c, id); err != nil {
			fail(c, err)
			return
		}
		a, err := s.Avatars.Avatar(c.Request.Context(), id)
		if err != nil {
			fail(c, err)
			return
		}
		if err := json.Unmarshal(a.Configuration, &cfg); err != nil {
			fail(c, err)
			return
		}
		created, updated = a.CreatedAt, a.UpdatedAt
	}
	body, err := json.Marshal(leaderMetadata{
		BodyType:      "fullbody",
		OutfitGender:  cfg.Body.Type,
		OutfitVersion: 2,
		SkinTone:      cfg.SkinToneHex(),
		CreatedAt:     created.UTC().Format(leaderTime),
		UpdatedAt:     updated.UTC().Format(leaderTime),
	})
	if err != nil {
		fail(c, err)
		return
	}
	// Metadata follows the record (its state moves updatedAt): revalidate.
	c.Header("Cache-Control", "no-cache")
	serveBytes(c, "application/json", body)
}

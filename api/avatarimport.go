package api

import (
	"bytes"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/avatar/leaderimport"
	"github.com/kilnhq/kiln/assets/scene"
)

// importAvatar serves POST /avatar/import: the body is an avatar GLB made
// by the leader. It is read and checked here (a file that is not one is a
// 400 saying what it lacks, before anything is stored), stored as it
// came, and registered as an imported avatar of the key's account; the
// build of its lod 0, which gives a face without shapes Kiln's (package
// leaderimport), is queued at once, as POST /avatar's is, and under the
// same rate.
func (s *Server) importAvatar(c *gin.Context) {
	// An import is an avatar creation: it shares POST /avatar's rate.
	if !s.limit(c, "avatar-create:"+callerKey(c).Account, s.AvatarCreateRate) {
		return
	}
	ctx := c.Request.Context()
	gender := c.DefaultQuery("outfitGender", avatar.Masculine)
	if gender != avatar.Masculine && gender != avatar.Feminine {
		fail(c, invalidf("invalid_gender", "outfitGender: %q is not masculine or feminine", gender))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, leaderimport.MaxBytes))
	if err != nil {
		fail(c, err)
		return
	}
	if len(body) == 0 {
		fail(c, invalidf("invalid_avatar", "the body is empty; send the avatar's .glb file"))
		return
	}
	sc, err := scene.ReadContext(ctx, body, scene.ReadOptions{})
	if err != nil {
		if ctx.Err() != nil {
			fail(c, ctx.Err())
			return
		}
		_, msg := kiln.CodeOf(err)
		fail(c, invalidf("invalid_avatar", "not a valid GLB file: %s", msg))
		return
	}
	if err := leaderimport.Check(sc); err != nil {
		fail(c, err)
		return
	}
	// The configuration serves clips and metadata: the body type asked
	// for and the skin the file shows.
	def := avatar.Default(gender)
	if tone, ok := leaderimport.SkinTone(sc); ok {
		def.Skin.Tone = tone
	}
	id := kiln.NewID("av")
	if _, err := s.Blobs.Put(ctx, kiln.AvatarImportKey(id), bytes.NewReader(body), int64(len(body)), "model/gltf-binary"); err != nil {
		fail(c, err)
		return
	}
	if err := s.registerAvatar(ctx, &kiln.Avatar{ID: id, Account: callerKey(c).Account, Imported: true}, def); err != nil {
		if derr := s.Blobs.Delete(ctx, kiln.AvatarImportKey(id)); derr != nil {
			logger(c).Warn("refused import not deleted", "avatar_id", id, "err", derr)
		}
		failQueued(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": s.avatarURLs(id)})
}

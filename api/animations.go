package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/animation"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/vrma"
)

// listAnimations answers the built-in clips per gender (spec section 2):
// the same names for both, each with its own skeleton.
func listAnimations(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": gin.H{
		avatar.Masculine: animation.Names(),
		avatar.Feminine:  animation.Names(),
	}})
}

// animationGLB serves one clip on its gender's skeleton: {name}.glb,
// the library file, or {name}.vrma, the same clip as VRM Animation
// (package vrma) for VRM apps. An unknown gender or name is a 400 (spec
// 7); a listed name whose file cannot be made for that gender is "not
// available", a 404.
func animationGLB(c *gin.Context) {
	gender := c.Param("gender")
	file := c.Param("file")
	ext := ".glb"
	if strings.HasSuffix(file, ".vrma") {
		ext = ".vrma"
	}
	name, ok := strings.CutSuffix(file, ext)
	if !ok {
		notFound(c)
		return
	}
	if gender != avatar.Masculine && gender != avatar.Feminine {
		fail(c, invalidf("invalid_gender", "gender must be masculine or feminine, got %q", gender))
		return
	}
	if !animation.Valid(gender, name) {
		fail(c, invalidf("invalid_animation", "name %q is not a built-in animation; GET /animations lists them", name))
		return
	}
	build := animation.GLB
	if ext == ".vrma" {
		build = vrma.File
	}
	glb, err := build(gender, name)
	if err != nil {
		fail(c, kiln.Errorf(kiln.KindNotFound, "animation_not_found", "the %s animation %s is not available: %v", gender, name, err))
		return
	}
	sum := sha256.Sum256(glb)
	file = gender + "-" + name + ext
	h := c.Writer.Header()
	h.Set("Content-Type", "model/gltf-binary")
	h.Set("ETag", `"`+hex.EncodeToString(sum[:16])+`"`)
	h.Set("Cache-Control", "public, max-age=3600")
	h.Set("Content-Disposition", "inline; filename=\""+file+"\"")
	serveContent(c, file, time.Time{}, bytes.NewReader(glb))
}

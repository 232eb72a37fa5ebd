package api

import (
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/render"
	"github.com/kilnhq/kiln/jobs"
)

func (s *Server) previewRoutes(r *gin.Engine) {
	getFile(r, "/preview/:file", s.avatarPreview)
}

// avatarPreview serves GET /preview/{id}.png|jpg|webp: a picture of the
// avatar rendered once per parameters by a preview:render job, then
// streamed from storage with an ETag. The extension is required (a bare
// id is a 404, as for /model) and one Kiln cannot encode is a 400.
func (s *Server) avatarPreview(c *gin.Context) {
	id, format, ok := strings.Cut(c.Param("file"), ".")
	if !ok {
		notFound(c)
		return
	}
	if _, known := render.ContentType[format]; !known {
		fail(c, invalidf("invalid_format", "the extension must be .png, .jpg or .webp, got .%s", format))
		return
	}
	if err := kiln.CheckID("id", id); err != nil {
		fail(c, err)
		return
	}
	size := 512
	if q, ok := c.GetQuery("size"); ok {
		n, err := strconv.Atoi(q)
		if err != nil || n < 32 || n > 512 {
			fail(c, invalidf("invalid_size", "size must be an integer from 32 to 512, got %q", q))
			return
		}
		size = nearestPowerOfTwo(n)
	}
	camera := c.DefaultQuery("camera", "portrait")
	if camera != "full" && camera != "portrait" {
		fail(c, invalidf("invalid_camera", "camera must be full or portrait, got %q", camera))
		return
	}
	background := ""
	if q, ok := c.GetQuery("background"); ok {
		bg, err := render.ParseBackground(q)
		if err != nil {
			fail(c, invalidf("invalid_background", "background %s, got %q", err, q))
			return
		}
		// The canonical form keys the cache: "010,2,3" and "10,2,3" are
		// one picture.
		background = strconv.Itoa(int(bg.R)) + "," + strconv.Itoa(int(bg.G)) + "," + strconv.Itoa(int(bg.B))
	}
	owner, err := s.checkAvatar(c, id)
	if err != nil {
		fail(c, err)
		return
	}
	job := jobs.PreviewRender{AvatarID: id, Key: jobs.PreviewKey(size, camera, background),
		Format: format, Size: size, Camera: camera, Background: background}
	s.serveBuilt(c, built{owner: owner, key: job.BlobKey(), name: id + "-" + job.Key + "." + format,
		contentType: render.ContentType[format], job: job, what: "preview", label: job.Key})
}

// nearestPowerOfTwo rounds n (32..512) to the nearest power of two, ties
// upward (the README's Previews): 48 gives 64, 47 gives 32.
func nearestPowerOfTwo(n int) int {
	p := 1
	for p*2 <= n {
		p *= 2
	}
	if n-p >= p*2-n {
		return p * 2
	}
	return p
}

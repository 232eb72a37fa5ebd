package api

import (
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar/face"
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
	r, err := kiln.ParsePreview(c.Request.URL.Query())
	if err != nil {
		fail(c, err)
		return
	}
	s.servePicture(c, id, format, r)
}

// avatarRender serves the leader's render API, GET /{id}.png|jpg at the
// root of the avatar listener (rootHandler): the same pictures as
// /preview, with the leader's size, camera and quality rules
// (kiln.ParseRender).
func (s *Server) avatarRender(c *gin.Context) {
	id, format, _ := strings.Cut(c.Param("file"), ".")
	if format != "png" && format != "jpg" {
		fail(c, invalidf("invalid_format", "the extension must be .png or .jpg, got .%s", format))
		return
	}
	if err := kiln.CheckID("id", id); err != nil {
		fail(c, err)
		return
	}
	r, err := kiln.ParseRender(c.Request.URL.Query(), format)
	if err != nil {
		fail(c, err)
		return
	}
	s.servePicture(c, id, format, r)
}

// servePicture checks the blend shape names against the face shapes
// avatars carry, then serves the picture from storage, rendering it
// first when it is not there yet.
func (s *Server) servePicture(c *gin.Context, id, format string, r kiln.Render) {
	var unknown []string
	for _, b := range r.BlendShapes {
		if !slices.Contains(face.All(), b.Name) && !slices.Contains(unknown, b.Name) {
			unknown = append(unknown, b.Name)
		}
	}
	if len(unknown) > 0 {
		fail(c, invalidf("invalid_blend_shapes", "blendShapes: no avatar has a shape called %s; the names are those of morphTargets (ARKit, Oculus Visemes, mouthOpen, mouthSmile)", strings.Join(unknown, ", ")))
		return
	}
	owner, rev, err := s.checkAvatar(c, id)
	if err != nil {
		fail(c, err)
		return
	}
	job := jobs.PreviewRender{AvatarID: id, Format: format, Render: r, Revision: rev}
	s.serveBuilt(c, built{owner: owner, key: job.BlobKey(), name: id + "-" + job.Key() + "." + format,
		contentType: render.ContentType[format], job: job, what: "preview", label: job.Key(), cache: cacheShared})
}

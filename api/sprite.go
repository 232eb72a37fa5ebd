package api

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/sprite"
)

// maxSpriteBytes bounds the sprite image file.
const maxSpriteBytes = 16 << 20

// spriteExtensions are the source extensions by decoded format.
var spriteExtensions = map[string]string{"png": "png", "jpeg": "jpg", "webp": "webp"}

// createSprite makes an object from one image: a GLB of a textured quad
// and a PNG thumbnail as its preview. It is built in the request, not as
// a job: one quad costs a decode, a copy and a downscale of an image of at
// most 4096², well under a second, and the client gets a ready object.
func (s *Server) createSprite(c *gin.Context) {
	if err := parseForm(c); err != nil {
		fail(c, err)
		return
	}
	now := time.Now().UTC()
	o := &kiln.Object{
		ID:          kiln.NewID("obj"),
		Account:     callerKey(c).Account,
		Name:        strings.TrimSpace(c.PostForm("name")),
		Description: c.PostForm("description"),
		Type:        kiln.TypeSprite,
		Optimize:    false,
		State:       kiln.StateReady,
		Uploaded:    true,
		PreviewType: "image/png",
		CreatedAt:   now,
		UpdatedAt:   now,
	}
	if err := kiln.ValidateText(o); err != nil {
		fail(c, err)
		return
	}
	data, err := spriteFile(c)
	if err != nil {
		fail(c, err)
		return
	}
	img, err := sprite.Decode(data)
	if err != nil {
		fail(c, err)
		return
	}
	o.Extension = spriteExtensions[img.Format]
	o.FileSize, o.FileCount = int64(len(data)), 1
	glb, err := img.GLB(o.Name)
	if err != nil {
		fail(c, err)
		return
	}
	thumb, err := img.Thumbnail(sprite.ThumbnailSide)
	if err != nil {
		fail(c, err)
		return
	}
	o.Stats = &kiln.ModelStats{Triangles: 2, Vertices: 4, Meshes: 1, Materials: 1, Textures: 1}
	o.LODs = []kiln.LOD{{Level: 0, Triangles: 2}}
	ctx := c.Request.Context()
	// Files first, the record last: a request that dies halfway leaves
	// blobs no record points to, never a record without its files.
	for _, f := range []struct {
		key, contentType string
		data             []byte
	}{
		{o.SourceKey(), "image/" + img.Format, data},
		{o.GLBKey(0), "model/gltf-binary", glb},
		{o.PreviewKey(), o.PreviewType, thumb},
	} {
		if _, err := s.Blobs.Put(ctx, f.key, bytes.NewReader(f.data), int64(len(f.data)), f.contentType); err != nil {
			fail(c, err)
			return
		}
	}
	if err := s.Objects.CreateObject(ctx, o); err != nil {
		fail(c, err)
		return
	}
	logger(c).Info("sprite created", "object_id", o.ID, "format", img.Format, "alpha", img.AlphaMode())
	c.JSON(http.StatusOK, []objectView{s.view(c, o)})
}

// spriteFile reads the file field of the sprite form.
func spriteFile(c *gin.Context) ([]byte, error) {
	fh, err := c.FormFile("file")
	if errors.Is(err, http.ErrMissingFile) || errors.Is(err, http.ErrNotMultipart) {
		return nil, invalidf("missing_file", "file is required: the sprite image (PNG, JPEG or WebP) as a multipart file")
	}
	if err != nil {
		return nil, invalidf("invalid_file", "file cannot be read: %v", err)
	}
	if fh.Size > maxSpriteBytes {
		return nil, kiln.Errorf(kiln.KindTooLarge, "file_too_large", "file is %d bytes; a sprite image may have at most %d", fh.Size, maxSpriteBytes)
	}
	f, err := fh.Open()
	if err != nil {
		return nil, invalidf("invalid_file", "file cannot be read: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSpriteBytes+1))
	if err != nil {
		return nil, invalidf("invalid_file", "file cannot be read: %v", err)
	}
	return data, nil
}

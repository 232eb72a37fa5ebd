package api

import (
	"bytes"
	"errors"
	"image"
	_ "image/jpeg" // registers JPEG for image.DecodeConfig
	_ "image/png"  // registers PNG for image.DecodeConfig
	"io"
	"net/http"
	"net/mail"
	"strings"

	_ "github.com/chai2010/webp" // registers WebP for image.DecodeConfig
	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// Limits of a preview image of prepare-upload.
const (
	maxPreviewBytes = 16 << 20
	maxPreviewSide  = 8192
)

// checkMailAddress admits an empty mail_after_upload (no mail) or one
// RFC 5322 address.
func checkMailAddress(addr string) error {
	if addr == "" {
		return nil
	}
	if _, err := mail.ParseAddress(addr); err != nil || len(addr) > 254 {
		return invalidf("invalid_mail_after_upload", "mail_after_upload must be one e-mail address like ana@example.com, got %q", addr)
	}
	return nil
}

// checkImage reads the header of an image sent in field and returns its
// media type. Only what every browser shows is taken: PNG, JPEG, WebP.
func checkImage(field string, data []byte) (string, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || (format != "png" && format != "jpeg" && format != "webp") {
		return "", invalidf("invalid_"+field, "%s must be a PNG, JPEG or WebP image", field)
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > maxPreviewSide || cfg.Height > maxPreviewSide {
		return "", invalidf("invalid_"+field, "%s is %dx%d pixels; each side must be from 1 to %d", field, cfg.Width, cfg.Height, maxPreviewSide)
	}
	return "image/" + format, nil
}

// storePreview keeps the preview file of a prepare-upload form (the first
// image of a series, or a picture of any other object) as the object's
// preview image. No preview file is fine.
func (s *Server) storePreview(c *gin.Context, o *kiln.Object) error {
	fh, err := c.FormFile("preview")
	if errors.Is(err, http.ErrMissingFile) || errors.Is(err, http.ErrNotMultipart) {
		return nil
	}
	if err != nil {
		return invalidf("invalid_preview", "the preview file cannot be read: %v", err)
	}
	if fh.Size > maxPreviewBytes {
		return kiln.Errorf(kiln.KindTooLarge, "preview_too_large", "the preview is %d bytes; at most %d are taken", fh.Size, maxPreviewBytes)
	}
	f, err := fh.Open()
	if err != nil {
		return invalidf("invalid_preview", "the preview file cannot be read: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPreviewBytes+1))
	if err != nil {
		return invalidf("invalid_preview", "the preview file cannot be read: %v", err)
	}
	mt, err := checkImage("preview", data)
	if err != nil {
		return err
	}
	if _, err := s.Blobs.Put(c.Request.Context(), o.PreviewKey(), bytes.NewReader(data), int64(len(data)), mt); err != nil {
		return err
	}
	o.PreviewType = mt
	return nil
}

// sourceTypes are the media types of uploads by extension; a ZIP set is
// recognised by its content whatever its extension, and anything else is
// application/octet-stream (the system's MIME table differs by machine).
var sourceTypes = map[string]string{
	"glb": "model/gltf-binary", "gltf": "model/gltf+json", "obj": "model/obj",
	"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "webp": "image/webp",
	"zip": "application/zip", "oc": "application/json",
}

// downloadSource streams the file as uploaded, with the rules of
// model.glb: product:read, the caller's own object, 404 otherwise.
func (s *Server) downloadSource(c *gin.Context) {
	o, err := s.ownObject(c)
	if err != nil {
		fail(c, err)
		return
	}
	if !o.Uploaded {
		fail(c, kiln.Errorf(kiln.KindNotFound, "source_not_uploaded", "object %s has no uploaded file yet; PUT it to the upload URL and finish the upload", o.ID))
		return
	}
	b, err := s.Blobs.Get(c.Request.Context(), o.SourceKey())
	if err != nil {
		fail(c, err)
		return
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(b, head)
	b.Close()
	ct, name := sourceTypes[o.Extension], o.ID+"."+o.Extension
	if http.DetectContentType(head[:n]) == "application/zip" {
		ct, name = "application/zip", o.ID+".zip"
	}
	if ct == "" {
		ct = "application/octet-stream"
	}
	s.serveBlob(c, o.SourceKey(), name, ct)
}

// downloadPreview streams the preview image: the preview of
// prepare-upload, or a sprite's thumbnail.
func (s *Server) downloadPreview(c *gin.Context) {
	o, err := s.ownObject(c)
	if err != nil {
		fail(c, err)
		return
	}
	if o.PreviewType == "" {
		fail(c, kiln.Errorf(kiln.KindNotFound, "no_preview", "object %s has no preview image; send one as preview with prepare-upload", o.ID))
		return
	}
	ext, _ := strings.CutPrefix(o.PreviewType, "image/")
	s.serveBlob(c, o.PreviewKey(), o.ID+"-preview."+ext, o.PreviewType)
}

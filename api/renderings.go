package api

import (
	"bytes"
	"context"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/jobs"
)

// RenderingStore keeps product renderings and the accounts' uploaded
// render setups.
type RenderingStore interface {
	CreateRendering(ctx context.Context, r *kiln.Rendering) error
	Rendering(ctx context.Context, id string) (*kiln.Rendering, error)
	UpdateRendering(ctx context.Context, id string, fn func(*kiln.Rendering) error) (*kiln.Rendering, error)
	ViewerRenderings(ctx context.Context, token string) ([]*kiln.Rendering, error)
	CreateSetup(ctx context.Context, s *kiln.RenderSetup) error
	Setup(ctx context.Context, id string) (*kiln.RenderSetup, error)
	AccountSetups(ctx context.Context, account string) ([]*kiln.RenderSetup, error)
}

type renderingRequest struct {
	RenderSettings *kiln.RenderSettings `json:"render_settings"`
	TemplateID     string               `json:"template_id"`
	FormatKey      string               `json:"format_key"`
}

// renderingView is a rendering as its owner sees it: with the URL of its
// image once done.
type renderingView struct {
	*kiln.Rendering
	URL string `json:"url,omitempty"`
}

func (s *Server) renderingView(c *gin.Context, r *kiln.Rendering) renderingView {
	v := renderingView{Rendering: r}
	if r.State == kiln.RenderingDone {
		v.URL = s.platformURL(c) + "/viewers/" + r.ViewerToken + "/renderings/" + r.ID + "/file"
	}
	return v
}

// createRendering requests a product rendering. It answers as soon as the
// job is queued; whether Blender is installed is the worker's business
// (it may run elsewhere), so a missing Blender fails the rendering with
// renderer_unavailable rather than this request.
func (s *Server) createRendering(c *gin.Context) {
	v, err := s.ownViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	if v.Kind != kiln.ViewerProduct {
		fail(c, kiln.Errorf(kiln.KindConflict, "not_a_product_viewer", "viewer %s shows a space; renderings are of product viewers", v.Token))
		return
	}
	// The spec says text/json; JSON under its registered name is as good.
	if ct, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type")); ct != "text/json" && ct != "application/json" {
		fail(c, invalidf("invalid_content_type", "send the rendering request as text/json (or application/json), got %q", c.GetHeader("Content-Type")))
		return
	}
	var req renderingRequest
	if err := bindJSON(c, &req); err != nil {
		fail(c, err)
		return
	}
	r, err := s.newRendering(c, v, &req)
	if err != nil {
		fail(c, err)
		return
	}
	ctx := c.Request.Context()
	if err := s.Renderings.CreateRendering(ctx, r); err != nil {
		fail(c, err)
		return
	}
	if err := s.Jobs.Enqueue(ctx, jobs.RenderProduct{RenderingID: r.ID}); err != nil {
		// Without a job the rendering would stay queued for ever.
		_, _ = s.Renderings.UpdateRendering(context.WithoutCancel(ctx), r.ID, func(r *kiln.Rendering) error {
			r.State, r.ErrorCode, r.Error = kiln.RenderingFailed, "queue_unavailable", "the rendering could not be queued; request it again"
			return nil
		})
		fail(c, err)
		return
	}
	logger(c).Info("rendering requested", "rendering_id", r.ID, "viewer_token", v.Token, "template_id", r.TemplateID)
	c.JSON(http.StatusOK, s.renderingView(c, r))
}

// newRendering checks a request against the viewer: fields first (400),
// then the state of the viewer's object (409).
func (s *Server) newRendering(c *gin.Context, v *kiln.Viewer, req *renderingRequest) (*kiln.Rendering, error) {
	if req.RenderSettings == nil {
		return nil, invalidf("missing_render_settings", "render_settings is required: {resolution: [w, h], samples}")
	}
	format, err := kiln.ValidateRenderSettings(req.RenderSettings, req.FormatKey)
	if err != nil {
		return nil, err
	}
	setup, err := s.productSetup(c, req.TemplateID)
	if err != nil {
		return nil, err
	}
	o, err := s.Objects.Object(c.Request.Context(), v.ObjectID)
	if kiln.KindOf(err) == kiln.KindNotFound {
		return nil, kiln.Errorf(kiln.KindConflict, "object_not_found", "the viewer's object %s no longer exists", v.ObjectID)
	}
	if err != nil {
		return nil, err
	}
	if o.State != kiln.StateReady {
		return nil, kiln.Errorf(kiln.KindConflict, "object_not_ready", "the viewer's object %s is %s, not ready; request the rendering once it is", o.ID, o.State)
	}
	return &kiln.Rendering{
		ID:          kiln.NewID("rn"),
		ViewerToken: v.Token,
		Account:     v.Account,
		ObjectID:    o.ID,
		State:       kiln.RenderingQueued,
		Settings:    *req.RenderSettings,
		TemplateID:  setup.ID,
		SetupKey:    setup.BlobKey(),
		FormatKey:   req.FormatKey,
		Format:      format,
		CreatedAt:   time.Now().UTC(),
	}, nil
}

// productSetup resolves template_id: a built-in setup or one of the
// caller's uploaded product setups. Unknown ids, another account's and
// space setups are all a 400 on the field.
func (s *Server) productSetup(c *gin.Context, id string) (*kiln.RenderSetup, error) {
	if id == "" {
		return nil, invalidf("missing_template_id", "template_id is required: a setup id of GET /renderings/custom-setups?type=product")
	}
	if err := kiln.CheckID("template_id", id); err != nil {
		return nil, err
	}
	if b := kiln.BuiltInSetup(id); b != nil {
		return b, nil
	}
	setup, err := s.Renderings.Setup(c.Request.Context(), id)
	if kiln.KindOf(err) == kiln.KindNotFound || (err == nil && (setup.Account != callerKey(c).Account || setup.Type != kiln.SetupProduct)) {
		return nil, invalidf("unknown_template_id", "template_id %q is not a product setup of GET /renderings/custom-setups?type=product", id)
	}
	return setup, err
}

func (s *Server) listRenderings(c *gin.Context) {
	v, err := s.ownViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	rs, err := s.Renderings.ViewerRenderings(c.Request.Context(), v.Token)
	if err != nil {
		fail(c, err)
		return
	}
	out := make([]renderingView, 0, len(rs))
	for _, r := range rs {
		out = append(out, s.renderingView(c, r))
	}
	c.JSON(http.StatusOK, gin.H{"renderings": out})
}

// downloadRendering serves a done rendering's image.
func (s *Server) downloadRendering(c *gin.Context) {
	v, err := s.ownViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	id := c.Param("renderingId")
	if err := kiln.CheckID("renderingId", id); err != nil {
		fail(c, err)
		return
	}
	r, err := s.Renderings.Rendering(c.Request.Context(), id)
	if kiln.KindOf(err) == kiln.KindNotFound || (err == nil && r.ViewerToken != v.Token) {
		err = kiln.Errorf(kiln.KindNotFound, "rendering_not_found", "viewer %s has no rendering %s", v.Token, id)
	}
	if err == nil && r.State != kiln.RenderingDone {
		err = kiln.Errorf(kiln.KindConflict, "rendering_not_done", "rendering %s is %s; its file exists once it is done", id, r.State)
	}
	if err != nil {
		fail(c, err)
		return
	}
	s.serveBlob(c, r.FileKey(), r.ID+r.FileKey()[strings.LastIndex(r.FileKey(), "."):], r.ContentType())
}

// setupTypes reads the type of a setup query or upload.
func setupType(v string) (string, error) {
	switch t := strings.ToLower(strings.TrimSpace(v)); t {
	case kiln.SetupProduct, kiln.SetupSpace:
		return t, nil
	case "":
		return "", invalidf("missing_type", "type is required: product or space")
	}
	return "", invalidf("invalid_type", "type %q is not product or space", v)
}

// setupView is a setup as listed, with the URL of an uploaded one's file.
type setupView struct {
	*kiln.RenderSetup
	URL string `json:"url,omitempty"`
}

// listSetups lists the built-in setups of the type and the caller's
// uploaded ones. type may be omitted to list both types.
func (s *Server) listSetups(c *gin.Context) {
	var typ string
	if q, set := c.GetQuery("type"); set {
		t, err := setupType(q)
		if err != nil {
			fail(c, err)
			return
		}
		typ = t
	}
	own, err := s.Renderings.AccountSetups(c.Request.Context(), callerKey(c).Account)
	if err != nil {
		fail(c, err)
		return
	}
	out := []setupView{}
	for i := range kiln.BuiltInSetups {
		if b := &kiln.BuiltInSetups[i]; typ == "" || b.Type == typ {
			out = append(out, setupView{RenderSetup: b})
		}
	}
	for _, o := range own {
		if typ == "" || o.Type == typ {
			out = append(out, setupView{RenderSetup: o, URL: s.platformURL(c) + "/renderings/custom-setups/" + o.ID + "/file"})
		}
	}
	c.JSON(http.StatusOK, gin.H{"setups": out})
}

// blendMagic opens every .blend Blender saves uncompressed; compressed
// ones (File > Save with "Compress") start with a zstd frame (Blender 3.0
// on) or gzip (older), which Blender also opens.
var blendMagic = [][]byte{[]byte("BLENDER"), {0x28, 0xb5, 0x2f, 0xfd}, {0x1f, 0x8b}}

// uploadSetup stores a .blend an account renders its products in.
func (s *Server) uploadSetup(c *gin.Context) {
	// Not parseForm: its 32 MB bound is too small for a studio scene.
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, kiln.MaxSetupBytes+1<<20)
	if c.ContentType() != "multipart/form-data" {
		fail(c, invalidf("invalid_content_type", "send name, type and file as multipart/form-data"))
		return
	}
	if err := c.Request.ParseMultipartForm(8 << 20); err != nil {
		if _, tooLarge := err.(*http.MaxBytesError); tooLarge {
			fail(c, err)
			return
		}
		fail(c, invalidf("invalid_form", "the form could not be read: %v", err))
		return
	}
	name := strings.TrimSpace(c.PostForm("name"))
	typ, err := setupType(c.PostForm("type"))
	if err == nil && name == "" {
		err = invalidf("missing_name", "name is required")
	}
	if err == nil && len(name) > kiln.MaxDisplayNameLen {
		err = invalidf("invalid_name", "name must be at most %d bytes", kiln.MaxDisplayNameLen)
	}
	if err != nil {
		fail(c, err)
		return
	}
	fh, err := c.FormFile("file")
	if err != nil {
		fail(c, invalidf("missing_file", "file is required: a .blend file"))
		return
	}
	if fh.Size > kiln.MaxSetupBytes {
		fail(c, kiln.Errorf(kiln.KindTooLarge, "file_too_large", "file must be at most %d MB", kiln.MaxSetupBytes>>20))
		return
	}
	f, err := fh.Open()
	if err != nil {
		fail(c, kiln.E("api.uploadSetup", err))
		return
	}
	defer f.Close()
	head := make([]byte, 7)
	n, _ := io.ReadFull(f, head)
	if !isBlend(head[:n]) {
		fail(c, invalidf("invalid_file", "file is not a .blend: it does not start with BLENDER (or a zstd or gzip frame)"))
		return
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		fail(c, kiln.E("api.uploadSetup", err))
		return
	}
	setup := &kiln.RenderSetup{
		ID: kiln.NewID("rs"), Account: callerKey(c).Account, Name: name, Type: typ,
		Size: fh.Size, CreatedAt: time.Now().UTC(),
	}
	ctx := c.Request.Context()
	if _, err := s.Blobs.Put(ctx, setup.BlobKey(), f, fh.Size, "application/x-blender"); err != nil {
		fail(c, err)
		return
	}
	if err := s.Renderings.CreateSetup(ctx, setup); err != nil {
		fail(c, err)
		return
	}
	logger(c).Info("render setup uploaded", "setup_id", setup.ID, "type", typ, "bytes", fh.Size)
	c.JSON(http.StatusCreated, setupView{RenderSetup: setup, URL: s.platformURL(c) + "/renderings/custom-setups/" + setup.ID + "/file"})
}

func isBlend(head []byte) bool {
	for _, m := range blendMagic {
		if bytes.HasPrefix(head, m) {
			return true
		}
	}
	return false
}

// downloadSetup serves an uploaded setup's .blend to its account.
func (s *Server) downloadSetup(c *gin.Context) {
	id := c.Param("setupId")
	if err := kiln.CheckID("setupId", id); err != nil {
		fail(c, err)
		return
	}
	setup, err := s.Renderings.Setup(c.Request.Context(), id)
	setup, err = owned(c, setup, err, kiln.Errorf(kiln.KindNotFound, "setup_not_found", "no uploaded setup with id %s", id))
	if err != nil {
		fail(c, err)
		return
	}
	s.serveBlob(c, setup.BlobKey(), setup.ID+".blend", "application/x-blender")
}

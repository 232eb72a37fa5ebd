package api

import (
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// web holds the pages' templates and static files, model-viewer's
// prebuilt bundle among them (tools/web/build.sh), so the pages load no
// script from a CDN at run time.
//
//go:embed web
var web embed.FS

var pages = template.Must(template.ParseFS(web, "web/templates/*.html"))

// demoAvatar is the built-in avatar the demo page shows, with every clip.
const demoAvatar = "default-female"

// pageRoutes registers the web pages on the platform listener. They are
// public: a viewer page's token is the capability to see it, as it is
// for the tracking events the page sends.
func (s *Server) pageRoutes(r *gin.Engine) {
	static, _ := fs.Sub(web, "web/static")
	r.Group("/static", s.limitStatic).StaticFS("/", http.FS(static))
	r.GET("/", s.startPage)
	r.GET("/v/:viewerToken", s.viewerPage)
	getFile(r, "/v/:viewerToken/model.glb", s.viewerModel)
	r.GET("/v/:viewerToken/annotations.json", s.viewerAnnotations)
	r.GET("/demo/avatar", s.demoAvatarPage)
}

// staticRate bounds the static files one client address fetches, on both
// listeners, as the creator's builds are bounded per address: a page
// takes a few (the creator's twenty, cached a day), so 100 at once and
// 20 a second leave people room, while a client looping over the 1 MB
// model-viewer bundle meets the 429 of every other limit.
var staticRate = kiln.RateLimit{Rate: 20, Burst: 100}

// limitStatic takes a token of the client address's static bucket, kept
// in the process (localLimiter), not in Redis: a static file must load
// while Redis is slow or away (the creator's page stayed blank when its
// modules were answered 503 by a starved Redis), and costs too little to
// need a cluster-wide count. Without a Limiter nothing is limited, as
// for the other limits.
func (s *Server) limitStatic(c *gin.Context) {
	if s.Limiter == nil {
		c.Next()
		return
	}
	key := "static:ip:" + c.ClientIP()
	if wait := s.staticLimits.allow(key, staticRate); wait > 0 {
		s.refuse(c, key, staticRate, wait)
		return
	}
	c.Next()
}

// hotspot is an annotation as model-viewer places it: data-position and
// data-normal in metres of the model's space.
type hotspot struct {
	Slot, Title, Text, Position, Normal string
	// Kind is "" for an annotation, else the space-object's kind, which
	// the page styles apart.
	Kind string
}

type viewerPageData struct {
	Title, ModelURL, TrackingURL, AvatarURL string
	Hotspots                                []hotspot
	// SpaceObjects are the sticky notes and movable objects of a space
	// viewer, listed under the view too, so they read without the model.
	SpaceObjects []hotspot
}

func vec(v []float64) string {
	if len(v) != 3 {
		return ""
	}
	parts := make([]string, 3)
	for i, f := range v {
		parts[i] = strconv.FormatFloat(f, 'g', -1, 64) + "m"
	}
	return strings.Join(parts, " ")
}

// tokenViewer loads the viewer of the path for anyone who has its token:
// unlike ownViewer, no key and no account.
func (s *Server) tokenViewer(c *gin.Context) (*kiln.Viewer, error) {
	token := c.Param("viewerToken")
	if err := kiln.CheckID("viewerToken", token); err != nil {
		return nil, err
	}
	v, err := s.Viewers.Viewer(c.Request.Context(), token)
	if kiln.KindOf(err) == kiln.KindNotFound {
		return nil, kiln.Errorf(kiln.KindNotFound, "viewer_not_found", "no viewer with token %s", token)
	}
	return v, err
}

func (s *Server) viewerPage(c *gin.Context) {
	v, err := s.tokenViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	as, err := s.Viewers.Annotations(c.Request.Context(), v.Token)
	if err != nil {
		fail(c, err)
		return
	}
	d := viewerPageData{
		Title:       v.Name,
		ModelURL:    "/v/" + v.Token + "/model.glb",
		TrackingURL: "/viewers/" + v.Token + "/tracking-event",
	}
	for i, a := range as {
		d.Hotspots = append(d.Hotspots, hotspot{
			Slot: fmt.Sprintf("hotspot-%d", i), Title: a.Title, Text: a.Text,
			Position: vec(a.Position), Normal: vec(a.Normal),
		})
	}
	if v.Kind == kiln.ViewerSpace {
		if d.SpaceObjects, err = s.spaceHotspots(c, v, len(as)); err != nil {
			fail(c, err)
			return
		}
		d.Hotspots = append(d.Hotspots, d.SpaceObjects...)
	}
	s.page(c, "viewer.html", d)
}

// spaceHotspots are a space viewer's sticky notes, with their text, and
// its movable objects, with their object's name, where each is now: a
// reset shows as notes gone and objects back where they started.
func (s *Server) spaceHotspots(c *gin.Context, v *kiln.Viewer, first int) ([]hotspot, error) {
	objs, err := s.Viewers.SpaceObjects(c.Request.Context(), v.Token)
	if err != nil {
		return nil, err
	}
	var out []hotspot
	for i, o := range objs {
		h := hotspot{Slot: fmt.Sprintf("hotspot-%d", first+i), Position: vec(o.Position), Kind: o.Kind}
		switch o.Kind {
		case kiln.StickyNote:
			h.Title, h.Text = "Note", o.Text
		default:
			h.Title = "Object"
			if obj, err := s.Objects.Object(c.Request.Context(), o.ObjectID); err == nil && obj.Name != "" {
				h.Title = obj.Name
			} else if err != nil && kiln.KindOf(err) != kiln.KindNotFound {
				return nil, err
			}
			h.Text = "at " + strings.ReplaceAll(h.Position, "m", " m")
		}
		out = append(out, h)
	}
	return out, nil
}

func (s *Server) page(c *gin.Context, name string, data any) {
	c.Header("Content-Type", "text/html; charset=utf-8")
	c.Header("X-Content-Type-Options", "nosniff")
	c.Status(http.StatusOK)
	if err := pages.ExecuteTemplate(c.Writer, name, data); err != nil {
		logger(c).Error("page", "page", name, "err", err)
	}
}

// viewerModel serves the GLB a viewer shows: a product viewer's object at
// lod 0, a space viewer's template model when the template was made from
// an object (system templates have none).
func (s *Server) viewerModel(c *gin.Context) {
	v, err := s.tokenViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	objectID := v.ObjectID
	if v.Kind == kiln.ViewerSpace {
		objectID = ""
		sp, err := s.Spaces.Space(c.Request.Context(), v.SpaceID)
		if err == nil {
			var tpl *kiln.SpaceTemplate
			if tpl, err = s.Spaces.Template(c.Request.Context(), sp.SpaceTemplateID); err == nil {
				objectID = tpl.Origin.ObjectID
			}
		}
		if err != nil && kiln.KindOf(err) != kiln.KindNotFound {
			fail(c, err)
			return
		}
	}
	noModel := kiln.Errorf(kiln.KindNotFound, "no_model", "viewer %s has no model to show yet", v.Token)
	if objectID == "" {
		fail(c, noModel)
		return
	}
	o, err := s.Objects.Object(c.Request.Context(), objectID)
	if kiln.KindOf(err) == kiln.KindNotFound || (err == nil && (o.State != kiln.StateReady || len(o.LODs) == 0 || o.LODs[0].Level != 0)) {
		fail(c, noModel)
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	s.serveBlob(c, o.GLBKey(0), v.Token+".glb", "model/gltf-binary")
}

// viewerAnnotations answers what the page shows as hotspots, for pages
// that embed the viewer elsewhere.
func (s *Server) viewerAnnotations(c *gin.Context) {
	v, err := s.tokenViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	s.answerAnnotations(c, v)
}

// demoAvatarPage shows default-female with every clip, loaded straight
// from the avatar listener: another origin, which CORS lets the page read.
func (s *Server) demoAvatarPage(c *gin.Context) {
	model := s.PublicAvatarURL + "/model/" + demoAvatar + ".glb?animations=all"
	s.page(c, "viewer.html", viewerPageData{
		Title:     "Demo: the " + demoAvatar + " avatar",
		ModelURL:  model,
		AvatarURL: model,
	})
}

func (s *Server) startPage(c *gin.Context) {
	s.page(c, "start.html", struct{ PlatformURL, AvatarURL, DemoModel string }{
		PlatformURL: s.platformURL(c),
		AvatarURL:   s.PublicAvatarURL,
		DemoModel:   s.PublicAvatarURL + "/model/" + demoAvatar + ".glb?animations=all",
	})
}

// avatarHome is the avatar listener's root: the address kiln serve prints
// for the avatar service, so a person who opens it learns what is there
// rather than meeting a JSON 404.
func (s *Server) avatarHome(c *gin.Context) {
	s.page(c, "avatar-home.html", struct{ PlatformURL, Demo string }{s.platformURL(c), demoAvatar})
}

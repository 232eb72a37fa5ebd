package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"golang.org/x/text/language"

	"github.com/kilnhq/kiln"
)

// CreatorPage is the creator's web app (package creator): the page, with
// one `<script id="kiln-boot" type="application/json">{}</script>` whose
// `{}` the handler replaces, the files under /creator/static/, and the
// page's languages. Tests pass a small page of their own.
type CreatorPage struct {
	Index     []byte
	Static    fs.FS
	Languages []string
}

// bootScript is what the handler fills in the page.
var bootScript = []byte(`<script id="kiln-boot" type="application/json">{}</script>`)

// creatorPageRoutes registers the page at the leader's creator URLs, and
// per app. The language is the path's first segment; gin names it :file
// because the root /:file route (the leader's /{id}.glb) holds that
// position with that name.
func (s *Server) creatorPageRoutes(r *gin.Engine) {
	getFile(r, "/avatar", s.creatorPage)
	getFile(r, "/:file/avatar", s.creatorPage)
	getFile(r, "/apps/:slug/avatar", s.creatorPage)
	getFile(r, "/apps/:slug/:lang/avatar", s.creatorPage)
	getFile(r, "/creator/static/*path", s.limitStatic, s.creatorStatic)
}

// creatorPage answers the page of an app (the path's, ?app=, the first
// label of Host under KILN_CREATOR_DOMAIN, or the built-in one) in a
// language (the path's, else the browser's), with the app's settings in
// the boot script, framed only by the app's origins. The leader's
// options (frameApi, bodyType, id, token...) are the page's to read.
func (s *Server) creatorPage(c *gin.Context) {
	if len(s.CreatorPage.Index) == 0 {
		fail(c, kiln.Errorf(kiln.KindNotFound, "no_creator", "this Kiln serves no creator"))
		return
	}
	lang := c.Param("lang")
	if lang == "" {
		lang = c.Param("file")
	}
	if lang != "" {
		if lang = s.pathLanguage(lang); lang == "" {
			creatorNotFound(c, "no such page: the language "+c.Param("file")+c.Param("lang")+" is not one of "+strings.Join(s.CreatorPage.Languages, ", "))
			return
		}
	} else {
		lang = s.browserLanguage(c.GetHeader("Accept-Language"))
	}
	slug := s.creatorSlug(c)
	a, err := s.creatorApp(c.Request.Context(), slug)
	if kiln.KindOf(err) == kiln.KindNotFound || kiln.KindOf(err) == kiln.KindInvalid {
		creatorNotFound(c, "no app "+slug)
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	boot, err := json.Marshal(s.bootData(a, lang))
	if err != nil {
		fail(c, err)
		return
	}
	page := bytes.Replace(s.CreatorPage.Index, bootScript,
		append(append([]byte(`<script id="kiln-boot" type="application/json">`), boot...), "</script>"...), 1)
	h := c.Writer.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "frame-ancestors "+frameAncestors(a))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Language", lang)
	h.Set("Vary", "Accept-Language, Host")
	serveBytes(c, "text/html; charset=utf-8", page)
}

// creatorSlug is the app a page request names: the path's, ?app=, or the
// first label of a Host under the creator domain; none is the built-in
// app.
func (s *Server) creatorSlug(c *gin.Context) string {
	if slug := c.Param("slug"); slug != "" {
		return slug
	}
	if slug := c.Query("app"); slug != "" {
		return slug
	}
	if d := s.CreatorDomain; d != "" {
		host := c.Request.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if label, ok := strings.CutSuffix(strings.ToLower(host), "."+d); ok && !strings.Contains(label, ".") {
			return label
		}
	}
	return kiln.DefaultApp
}

// frameAncestors is the CSP source list of the pages that may frame an
// app's creator: its origins, or any when it lists none.
func frameAncestors(a *kiln.App) string {
	if len(a.AllowedOrigins) == 0 {
		return "*"
	}
	return strings.Join(a.AllowedOrigins, " ")
}

// bootData is what the page starts from: the app as the page may see it
// (no account, no limits), its language, and the base of avatar URLs.
func (s *Server) bootData(a *kiln.App, lang string) gin.H {
	return gin.H{
		"app": gin.H{
			"slug":           a.Slug,
			"name":           a.Name,
			"allowedOrigins": a.AllowedOrigins,
			"styles":         offeredStyles(a),
			"defaults":       a.Defaults,
		},
		"lang": lang,
		"base": s.PublicAvatarURL,
	}
}

// creatorNotFound is the 404 of a page: HTML, as a browser shows it.
func creatorNotFound(c *gin.Context, msg string) {
	c.Header("Cache-Control", "no-store")
	c.Header("X-Content-Type-Options", "nosniff")
	body := "<!doctype html><meta charset=utf-8><title>Not found</title><p>" + htmlEscape(msg) + "</p>\n"
	c.Data(http.StatusNotFound, "text/html; charset=utf-8", []byte(body))
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")

func htmlEscape(s string) string { return htmlEscaper.Replace(s) }

// languageAliases are tags the leader's integrations use for a language
// the page has under another tag.
var languageAliases = map[string]string{"pt": "pt-BR", "pt-PT": "pt-BR"}

// pathLanguage is the page language of /{lang}/avatar: one of the page's
// (in any case), an alias, or the same language in another region
// (en-IE is en, es-MX es); "" when the page has none.
func (s *Server) pathLanguage(tag string) string {
	langs := s.CreatorPage.Languages
	for _, l := range langs {
		if strings.EqualFold(l, tag) {
			return l
		}
	}
	for alias, l := range languageAliases {
		if strings.EqualFold(alias, tag) {
			return l
		}
	}
	t, err := language.Parse(tag)
	if err != nil {
		return ""
	}
	base, _ := t.Base()
	for _, l := range langs {
		if lb, _ := language.Make(l).Base(); lb == base {
			return l
		}
	}
	return ""
}

// browserLanguage is the page language that best matches Accept-Language,
// English when none does.
func (s *Server) browserLanguage(accept string) string {
	langs := s.CreatorPage.Languages
	if len(langs) == 0 {
		return "en"
	}
	tags := make([]language.Tag, len(langs))
	for i, l := range langs {
		tags[i] = language.Make(l)
	}
	want, _, _ := language.ParseAcceptLanguage(accept)
	if len(want) == 0 {
		return langs[0]
	}
	_, i, conf := language.NewMatcher(tags).Match(want...)
	if conf == language.No {
		return langs[0]
	}
	return langs[i]
}

// creatorStatic serves the page's files with an ETag and a day's cache,
// revalidated after (their URLs carry no version).
func (s *Server) creatorStatic(c *gin.Context) {
	name := strings.TrimPrefix(c.Param("path"), "/")
	if s.CreatorPage.Static == nil || !fs.ValidPath(name) || name == "." {
		notFound(c)
		return
	}
	f, err := s.CreatorPage.Static.Open(name)
	if err != nil {
		notFound(c)
		return
	}
	defer f.Close()
	content, ok := f.(io.ReadSeeker)
	if st, err := f.Stat(); err != nil || st.IsDir() || !ok {
		notFound(c)
		return
	}
	etag, err := s.staticETag(name, content)
	if err != nil {
		fail(c, err)
		return
	}
	ct := mime.TypeByExtension(path.Ext(name))
	switch path.Ext(name) {
	case ".js", ".mjs":
		ct = "text/javascript; charset=utf-8"
	case ".glb":
		ct = "model/gltf-binary"
	}
	if ct == "" {
		ct = "application/octet-stream"
	}
	h := c.Writer.Header()
	h.Set("Content-Type", ct)
	h.Set("ETag", etag)
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(c.Writer, c.Request, name, time.Time{}, content)
}

// staticETag is the ETag of a static file, hashed once: the files are
// embedded, so they never change while the process runs.
func (s *Server) staticETag(name string, f io.ReadSeeker) (string, error) {
	if etag, ok := s.creatorETags.Load(name); ok {
		return etag.(string), nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	etag := `"` + hex.EncodeToString(h.Sum(nil)[:12]) + `"`
	s.creatorETags.Store(name, etag)
	return etag, nil
}

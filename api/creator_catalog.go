package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/jobs"
)

// styleLabels are the catalogue's English names of the style ids; the
// page translates them by id.
var styleLabels = map[string]string{
	"short": "Short", "buzz": "Buzz cut", "long": "Long", "bun": "Bob", "ponytail": "Ponytail", "curly": "Curly", "bald": "Bald",
	"tshirt": "T-shirt", "shirt": "Shirt", "hoodie": "Hoodie", "blouse": "Blouse", "tank": "Tank top",
	"jeans": "Jeans", "trousers": "Trousers", "shorts": "Shorts", "skirt": "Skirt",
	"sneakers": "Sneakers", "boots": "Boots", "shoes": "Shoes",
	"none": "None", "round": "Round", "square": "Square",
	"stubble": "Stubble", "short-beard": "Short beard", "full-beard": "Full beard", "goatee": "Goatee", "moustache": "Moustache",
	"cap": "Cap", "beanie": "Beanie", "fedora": "Fedora",
}

// quickStart is a template of the quick-start gallery: a configuration
// to start from.
type quickStart struct {
	ID, Label string
	Config    avatar.Config
}

// templates is the quick-start gallery (?quickStart): a mix of bodies,
// ages, skin tones and outfits, each a valid configuration (checked when
// the package loads).
var templates = func() []quickStart {
	specs := []struct{ id, label, json string }{
		{"casual-m", "Casual", `{"body":{"type":"masculine","height":1.8,"build":0.45},"skin":{"tone":"medium"},"hair":{"style":"short","color":"black"},"outfit":{"top":{"style":"hoodie","color":"#2f6f4f"},"bottom":{"style":"jeans","color":"denim"},"footwear":{"style":"sneakers","color":"white"}}}`},
		{"office-f", "Office", `{"body":{"type":"feminine","height":1.68,"build":0.35},"skin":{"tone":"light"},"hair":{"style":"bun","color":"brown"},"eyes":{"color":"blue"},"outfit":{"top":{"style":"blouse","color":"white"},"bottom":{"style":"trousers","color":"black"},"footwear":{"style":"shoes","color":"black"}},"glasses":{"style":"square","color":"black"}}`},
		{"sport-f", "Sport", `{"body":{"type":"feminine","height":1.72,"build":0.6},"skin":{"tone":"dark"},"hair":{"style":"ponytail","color":"black"},"outfit":{"top":{"style":"tank","color":"#d94a3a"},"bottom":{"style":"shorts","color":"black"},"footwear":{"style":"sneakers","color":"white"}}}`},
		{"outdoor-m", "Outdoor", `{"body":{"type":"masculine","height":1.76,"build":0.7},"skin":{"tone":"light"},"hair":{"style":"buzz","color":"blonde"},"outfit":{"top":{"style":"shirt","color":"#6b4f2a"},"bottom":{"style":"trousers","color":"#4a5a3a"},"footwear":{"style":"boots","color":"brown"}}}`},
		{"senior-m", "Senior", `{"body":{"type":"masculine","height":1.74,"build":0.5,"age":70},"skin":{"tone":"medium"},"hair":{"style":"short","color":"grey"},"outfit":{"top":{"style":"shirt","color":"navy"},"bottom":{"style":"trousers","color":"#8a7f6a"},"footwear":{"style":"shoes","color":"brown"}},"glasses":{"style":"round","color":"#8a6a3a"}}`},
		{"summer-f", "Summer", `{"body":{"type":"feminine","height":1.6,"build":0.3},"skin":{"tone":"tan"},"hair":{"style":"curly","color":"dark-brown"},"outfit":{"top":{"style":"tshirt","color":"#f2c94c"},"bottom":{"style":"skirt","color":"#3a6ea5"},"footwear":{"style":"sneakers","color":"white"}}}`},
	}
	out := make([]quickStart, len(specs))
	for i, sp := range specs {
		cfg, err := avatar.ParseConfig([]byte(sp.json))
		if err != nil {
			panic("api: template " + sp.id + ": " + err.Error())
		}
		out[i] = quickStart{ID: sp.id, Label: sp.label, Config: cfg}
	}
	return out
}()

// offeredStyles is every catalogue category with the styles the app
// offers (all where it names none).
func offeredStyles(a *kiln.App) map[string][]string {
	out := make(map[string][]string, len(avatar.StyleCategories))
	for _, cat := range avatar.StyleCategories {
		out[cat] = a.Styles[cat]
		if len(out[cat]) == 0 {
			out[cat] = avatar.Styles(cat)
		}
	}
	return out
}

// catalog serves GET /creator/catalog?app=: the app's styles with their
// thumbnails, and the quick-start templates.
func (s *Server) catalog(c *gin.Context) {
	slug := c.DefaultQuery("app", kiln.DefaultApp)
	a, err := s.creatorApp(c.Request.Context(), slug)
	if err != nil {
		fail(c, err)
		return
	}
	styles := gin.H{}
	for cat, ids := range offeredStyles(a) {
		items := make([]gin.H, len(ids))
		for i, id := range ids {
			items[i] = gin.H{"id": id, "label": styleLabels[id],
				"thumbnailUrl": s.PublicAvatarURL + "/creator/thumbnails/" + cat + "/" + id + ".png"}
			if col := avatar.StyleColor(cat, id); col != "" {
				items[i]["color"] = col
			}
		}
		styles[cat] = items
	}
	tpls := make([]gin.H, len(templates))
	for i, t := range templates {
		tpls[i] = gin.H{"id": t.ID, "label": t.Label, "configuration": t.Config,
			"previewUrl": s.PublicAvatarURL + "/creator/templates/" + t.ID + ".png"}
	}
	c.Header("Cache-Control", "no-cache")
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": gin.H{"styles": styles, "templates": tpls}})
}

// thumbnailSize is the side of catalogue pictures: a grid cell at twice
// the density of a phone's.
const thumbnailSize = 256

// thumbnail serves GET /creator/thumbnails/{category}/{style}.png?type=:
// the style on the default body of the type (masculine, feminine, or the
// leader's male and female), rendered once by a job and kept in storage.
func (s *Server) thumbnail(c *gin.Context) {
	cat := c.Param("category")
	style, ok := strings.CutSuffix(c.Param("file"), ".png")
	all := avatar.Styles(cat)
	if !ok || all == nil || !slices.Contains(all, style) {
		fail(c, kiln.Errorf(kiln.KindNotFound, "no_such_style", "no style %s/%s; GET /creator/catalog lists them", cat, c.Param("file")))
		return
	}
	body := avatar.Masculine
	switch t := c.DefaultQuery("type", avatar.Masculine); t {
	case avatar.Masculine, "male":
	case avatar.Feminine, "female":
		body = avatar.Feminine
	default:
		fail(c, invalidf("invalid_type", "type must be masculine or feminine, got %q", t))
		return
	}
	job, err := thumbnailJob(body, cat, style)
	if err != nil {
		fail(c, err)
		return
	}
	s.serveConfigPicture(c, job, "thumbnails/"+body+"/"+cat+"/"+style, "thumbnail", cat+"/"+style)
}

// thumbnailJob is the job that renders a style's thumbnail on the
// default body of a type: a portrait for what is worn on the head, the
// whole body for the rest.
func thumbnailJob(body, cat, style string) (jobs.ConfigRender, error) {
	camera := "full"
	if cat == "hair" || cat == "facialHair" || cat == "glasses" || cat == "headwear" {
		camera = "portrait"
	}
	cfg := avatar.Default(body).WithStyle(cat, style)
	job, err := configPicture("thumbnails/"+body+"/"+cat+"/"+style, cfg, camera)
	job.Part = cat
	return job, err
}

// templatePreview serves GET /creator/templates/{id}.png, a template's
// full-body picture.
func (s *Server) templatePreview(c *gin.Context) {
	id, _ := strings.CutSuffix(c.Param("file"), ".png")
	for _, t := range templates {
		if t.ID == id && c.Param("file") == id+".png" {
			job, err := configPicture("templates/"+id, t.Config, "full")
			if err != nil {
				fail(c, err)
				return
			}
			s.serveConfigPicture(c, job, "templates/"+id, "template", id)
			return
		}
	}
	fail(c, kiln.Errorf(kiln.KindNotFound, "no_such_template", "no template %s; GET /creator/catalog lists them", c.Param("file")))
}

// configPicture is the config:render job of a configuration's picture,
// under a key that names a hash of everything it shows, so that a
// changed catalogue or default body gets a new picture (and a new ETag)
// under the same URL, while an unchanged one is found in storage after a
// restart.
func configPicture(name string, cfg avatar.Config, camera string) (jobs.ConfigRender, error) {
	raw, err := json.Marshal(cfg)
	if err != nil {
		return jobs.ConfigRender{}, err
	}
	sum := sha256.Sum256([]byte(string(raw) + "|" + camera))
	return jobs.ConfigRender{BlobKey: "creator/" + name + "-" + hex.EncodeToString(sum[:6]) + ".png",
		Configuration: raw, Camera: camera, Size: thumbnailSize}, nil
}

// serveConfigPicture answers the picture of a config:render job, built
// once and kept in storage.
func (s *Server) serveConfigPicture(c *gin.Context, job jobs.ConfigRender, name, what, label string) {
	// The pictures are everyone's: their builds queue fairly per client
	// address, as the built-in avatars' do.
	s.serveBuilt(c, built{owner: "ip:" + c.ClientIP(), key: job.BlobKey, name: strings.ReplaceAll(name, "/", "-") + ".png", contentType: "image/png",
		job: job, what: what, label: label, cache: cacheShared})
}

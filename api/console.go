package api

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// defaultLang is what details report when the object's own name and
// description were used.
const defaultLang = "default"

// detailsView is an object as a service integration reads it: texts in
// one language, and the URLs of everything it can load.
type detailsView struct {
	ObjectID    string           `json:"objectId"`
	Type        string           `json:"type"`
	Extension   string           `json:"extension"`
	State       kiln.ObjectState `json:"state"`
	Error       string           `json:"error,omitempty"`
	Name        string           `json:"name"`
	Description string           `json:"description"`
	// Lang is the translation the texts came from: the locale asked for,
	// its bare language, another locale of that language, or "default".
	Lang          string            `json:"lang"`
	RequestedLang string            `json:"requestedLang,omitempty"`
	Fallback      bool              `json:"fallback"`
	Languages     []string          `json:"languages"`
	Files         map[string]string `json:"files"`
	LODs          []lodView         `json:"lods,omitempty"`
	Stats         *kiln.ModelStats  `json:"stats,omitempty"`
	Viewers       []viewerRef       `json:"viewers"`
	CreatedAt     time.Time         `json:"createdAt"`
	UpdatedAt     time.Time         `json:"updatedAt"`
}

type viewerRef struct {
	Token  string `json:"viewerToken"`
	Name   string `json:"name"`
	Public bool   `json:"public"`
}

// objectDetails answers GET /console/objects/{objectId}/details?lang=.
func (s *Server) objectDetails(c *gin.Context) {
	lang, asked := c.GetQuery("lang")
	if asked {
		if err := checkLang("lang", lang); err != nil {
			fail(c, err)
			return
		}
	}
	o, err := s.ownObject(c)
	if err != nil {
		fail(c, err)
		return
	}
	viewers, err := s.Likes.ObjectViewers(c.Request.Context(), o.Account, o.ID)
	if err != nil {
		fail(c, err)
		return
	}
	v := s.view(c, o)
	d := detailsView{
		ObjectID: o.ID, Type: o.Type, Extension: o.Extension, State: o.State, Error: o.Error,
		Name: o.Name, Description: o.Description, Lang: defaultLang, RequestedLang: lang,
		Languages: []string{}, Files: v.Files, LODs: v.LODs, Stats: o.Stats,
		Viewers: []viewerRef{}, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt,
	}
	for l := range o.Translations {
		d.Languages = append(d.Languages, l)
	}
	slices.Sort(d.Languages)
	if used, ok := pickLang(d.Languages, lang); ok {
		t := o.Translations[used]
		d.Lang = used
		if t.Name != "" {
			d.Name = t.Name
		}
		if t.Description != "" {
			d.Description = t.Description
		}
	}
	d.Fallback = asked && d.Lang != lang
	for _, vw := range viewers {
		d.Viewers = append(d.Viewers, viewerRef{Token: vw.Token, Name: vw.Name, Public: vw.Public})
	}
	c.JSON(http.StatusOK, d)
}

// pickLang chooses among the sorted available translations for want
// (de_DE): the same locale, else the bare language (de), else the first
// locale of that language (de_AT); ok is false when none fits.
func pickLang(available []string, want string) (string, bool) {
	if want == "" {
		return "", false
	}
	base, _, _ := strings.Cut(want, "_")
	for _, cand := range []string{want, base} {
		if slices.Contains(available, cand) {
			return cand, true
		}
	}
	for _, l := range available {
		if strings.HasPrefix(l, base+"_") {
			return l, true
		}
	}
	return "", false
}

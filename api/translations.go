package api

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// langPattern is a locale as the spec writes it: de or de_DE.
var langPattern = regexp.MustCompile(`^[a-z]{2}(_[A-Z]{2})?$`)

// maxTranslations bounds the languages of one object.
const maxTranslations = 100

func checkLang(field, lang string) error {
	if !langPattern.MatchString(lang) {
		return invalidf("invalid_lang", "%s must be a language like de or a locale like de_DE, got %q", field, lang)
	}
	return nil
}

// putTranslations replaces the object's names and descriptions in other
// languages: {"de_DE":{"name":"Stuhl","description":"…"}}; {} removes
// them all.
func (s *Server) putTranslations(c *gin.Context) {
	o, err := s.ownObject(c)
	if err != nil {
		fail(c, err)
		return
	}
	var tr map[string]kiln.Translation
	if err := bindJSON(c, &tr); err != nil {
		fail(c, err)
		return
	}
	if tr == nil {
		fail(c, invalidf("invalid_json", "the body must be a JSON object of locales, like {\"de_DE\":{\"name\":\"Stuhl\"}}"))
		return
	}
	if len(tr) > maxTranslations {
		fail(c, invalidf("too_many_translations", "at most %d languages, got %d", maxTranslations, len(tr)))
		return
	}
	for lang, t := range tr {
		if err := checkLang("the key "+lang, lang); err != nil {
			fail(c, err)
			return
		}
		t.Name, t.Description = strings.TrimSpace(t.Name), strings.TrimSpace(t.Description)
		if t.Name == "" && t.Description == "" {
			fail(c, invalidf("invalid_translation", "%s: give a name, a description or both", lang))
			return
		}
		if len(t.Name) > 200 || len(t.Description) > 5000 {
			fail(c, invalidf("invalid_translation", "%s: name must be at most 200 characters, description at most 5000", lang))
			return
		}
		tr[lang] = t
	}
	o, err = s.Objects.UpdateObject(c.Request.Context(), o.ID, func(o *kiln.Object) error {
		o.Translations = tr
		if len(tr) == 0 {
			o.Translations = nil
		}
		return nil
	})
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, []objectView{s.view(c, o)})
}

package api

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// CatalogStore keeps the accounts' custom furniture catalogs.
type CatalogStore interface {
	Catalog(ctx context.Context, account string) ([]kiln.CatalogEntry, error)
	UpdateCatalog(ctx context.Context, account string, fn func([]kiln.CatalogEntry) ([]kiln.CatalogEntry, error)) ([]kiln.CatalogEntry, error)
	// Objects returns the objects of ids, nil where there is none.
	Objects(ctx context.Context, ids []string) ([]*kiln.Object, error)
}

// Limits of a catalog.
const (
	maxCatalogEntries = 1000
	maxCatalogText    = 100
)

var currencyPattern = regexp.MustCompile(`^[A-Z]{3}$`)

// catalogEntryView is an entry as GET answers it: the shop data with the
// object's current name and the URLs a configurator loads.
type catalogEntryView struct {
	kiln.CatalogEntry
	Name         string `json:"name"`
	Description  string `json:"description"`
	ThumbnailURL string `json:"thumbnailUrl,omitempty"`
	GLBURL       string `json:"glbUrl,omitempty"`
}

// getCatalog answers the caller's catalog, [] when none is set up. An
// entry whose object is gone is left out.
func (s *Server) getCatalog(c *gin.Context) {
	entries, err := s.Catalog.Catalog(c.Request.Context(), callerKey(c).Account)
	if err != nil {
		fail(c, err)
		return
	}
	s.answerCatalog(c, entries)
}

func (s *Server) answerCatalog(c *gin.Context, entries []kiln.CatalogEntry) {
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = e.ObjectID
	}
	objs, err := s.Catalog.Objects(c.Request.Context(), ids)
	if err != nil {
		fail(c, err)
		return
	}
	out := make([]catalogEntryView, 0, len(entries))
	for i, e := range entries {
		o := objs[i]
		if o == nil {
			continue
		}
		files := s.view(c, o).Files
		out = append(out, catalogEntryView{
			CatalogEntry: e, Name: o.Name, Description: o.Description,
			ThumbnailURL: files["preview"], GLBURL: files["glb"],
		})
	}
	c.JSON(http.StatusOK, out)
}

// putCatalog replaces the whole catalog with the JSON array of the body;
// [] empties it.
func (s *Server) putCatalog(c *gin.Context) {
	var entries []kiln.CatalogEntry
	if err := bindJSON(c, &entries); err != nil {
		fail(c, err)
		return
	}
	if entries == nil {
		fail(c, invalidf("invalid_json", "the body must be a JSON array of entries like [{\"objectId\":\"obj_…\",\"category\":\"chairs\"}]"))
		return
	}
	if len(entries) > maxCatalogEntries {
		fail(c, invalidf("too_many_entries", "a catalog holds at most %d entries, got %d", maxCatalogEntries, len(entries)))
		return
	}
	seen := map[string]bool{}
	for i := range entries {
		if err := checkEntry(fmt.Sprintf("[%d].", i), &entries[i]); err != nil {
			fail(c, err)
			return
		}
		if seen[entries[i].ObjectID] {
			fail(c, invalidf("duplicate_catalog_object", "[%d].objectId: %s is listed twice", i, entries[i].ObjectID))
			return
		}
		seen[entries[i].ObjectID] = true
	}
	if err := s.checkCatalogObjects(c, entries); err != nil {
		fail(c, err)
		return
	}
	entries, err := s.Catalog.UpdateCatalog(c.Request.Context(), callerKey(c).Account, func([]kiln.CatalogEntry) ([]kiln.CatalogEntry, error) {
		return entries, nil
	})
	if err != nil {
		fail(c, err)
		return
	}
	s.answerCatalog(c, entries)
}

// addCatalogEntry adds one entry, or replaces the entry of its object.
func (s *Server) addCatalogEntry(c *gin.Context) {
	var e kiln.CatalogEntry
	if err := bindJSON(c, &e); err != nil {
		fail(c, err)
		return
	}
	if err := checkEntry("", &e); err != nil {
		fail(c, err)
		return
	}
	if err := s.checkCatalogObjects(c, []kiln.CatalogEntry{e}); err != nil {
		fail(c, err)
		return
	}
	entries, err := s.Catalog.UpdateCatalog(c.Request.Context(), callerKey(c).Account, func(cur []kiln.CatalogEntry) ([]kiln.CatalogEntry, error) {
		if i := slices.IndexFunc(cur, func(x kiln.CatalogEntry) bool { return x.ObjectID == e.ObjectID }); i >= 0 {
			cur[i] = e
			return cur, nil
		}
		if len(cur) >= maxCatalogEntries {
			return nil, kiln.Errorf(kiln.KindConflict, "catalog_full", "the catalog already holds %d entries, the most it can", maxCatalogEntries)
		}
		return append(cur, e), nil
	})
	if err != nil {
		fail(c, err)
		return
	}
	s.answerCatalog(c, entries)
}

// deleteCatalogEntry removes the entry of one object.
func (s *Server) deleteCatalogEntry(c *gin.Context) {
	id := c.Param("objectId")
	if err := kiln.CheckID("objectId", id); err != nil {
		fail(c, err)
		return
	}
	entries, err := s.Catalog.UpdateCatalog(c.Request.Context(), callerKey(c).Account, func(cur []kiln.CatalogEntry) ([]kiln.CatalogEntry, error) {
		i := slices.IndexFunc(cur, func(x kiln.CatalogEntry) bool { return x.ObjectID == id })
		if i < 0 {
			return nil, kiln.Errorf(kiln.KindNotFound, "not_in_catalog", "object %s is not in the catalog", id)
		}
		return slices.Delete(cur, i, i+1), nil
	})
	if err != nil {
		fail(c, err)
		return
	}
	s.answerCatalog(c, entries)
}

// checkEntry validates the fields of one entry; at names it in messages.
func checkEntry(at string, e *kiln.CatalogEntry) error {
	e.Category, e.SKU, e.Currency = strings.TrimSpace(e.Category), strings.TrimSpace(e.SKU), strings.TrimSpace(e.Currency)
	switch {
	case !kiln.ValidID(e.ObjectID):
		return invalidf("invalid_id", "%sobjectId must be 1 to 64 characters of A-Z, a-z, 0-9, _ and -", at)
	case len(e.Category) > maxCatalogText:
		return invalidf("invalid_category", "%scategory must be at most %d characters", at, maxCatalogText)
	case len(e.SKU) > maxCatalogText:
		return invalidf("invalid_sku", "%ssku must be at most %d characters", at, maxCatalogText)
	case e.Price != nil && (*e.Price < 0 || *e.Price > 1e12):
		return invalidf("invalid_price", "%sprice must be a number from 0 to 1e12", at)
	case e.Currency != "" && !currencyPattern.MatchString(e.Currency):
		return invalidf("invalid_currency", "%scurrency must be an ISO 4217 code like EUR, got %q", at, e.Currency)
	}
	return nil
}

// checkCatalogObjects admits only ready objects of the caller's account,
// and names every other one in a single 400.
func (s *Server) checkCatalogObjects(c *gin.Context, entries []kiln.CatalogEntry) error {
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = e.ObjectID
	}
	objs, err := s.Catalog.Objects(c.Request.Context(), ids)
	if err != nil {
		return err
	}
	account := callerKey(c).Account
	var bad []string
	for i, o := range objs {
		if o == nil || o.Account != account || o.State != kiln.StateReady {
			bad = append(bad, ids[i])
		}
	}
	if len(bad) > 0 {
		return invalidf("unknown_catalog_objects", "only ready objects of your account can be listed; these are not: %s", strings.Join(bad, ", "))
	}
	return nil
}

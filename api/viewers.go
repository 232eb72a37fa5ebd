package api

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// ViewerStore keeps viewers with their annotations and space-objects.
type ViewerStore interface {
	CreateViewer(ctx context.Context, v *kiln.Viewer) error
	Viewer(ctx context.Context, token string) (*kiln.Viewer, error)
	DeleteViewer(ctx context.Context, v *kiln.Viewer) error
	PublicViewers(ctx context.Context, kind string, offset, count int64) ([]*kiln.Viewer, error)
	AccountViewers(ctx context.Context, account string, offset, count int64) ([]*kiln.Viewer, error)
	AddAnnotation(ctx context.Context, a *kiln.Annotation) error
	Annotations(ctx context.Context, token string) ([]*kiln.Annotation, error)
	AddSpaceObject(ctx context.Context, o *kiln.SpaceObject) error
	SpaceObjects(ctx context.Context, token string) ([]*kiln.SpaceObject, error)
	UpdateSpaceObject(ctx context.Context, token, id string, fn func(*kiln.SpaceObject) error) (*kiln.SpaceObject, error)
	ResetSpaceObjects(ctx context.Context, token string) (removed, reset int, err error)
}

// defaultPageLength is the page length of viewer lists without length.
const defaultPageLength = 20

type viewerRequest struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	Public   bool   `json:"public"`
	SpaceID  string `json:"spaceId"`
	ObjectID string `json:"objectId"`
}

// publicViewer is a viewer as anyone may see it: without the account that
// owns it.
type publicViewer struct {
	Token     string    `json:"viewerToken"`
	Kind      string    `json:"type"`
	Name      string    `json:"name"`
	ObjectID  string    `json:"objectId,omitempty"`
	SpaceID   string    `json:"spaceId,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
}

func (s *Server) createViewer(c *gin.Context) {
	var req viewerRequest
	if err := bindJSON(c, &req); err != nil {
		fail(c, err)
		return
	}
	v := &kiln.Viewer{
		Token:     kiln.NewID("vw"),
		Account:   callerKey(c).Account,
		Kind:      req.Type,
		Name:      strings.TrimSpace(req.Name),
		Public:    req.Public,
		ObjectID:  req.ObjectID,
		SpaceID:   req.SpaceID,
		CreatedAt: time.Now().UTC(),
	}
	err := kiln.ValidateNewViewer(v)
	if err == nil && v.Kind == kiln.ViewerProduct {
		_, err = s.accountObject(c, "objectId", v.ObjectID)
	}
	if err == nil && v.Kind == kiln.ViewerSpace {
		_, err = s.ownSpace(c, "spaceId", v.SpaceID)
	}
	if err == nil {
		err = s.Viewers.CreateViewer(c.Request.Context(), v)
		if kiln.KindOf(err) == kiln.KindNotFound {
			err = kiln.Errorf(kiln.KindNotFound, "space_not_found", "spaceId: no space with id %s", v.SpaceID)
		}
	}
	if err != nil {
		fail(c, err)
		return
	}
	logger(c).Info("viewer created", "viewer_token", v.Token, "type", v.Kind, "public", v.Public)
	c.JSON(http.StatusCreated, v)
}

// ownViewer loads the viewer of the path for the caller; another
// account's answers 404 like a missing one, so tokens cannot be probed.
func (s *Server) ownViewer(c *gin.Context) (*kiln.Viewer, error) {
	token := c.Param("viewerToken")
	if err := kiln.CheckID("viewerToken", token); err != nil {
		return nil, err
	}
	v, err := s.Viewers.Viewer(c.Request.Context(), token)
	return owned(c, v, err, kiln.Errorf(kiln.KindNotFound, "viewer_not_found", "no viewer with token %s", token))
}

func (s *Server) getViewer(c *gin.Context) {
	v, err := s.ownViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, v)
}

// deleteViewer deletes a viewer with its annotations and space-objects,
// so that its space can be deleted in turn.
func (s *Server) deleteViewer(c *gin.Context) {
	v, err := s.ownViewer(c)
	if err == nil {
		err = s.Viewers.DeleteViewer(c.Request.Context(), v)
		if kiln.KindOf(err) == kiln.KindNotFound {
			err = kiln.Errorf(kiln.KindNotFound, "viewer_not_found", "no viewer with token %s", v.Token)
		}
	}
	if err != nil {
		fail(c, err)
		return
	}
	logger(c).Info("viewer deleted", "viewer_token", v.Token)
	c.JSON(http.StatusOK, gin.H{"deleted": true, "viewerToken": v.Token})
}

func (s *Server) listViewers(c *gin.Context) {
	offset, length, err := pageQuery(c)
	if err != nil {
		fail(c, err)
		return
	}
	vs, err := s.Viewers.AccountViewers(c.Request.Context(), callerKey(c).Account, offset, length)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"viewers": vs})
}

// viewerTypes maps the accepted values of GET /viewers/public?type= to a
// kind: the kind itself, and the spec's wording "space viewer" and
// "product viewer" (with a space, _ or -).
var viewerTypes = map[string]string{
	"space": kiln.ViewerSpace, "space viewer": kiln.ViewerSpace, "space_viewer": kiln.ViewerSpace, "space-viewer": kiln.ViewerSpace,
	"product": kiln.ViewerProduct, "product viewer": kiln.ViewerProduct, "product_viewer": kiln.ViewerProduct, "product-viewer": kiln.ViewerProduct,
}

// publicViewers lists public viewers of one kind, newest first, as a bare
// array (the spec calls it an array).
func (s *Server) publicViewers(c *gin.Context) {
	t := strings.ToLower(strings.TrimSpace(c.Query("type")))
	if t == "" {
		fail(c, invalidf("missing_type", "type is required: space or product"))
		return
	}
	kind, known := viewerTypes[t]
	if !known {
		fail(c, invalidf("invalid_type", "type %q is not space or product", c.Query("type")))
		return
	}
	offset, length, err := pageQuery(c)
	if err != nil {
		fail(c, err)
		return
	}
	vs, err := s.Viewers.PublicViewers(c.Request.Context(), kind, offset, length)
	if err != nil {
		fail(c, err)
		return
	}
	out := make([]publicViewer, 0, len(vs))
	for _, v := range vs {
		out = append(out, publicViewer{Token: v.Token, Kind: v.Kind, Name: v.Name, ObjectID: v.ObjectID, SpaceID: v.SpaceID, CreatedAt: v.CreatedAt})
	}
	c.JSON(http.StatusOK, out)
}

// maxPage bounds page so that the offset it makes cannot overflow.
const maxPage = 1_000_000

// pageQuery reads page (from 1, default 1) and length (1 to
// kiln.MaxPublicViewersPage, default 20) and returns the offset and count.
func pageQuery(c *gin.Context) (offset, length int64, err error) {
	page, err := queryInt(c, "page", 1, 1, maxPage)
	if err != nil {
		return 0, 0, err
	}
	length, err = queryInt(c, "length", defaultPageLength, 1, kiln.MaxPublicViewersPage)
	if err != nil {
		return 0, 0, err
	}
	return (page - 1) * length, length, nil
}

func queryInt(c *gin.Context, field string, def, lo, hi int64) (int64, error) {
	v, set := c.GetQuery(field)
	if !set {
		return def, nil
	}
	n, ok := kiln.Whole(strings.TrimSpace(v))
	if !ok || int64(n) < lo || int64(n) > hi {
		return 0, invalidf("invalid_"+field, "%s must be a whole number from %d to %d, got %q", field, lo, hi, v)
	}
	return int64(n), nil
}

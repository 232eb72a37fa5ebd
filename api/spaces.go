package api

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// SpaceStore keeps space templates and spaces. Deleting one that is in use
// answers a KindConflict error, decided atomically by the store.
type SpaceStore interface {
	CreateTemplate(ctx context.Context, t *kiln.SpaceTemplate) error
	Template(ctx context.Context, id string) (*kiln.SpaceTemplate, error)
	Templates(ctx context.Context, account string) ([]*kiln.SpaceTemplate, error)
	DeleteTemplate(ctx context.Context, t *kiln.SpaceTemplate) error
	CreateSpace(ctx context.Context, s *kiln.Space) error
	Space(ctx context.Context, id string) (*kiln.Space, error)
	Spaces(ctx context.Context, account string) ([]*kiln.Space, error)
	DeleteSpace(ctx context.Context, s *kiln.Space) error
}

type templateRequest struct {
	Name        string              `json:"name"`
	Description string              `json:"description"`
	Origin      kiln.TemplateOrigin `json:"origin"`
}

type spaceRequest struct {
	Name            string `json:"name"`
	SpaceTemplateID string `json:"spaceTemplateId"`
}

func (s *Server) listTemplates(c *gin.Context) {
	ts, err := s.Spaces.Templates(c.Request.Context(), callerKey(c).Account)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"templates": ts})
}

// createTemplate makes a custom template from one of the caller's objects:
// an uploaded room model (origin.source upload) or an imported scan
// (ios-scan).
func (s *Server) createTemplate(c *gin.Context) {
	var req templateRequest
	if err := bindJSON(c, &req); err != nil {
		fail(c, err)
		return
	}
	t := &kiln.SpaceTemplate{
		ID:          kiln.NewID("spt"),
		Account:     callerKey(c).Account,
		Name:        strings.TrimSpace(req.Name),
		Description: req.Description,
		Origin:      req.Origin,
		CreatedAt:   time.Now().UTC(),
	}
	if err := kiln.ValidateNewTemplate(t); err != nil {
		fail(c, err)
		return
	}
	if _, err := s.accountObject(c, "origin.objectId", t.Origin.ObjectID); err != nil {
		fail(c, err)
		return
	}
	if err := s.Spaces.CreateTemplate(c.Request.Context(), t); err != nil {
		fail(c, err)
		return
	}
	logger(c).Info("space template created", "space_template_id", t.ID, "account", t.Account, "origin", t.Origin.Source)
	c.JSON(http.StatusCreated, t)
}

// deleteTemplate follows spec sections 4.2 and 7: 403 for a system
// template or another account's, 404 for none, 409 while a space uses it.
func (s *Server) deleteTemplate(c *gin.Context) {
	id := c.Param("spaceTemplateId")
	if err := kiln.CheckID("spaceTemplateId", id); err != nil {
		fail(c, err)
		return
	}
	notFound := kiln.Errorf(kiln.KindNotFound, "template_not_found", "no space template with id %s", id)
	ctx := c.Request.Context()
	t, err := s.Spaces.Template(ctx, id)
	if kiln.KindOf(err) == kiln.KindNotFound {
		err = notFound
	}
	if err != nil {
		fail(c, deletionFailed(err))
		return
	}
	if !t.Custom() {
		fail(c, kiln.Errorf(kiln.KindForbidden, "system_template",
			"space template %s is a system template (origin.source %s); only upload and ios-scan templates can be deleted", id, t.Origin.Source))
		return
	}
	if t.Account != callerKey(c).Account {
		fail(c, kiln.Errorf(kiln.KindForbidden, "not_owner", "space template %s belongs to another account", id))
		return
	}
	if err := s.Spaces.DeleteTemplate(ctx, t); err != nil {
		if kiln.KindOf(err) == kiln.KindNotFound {
			err = notFound
		}
		fail(c, deletionFailed(err))
		return
	}
	logger(c).Info("space template deleted", "space_template_id", id)
	c.JSON(http.StatusOK, gin.H{"deleted": true, "spaceTemplateId": id})
}

// deletionFailed gives a template deletion that failed on Kiln's side the
// 500 of spec section 7, whichever dependency failed; client errors pass.
func deletionFailed(err error) error {
	if statusOf(kiln.KindOf(err)) < http.StatusInternalServerError {
		return err
	}
	return &kiln.Error{Op: "api.deleteTemplate", Code: "deletion_failed", Err: err}
}

func (s *Server) listSpaces(c *gin.Context) {
	sp, err := s.Spaces.Spaces(c.Request.Context(), callerKey(c).Account)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"spaces": sp})
}

func (s *Server) createSpace(c *gin.Context) {
	var req spaceRequest
	if err := bindJSON(c, &req); err != nil {
		fail(c, err)
		return
	}
	sp := &kiln.Space{
		ID:              kiln.NewID("sp"),
		Account:         callerKey(c).Account,
		Name:            strings.TrimSpace(req.Name),
		SpaceTemplateID: req.SpaceTemplateID,
		CreatedAt:       time.Now().UTC(),
	}
	if err := kiln.ValidateNewSpace(sp); err != nil {
		fail(c, err)
		return
	}
	ctx := c.Request.Context()
	notFound := kiln.Errorf(kiln.KindNotFound, "template_not_found",
		"spaceTemplateId: no space template %s among the system templates and the account's own", sp.SpaceTemplateID)
	t, err := s.Spaces.Template(ctx, sp.SpaceTemplateID)
	if kiln.KindOf(err) == kiln.KindNotFound || (err == nil && t.Custom() && t.Account != sp.Account) {
		err = notFound
	}
	if err == nil {
		err = s.Spaces.CreateSpace(ctx, sp)
		if kiln.KindOf(err) == kiln.KindNotFound {
			err = notFound
		}
	}
	if err != nil {
		fail(c, err)
		return
	}
	logger(c).Info("space created", "space_id", sp.ID, "space_template_id", sp.SpaceTemplateID)
	c.JSON(http.StatusCreated, sp)
}

// ownSpace loads the space of the path for the caller; another account's
// answers 404 like a missing one.
func (s *Server) ownSpace(c *gin.Context, field, id string) (*kiln.Space, error) {
	if err := kiln.CheckID(field, id); err != nil {
		return nil, err
	}
	sp, err := s.Spaces.Space(c.Request.Context(), id)
	return owned(c, sp, err, kiln.Errorf(kiln.KindNotFound, "space_not_found", "%s: no space with id %s", field, id))
}

func (s *Server) getSpace(c *gin.Context) {
	sp, err := s.ownSpace(c, "spaceId", c.Param("spaceId"))
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, sp)
}

// deleteSpace frees the space's template; a space that viewers show is a
// 409 until they are deleted.
func (s *Server) deleteSpace(c *gin.Context) {
	sp, err := s.ownSpace(c, "spaceId", c.Param("spaceId"))
	if err == nil {
		err = s.Spaces.DeleteSpace(c.Request.Context(), sp)
		if kiln.KindOf(err) == kiln.KindNotFound {
			err = kiln.Errorf(kiln.KindNotFound, "space_not_found", "spaceId: no space with id %s", sp.ID)
		}
	}
	if err != nil {
		fail(c, err)
		return
	}
	logger(c).Info("space deleted", "space_id", sp.ID)
	c.JSON(http.StatusOK, gin.H{"deleted": true, "spaceId": sp.ID})
}

// accountObject loads an object a request body names. Another account's
// object answers 404 like a missing one; one whose processing failed
// cannot be shown, so it is a 409.
func (s *Server) accountObject(c *gin.Context, field, id string) (*kiln.Object, error) {
	o, err := s.Objects.Object(c.Request.Context(), id)
	if kiln.KindOf(err) == kiln.KindNotFound || (err == nil && o.Account != callerKey(c).Account) {
		return nil, kiln.Errorf(kiln.KindNotFound, "object_not_found", "%s: no object with id %s", field, id)
	}
	if err != nil {
		return nil, err
	}
	if o.State == kiln.StateFailed {
		return nil, kiln.Errorf(kiln.KindConflict, "object_failed", "%s: object %s failed processing (%s); upload it again", field, id, o.Error)
	}
	return o, nil
}

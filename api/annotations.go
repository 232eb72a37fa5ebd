package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

type annotationRequest struct {
	Title    string    `json:"title"`
	Text     string    `json:"text"`
	Position []float64 `json:"position"`
	Normal   []float64 `json:"normal"`
}

type spaceObjectRequest struct {
	Kind            string    `json:"kind"`
	Text            string    `json:"text"`
	ObjectID        string    `json:"objectId"`
	Position        []float64 `json:"position"`
	Rotation        []float64 `json:"rotation"`
	InitialPosition []float64 `json:"initialPosition"`
}

// moveRequest moves a space-object (a missing position or rotation stays
// as it is); text edits a sticky note.
type moveRequest struct {
	Position []float64 `json:"position"`
	Rotation []float64 `json:"rotation"`
	Text     *string   `json:"text"`
}

func (s *Server) addAnnotation(c *gin.Context) {
	v, err := s.ownViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	var req annotationRequest
	if err := bindJSON(c, &req); err != nil {
		fail(c, err)
		return
	}
	a := &kiln.Annotation{
		ID:          kiln.NewID("ann"),
		ViewerToken: v.Token,
		Title:       strings.TrimSpace(req.Title),
		Text:        req.Text,
		Position:    req.Position,
		Normal:      req.Normal,
		CreatedAt:   time.Now().UTC(),
	}
	err = kiln.ValidateAnnotation(a)
	if err == nil {
		err = s.Viewers.AddAnnotation(c.Request.Context(), a)
	}
	if err != nil {
		fail(c, viewerGone(err, v))
		return
	}
	c.JSON(http.StatusCreated, a)
}

// listAnnotations answers an object holding the list, in creation order:
// the spec does not call this body an array.
func (s *Server) listAnnotations(c *gin.Context) {
	v, err := s.ownViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	s.answerAnnotations(c, v)
}

// answerAnnotations writes a viewer's annotations in creation order, for
// its owner and for its public page alike.
func (s *Server) answerAnnotations(c *gin.Context, v *kiln.Viewer) {
	as, err := s.Viewers.Annotations(c.Request.Context(), v.Token)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"viewerToken": v.Token, "annotations": as})
}

func (s *Server) addSpaceObject(c *gin.Context) {
	v, err := s.ownViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	var req spaceObjectRequest
	if err := bindJSON(c, &req); err != nil {
		fail(c, err)
		return
	}
	if v.Kind != kiln.ViewerSpace {
		fail(c, kiln.Errorf(kiln.KindConflict, "not_a_space_viewer", "viewer %s shows a %s; space-objects live in space viewers", v.Token, v.Kind))
		return
	}
	now := time.Now().UTC()
	o := &kiln.SpaceObject{
		ID:              kiln.NewID("so"),
		ViewerToken:     v.Token,
		Kind:            req.Kind,
		Text:            req.Text,
		ObjectID:        req.ObjectID,
		Position:        req.Position,
		Rotation:        req.Rotation,
		InitialPosition: req.InitialPosition,
		CreatedAt:       now,
		UpdatedAt:       now,
	}
	err = kiln.ValidateSpaceObject(o)
	if err == nil && o.Kind == kiln.Movable {
		_, err = s.accountObject(c, "objectId", o.ObjectID)
	}
	if err == nil {
		err = s.Viewers.AddSpaceObject(c.Request.Context(), o)
	}
	if err != nil {
		fail(c, viewerGone(err, v))
		return
	}
	c.JSON(http.StatusCreated, o)
}

func (s *Server) listSpaceObjects(c *gin.Context) {
	v, err := s.ownViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	objs, err := s.Viewers.SpaceObjects(c.Request.Context(), v.Token)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"viewerToken": v.Token, "objects": objs})
}

func (s *Server) moveSpaceObject(c *gin.Context) {
	v, err := s.ownViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	id := c.Param("spaceObjectId")
	if err := kiln.CheckID("spaceObjectId", id); err != nil {
		fail(c, err)
		return
	}
	var req moveRequest
	if err := bindJSON(c, &req); err != nil {
		fail(c, err)
		return
	}
	if req.Position == nil && req.Rotation == nil && req.Text == nil {
		fail(c, invalidf("empty_change", "send position, rotation or (for a sticky note) text"))
		return
	}
	o, err := s.Viewers.UpdateSpaceObject(c.Request.Context(), v.Token, id, func(o *kiln.SpaceObject) error {
		if req.Text != nil {
			switch {
			case o.Kind != kiln.StickyNote:
				return invalidf("invalid_text", "text is for sticky notes, not movable objects")
			case strings.TrimSpace(*req.Text) == "" || len(*req.Text) > kiln.MaxAnnotationTextLen:
				return invalidf("invalid_text", "text must be 1 to %d bytes", kiln.MaxAnnotationTextLen)
			}
			o.Text = *req.Text
		}
		if req.Position == nil && req.Rotation == nil {
			return nil
		}
		position := req.Position
		if position == nil {
			position = o.Position
		}
		return kiln.MovePose(o, position, req.Rotation)
	})
	if kiln.KindOf(err) == kiln.KindNotFound {
		err = kiln.Errorf(kiln.KindNotFound, "space_object_not_found", "viewer %s has no space-object %s", v.Token, id)
	}
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, o)
}

// resetSpaceObjects is DELETE /viewers/{viewerToken}/objects of the spec:
// sticky notes go, movable objects return to their initial pose.
func (s *Server) resetSpaceObjects(c *gin.Context) {
	v, err := s.ownViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	removed, reset, err := s.Viewers.ResetSpaceObjects(c.Request.Context(), v.Token)
	if err != nil {
		fail(c, err)
		return
	}
	logger(c).Info("space-objects reset", "viewer_token", v.Token, "removed", removed, "reset", reset)
	c.JSON(http.StatusOK, gin.H{"removed": removed, "reset": reset})
}

// viewerGone names the viewer when the store found it deleted between the
// check and the write.
func viewerGone(err error, v *kiln.Viewer) error {
	if kiln.KindOf(err) == kiln.KindNotFound {
		if code, _ := kiln.CodeOf(err); code == "not_found" {
			return kiln.Errorf(kiln.KindNotFound, "viewer_not_found", "no viewer with token %s", v.Token)
		}
	}
	return err
}

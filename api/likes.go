package api

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// LikeStore keeps likes: one set of accounts per object. ObjectViewers
// lists the product viewers that show an object, which decides who else
// may like it and which viewers the console details name.
type LikeStore interface {
	SetLike(ctx context.Context, id, account string, like bool) (int64, error)
	Likes(ctx context.Context, id, account string) (count int64, mine bool, err error)
	ObjectViewers(ctx context.Context, account, id string) ([]*kiln.Viewer, error)
}

type likeView struct {
	ObjectID  string `json:"objectId"`
	Likes     int64  `json:"likes"`
	LikedByMe bool   `json:"likedByMe"`
}

// likeHandler likes (POST) or unlikes (DELETE) an object for the caller's
// account. An account may like its own objects and any object that a
// public product viewer shows; every other object answers 404 like a
// missing one, so private ids cannot be probed.
func (s *Server) likeHandler(like bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		o, err := s.likeableObject(c)
		if err != nil {
			fail(c, err)
			return
		}
		account := callerKey(c).Account
		n, err := s.Likes.SetLike(c.Request.Context(), o.ID, account, like)
		if err != nil {
			fail(c, err)
			return
		}
		logger(c).Info("object like set", "object_id", o.ID, "like", like, "likes", n)
		c.JSON(http.StatusOK, []likeView{{ObjectID: o.ID, Likes: n, LikedByMe: like}})
	}
}

func (s *Server) likeableObject(c *gin.Context) (*kiln.Object, error) {
	id := c.Param("objectId")
	if err := kiln.CheckID("objectId", id); err != nil {
		return nil, err
	}
	ctx := c.Request.Context()
	notFound := kiln.Errorf(kiln.KindNotFound, "object_not_found", "no object with id %s", id)
	o, err := s.Objects.Object(ctx, id)
	if kiln.KindOf(err) == kiln.KindNotFound {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	if k := callerKey(c); o.Account == k.Account || k.Admin {
		return o, nil
	}
	viewers, err := s.Likes.ObjectViewers(ctx, o.Account, o.ID)
	if err != nil {
		return nil, err
	}
	for _, v := range viewers {
		if v.Public {
			return o, nil
		}
	}
	return nil, notFound
}

// addLikes fills the like count and whether the caller likes the object.
func (s *Server) addLikes(c *gin.Context, v *objectView) error {
	n, mine, err := s.Likes.Likes(c.Request.Context(), v.ID, callerKey(c).Account)
	if err != nil {
		return err
	}
	v.Likes, v.LikedByMe = &n, &mine
	return nil
}

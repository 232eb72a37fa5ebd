package kiln

import "time"

// Viewer kinds of the spec: a viewer shows a space or a product.
const (
	ViewerSpace   = "space"
	ViewerProduct = "product"
)

// Viewer is a page that shows a space or a product (an object) to
// visitors, identified by its token. Public viewers are listed by
// GET /viewers/public; tracking events of every viewer feed analytics.
type Viewer struct {
	Token     string    `json:"viewerToken"`
	Account   string    `json:"account"`
	Kind      string    `json:"type"`
	Name      string    `json:"name"`
	Public    bool      `json:"public"`
	ObjectID  string    `json:"objectId,omitempty"` // product viewers
	SpaceID   string    `json:"spaceId,omitempty"`  // space viewers
	CreatedAt time.Time `json:"createdAt"`
}

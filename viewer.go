package kiln

import (
	"math"
	"strings"
	"time"
)

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

// Limits of what visitors and owners put in a viewer. The spec leaves
// them open; these are Kiln's.
const (
	MaxAnnotationTextLen = 2000 // annotation and sticky-note text, bytes
	MaxCoordinate        = 1e6  // metres from the origin, either way
	MaxAnnotations       = 1000 // per viewer
	MaxSpaceObjects      = 1000 // per viewer
	MaxPublicViewersPage = 100  // length of a page of GET /viewers/public
)

// ValidateNewViewer checks a viewer before it is stored: its kind decides
// whether it shows a space or an object, and it names exactly that one.
func ValidateNewViewer(v *Viewer) error {
	if err := checkDisplayName(v.Name); err != nil {
		return err
	}
	switch v.Kind {
	case ViewerSpace:
		if v.ObjectID != "" {
			return Errorf(KindInvalid, "invalid_object_id", "objectId is for product viewers; a space viewer names spaceId")
		}
		if v.SpaceID == "" {
			return Errorf(KindInvalid, "missing_space_id", "spaceId is required for a space viewer")
		}
		return CheckID("spaceId", v.SpaceID)
	case ViewerProduct:
		if v.SpaceID != "" {
			return Errorf(KindInvalid, "invalid_space_id", "spaceId is for space viewers; a product viewer names objectId")
		}
		if v.ObjectID == "" {
			return Errorf(KindInvalid, "missing_object_id", "objectId is required for a product viewer")
		}
		return CheckID("objectId", v.ObjectID)
	case "":
		return Errorf(KindInvalid, "missing_type", "type is required: space or product")
	}
	return Errorf(KindInvalid, "invalid_type", "type %q is not space or product", v.Kind)
}

// Annotation is a note pinned to a point of a viewer's model.
type Annotation struct {
	ID          string    `json:"annotationId"`
	ViewerToken string    `json:"viewerToken"`
	Title       string    `json:"title"`
	Text        string    `json:"text"`
	Position    []float64 `json:"position"`
	Normal      []float64 `json:"normal,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
}

// ValidateAnnotation checks an annotation and normalises its normal, so
// viewers can orient the pin without checking it again.
func ValidateAnnotation(a *Annotation) error {
	switch {
	case strings.TrimSpace(a.Title) == "":
		return Errorf(KindInvalid, "missing_title", "title is required")
	case len(a.Title) > MaxDisplayNameLen:
		return Errorf(KindInvalid, "invalid_title", "title must be at most %d bytes", MaxDisplayNameLen)
	case len(a.Text) > MaxAnnotationTextLen:
		return Errorf(KindInvalid, "invalid_text", "text must be at most %d bytes", MaxAnnotationTextLen)
	}
	if err := CheckPoint("position", a.Position); err != nil {
		return err
	}
	if a.Normal != nil {
		n, err := unitVector("normal", a.Normal, 3)
		if err != nil {
			return err
		}
		a.Normal = n
	}
	return nil
}

// Kinds of interactive space-objects: sticky notes are removed by a reset,
// movable objects go back to where they started.
const (
	StickyNote = "sticky_note"
	Movable    = "movable"
)

// SpaceObject is an interactive object placed in a space viewer. Rotation
// is a unit quaternion [x, y, z, w], as glTF nodes hold it.
type SpaceObject struct {
	ID              string    `json:"spaceObjectId"`
	ViewerToken     string    `json:"viewerToken"`
	Kind            string    `json:"kind"`
	Text            string    `json:"text,omitempty"`
	ObjectID        string    `json:"objectId,omitempty"`
	Position        []float64 `json:"position"`
	Rotation        []float64 `json:"rotation"`
	InitialPosition []float64 `json:"initialPosition,omitempty"`
	InitialRotation []float64 `json:"initialRotation,omitempty"`
	CreatedAt       time.Time `json:"createdAt"`
	UpdatedAt       time.Time `json:"updatedAt"`
}

// ValidateSpaceObject checks a new space-object and fills in what the
// client may leave out: the identity rotation, and for a movable object
// the initial pose, which is where it is placed unless told otherwise.
func ValidateSpaceObject(o *SpaceObject) error {
	switch o.Kind {
	case StickyNote:
		switch {
		case strings.TrimSpace(o.Text) == "":
			return Errorf(KindInvalid, "missing_text", "text is required for a sticky note")
		case o.ObjectID != "":
			return Errorf(KindInvalid, "invalid_object_id", "objectId is for movable objects, not sticky notes")
		case o.InitialPosition != nil:
			return Errorf(KindInvalid, "invalid_initial_position", "initialPosition is for movable objects; a reset removes sticky notes")
		}
	case Movable:
		if o.Text != "" {
			return Errorf(KindInvalid, "invalid_text", "text is for sticky notes, not movable objects")
		}
		if o.ObjectID == "" {
			return Errorf(KindInvalid, "missing_object_id", "objectId is required for a movable object: one of the account's objects")
		}
		if err := CheckID("objectId", o.ObjectID); err != nil {
			return err
		}
	case "":
		return Errorf(KindInvalid, "missing_kind", "kind is required: sticky_note or movable")
	default:
		return Errorf(KindInvalid, "invalid_kind", "kind %q is not sticky_note or movable", o.Kind)
	}
	if len(o.Text) > MaxAnnotationTextLen {
		return Errorf(KindInvalid, "invalid_text", "text must be at most %d bytes", MaxAnnotationTextLen)
	}
	if err := MovePose(o, o.Position, o.Rotation); err != nil {
		return err
	}
	if o.Kind == Movable {
		if o.InitialPosition == nil {
			o.InitialPosition = o.Position
		} else if err := CheckPoint("initialPosition", o.InitialPosition); err != nil {
			return err
		}
		o.InitialRotation = o.Rotation
	}
	return nil
}

// MovePose checks a new position and optional rotation and sets them; a
// missing rotation keeps the current one, or the identity on a new object.
func MovePose(o *SpaceObject, position, rotation []float64) error {
	if err := CheckPoint("position", position); err != nil {
		return err
	}
	if rotation != nil {
		q, err := unitVector("rotation", rotation, 4)
		if err != nil {
			return err
		}
		o.Rotation = q
	} else if o.Rotation == nil {
		o.Rotation = []float64{0, 0, 0, 1}
	}
	o.Position = position
	return nil
}

// CheckPoint checks a required point [x, y, z] of finite coordinates
// within MaxCoordinate.
func CheckPoint(field string, p []float64) error {
	if p == nil {
		return Errorf(KindInvalid, "missing_"+snakeField(field), "%s is required: [x, y, z]", field)
	}
	if len(p) != 3 {
		return Errorf(KindInvalid, "invalid_"+snakeField(field), "%s must be 3 numbers [x, y, z], got %d", field, len(p))
	}
	for _, v := range p {
		if math.IsNaN(v) || math.Abs(v) > MaxCoordinate {
			return Errorf(KindInvalid, "invalid_"+snakeField(field), "%s must hold finite numbers within ±%g", field, float64(MaxCoordinate))
		}
	}
	return nil
}

// unitVector checks a vector of n finite numbers that is not zero and returns
// it scaled to length 1.
func unitVector(field string, v []float64, n int) ([]float64, error) {
	bad := Errorf(KindInvalid, "invalid_"+snakeField(field), "%s must be %d finite numbers, not all zero", field, n)
	if len(v) != n {
		return nil, bad
	}
	var sum float64
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > MaxCoordinate {
			return nil, bad
		}
		sum += x * x
	}
	if sum == 0 {
		return nil, bad
	}
	l := math.Sqrt(sum)
	out := make([]float64, n)
	for i, x := range v {
		out[i] = x / l
	}
	return out, nil
}

// snakeField turns a camelCase field name into the snake_case of error codes.
func snakeField(field string) string {
	var b strings.Builder
	for _, r := range field {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Owner is the account the viewer belongs to.
func (x *Viewer) Owner() string { return x.Account }

package kiln

import (
	"slices"
	"time"
)

// RenderingState is where a product rendering is in its life.
type RenderingState string

// States of a rendering: queued when requested, rendering while a worker
// runs Blender, then done with a file or failed with an error.
const (
	RenderingQueued    RenderingState = "queued"
	RenderingRendering RenderingState = "rendering"
	RenderingDone      RenderingState = "done"
	RenderingFailed    RenderingState = "failed"
)

// Limits of a rendering request: a side of the image and the
// Cycles samples per pixel.
const (
	MaxRenderSide    = 4096
	MaxRenderSamples = 4096
)

// Render formats: what format_key and image_format choose.
const (
	FormatKeyWeb   = "web"   // JPEG, or WebP with image_format "webp"
	FormatKeyPrint = "print" // PNG, lossless and with alpha
)

// RenderCamera turns the camera around the product: yaw about the
// vertical axis from the product's front, pitch up from the horizon, both
// in degrees; Distance in metres from the model's centre, 0 to frame the
// whole model.
type RenderCamera struct {
	Yaw      float64 `json:"yaw"`
	Pitch    float64 `json:"pitch"`
	Distance float64 `json:"distance,omitempty"`
}

// RenderSettings are the render_settings of a rendering request.
type RenderSettings struct {
	Resolution  []int         `json:"resolution"`
	Samples     int           `json:"samples"`
	Camera      *RenderCamera `json:"camera,omitempty"`
	Transparent bool          `json:"transparent,omitempty"`
	ImageFormat string        `json:"image_format,omitempty"`
}

// DefaultRenderCamera looks at the product a little from the right and
// from above, which shows its front, a side and its top.
var DefaultRenderCamera = RenderCamera{Yaw: 30, Pitch: 15}

// ValidateRenderSettings checks settings with the format_key they go with
// and returns the image format to write: png, jpeg or webp.
func ValidateRenderSettings(s *RenderSettings, formatKey string) (string, error) {
	if len(s.Resolution) != 2 {
		return "", Errorf(KindInvalid, "invalid_resolution", "render_settings.resolution must be [width, height], got %d numbers", len(s.Resolution))
	}
	for _, v := range s.Resolution {
		if v < 1 || v > MaxRenderSide {
			return "", Errorf(KindInvalid, "invalid_resolution", "render_settings.resolution: each side must be 1 to %d pixels, got %d", MaxRenderSide, v)
		}
	}
	if s.Samples < 1 || s.Samples > MaxRenderSamples {
		return "", Errorf(KindInvalid, "invalid_samples", "render_settings.samples must be 1 to %d, got %d", MaxRenderSamples, s.Samples)
	}
	if c := s.Camera; c != nil {
		switch {
		case c.Yaw < -360 || c.Yaw > 360:
			return "", Errorf(KindInvalid, "invalid_camera", "render_settings.camera.yaw must be -360 to 360 degrees, got %g", c.Yaw)
		case c.Pitch < -89 || c.Pitch > 89:
			return "", Errorf(KindInvalid, "invalid_camera", "render_settings.camera.pitch must be -89 to 89 degrees, got %g", c.Pitch)
		case c.Distance < 0 || c.Distance > MaxCoordinate:
			return "", Errorf(KindInvalid, "invalid_camera", "render_settings.camera.distance must be 0 (frame the model) to %g metres, got %g", float64(MaxCoordinate), c.Distance)
		}
	}
	switch formatKey {
	case FormatKeyPrint:
		if s.ImageFormat != "" && s.ImageFormat != "png" {
			return "", Errorf(KindInvalid, "invalid_image_format", "render_settings.image_format: print renderings are png, got %q", s.ImageFormat)
		}
		return "png", nil
	case FormatKeyWeb:
		switch s.ImageFormat {
		case "", "jpeg", "jpg":
			if s.Transparent {
				return "", Errorf(KindInvalid, "invalid_transparent", "render_settings.transparent: a web JPEG has no alpha; ask for image_format webp or format_key print")
			}
			return "jpeg", nil
		case "webp":
			return "webp", nil
		}
		return "", Errorf(KindInvalid, "invalid_image_format", "render_settings.image_format must be jpeg or webp for web, got %q", s.ImageFormat)
	case "":
		return "", Errorf(KindInvalid, "missing_format_key", "format_key is required: web or print")
	}
	return "", Errorf(KindInvalid, "invalid_format_key", "format_key %q is not web or print", formatKey)
}

// Rendering is one product rendering of a viewer. SetupKey is the blob
// of the .blend setup (resolved when requested, so a worker needs no
// setup lookup); Built-in setups are made on first use.
type Rendering struct {
	ID          string         `json:"id"`
	ViewerToken string         `json:"viewerToken"`
	Account     string         `json:"-"`
	ObjectID    string         `json:"objectId"`
	State       RenderingState `json:"state"`
	Settings    RenderSettings `json:"render_settings"`
	TemplateID  string         `json:"template_id"`
	SetupKey    string         `json:"-"`
	FormatKey   string         `json:"format_key"`
	Format      string         `json:"format"` // png, jpeg or webp
	ErrorCode   string         `json:"errorCode,omitempty"`
	Error       string         `json:"error,omitempty"`
	// Duration is Blender's wall time of the last attempt, in seconds.
	Duration   float64    `json:"durationSeconds,omitempty"`
	CreatedAt  time.Time  `json:"createdAt"`
	FinishedAt *time.Time `json:"finishedAt,omitempty"`
}

// FileKey is where the rendered image is stored.
func (r *Rendering) FileKey() string {
	ext := r.Format
	if ext == "jpeg" {
		ext = "jpg"
	}
	return "renderings/" + r.ID + "/image." + ext
}

// ContentType is the rendered image's media type.
func (r *Rendering) ContentType() string { return "image/" + r.Format }

// Setup types: render setups for products, and for spaces (listed and
// uploaded, not rendered yet).
const (
	SetupProduct = "product"
	SetupSpace   = "space"
)

// RenderSetup is a .blend scene a product is rendered in: one of Kiln's
// built-in studios or one an account uploaded.
type RenderSetup struct {
	ID        string    `json:"id"`
	Account   string    `json:"-"`
	Name      string    `json:"name"`
	Type      string    `json:"type"`
	BuiltIn   bool      `json:"builtIn"`
	Size      int64     `json:"size,omitempty"`
	CreatedAt time.Time `json:"createdAt,omitzero"`
}

// BlobKey is where the setup's .blend is kept: built-in ones under their
// id (made by the worker on first use), uploaded ones per account.
func (s *RenderSetup) BlobKey() string {
	if s.BuiltIn {
		return "renderings/setups/" + s.ID + ".blend"
	}
	return "renderings/setups/" + s.Account + "/" + s.ID + ".blend"
}

// BuiltInSetups are the studios Kiln makes with its make_setups.py.
var BuiltInSetups = []RenderSetup{
	{ID: "studio-white", Name: "Studio, white backdrop, soft key and fill", Type: SetupProduct, BuiltIn: true},
	{ID: "studio-dark", Name: "Studio, dark backdrop, contrasty key", Type: SetupProduct, BuiltIn: true},
	{ID: "studio-warm", Name: "Studio, warm backdrop and light", Type: SetupProduct, BuiltIn: true},
}

// BuiltInSetup returns the built-in setup with id, or nil.
func BuiltInSetup(id string) *RenderSetup {
	i := slices.IndexFunc(BuiltInSetups, func(s RenderSetup) bool { return s.ID == id })
	if i < 0 {
		return nil
	}
	s := BuiltInSetups[i]
	return &s
}

// MaxSetupBytes bounds an uploaded .blend.
const MaxSetupBytes = 200 << 20

// Owner is the account the setup belongs to.
func (x *RenderSetup) Owner() string { return x.Account }

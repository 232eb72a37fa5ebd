package kiln

import (
	"slices"
	"strconv"
	"time"
)

// ObjectState is where an object is in its life: uploading until the
// client finishes the upload, processing while a worker builds its GLB,
// then ready or failed. An image series ends awaiting_reconstruction: its
// photos are stored, and a photogrammetry step outside Kiln turns them
// into a model.
type ObjectState string

const (
	StateUploading              ObjectState = "uploading"
	StateProcessing             ObjectState = "processing"
	StateReady                  ObjectState = "ready"
	StateFailed                 ObjectState = "failed"
	StateAwaitingReconstruction ObjectState = "awaiting_reconstruction"
)

// Object types of spec section 4.2.
var ObjectTypes = []string{"raw_model", "mesh", "images", "ai_model", "openconfiguration"}

// TypeSprite marks an object made by POST /resources/objects/sprite: it is
// no upload type, so prepare-upload does not accept it.
const TypeSprite = "sprite"

// Limits of an upload. The spec leaves them open; these are Kiln's.
const (
	MaxUploadBytes = 2 << 30 // one upload file
	MaxFileCount   = 1000
	// MaxPendingUploads bounds an account's objects still uploading:
	// prepare-upload answers 429 past it, so one key cannot fill the
	// store with records (20,000 in 31 s before there was a limit).
	MaxPendingUploads = 100
)

// UploadURLTTL is how long an upload URL stays valid by default
// (KILN_UPLOAD_URL_TTL), and so how long a prepared upload counts against
// MaxPendingUploads: once its URL has expired, a PUT that never arrived
// (a storage outage, a client that crashed) cannot arrive any more, so
// its slot is free again. A client releases a slot at once with
// finish-upload success=false. An upload started in time may run past it
// (S3 and Kiln check the URL when the PUT starts).
const UploadURLTTL = 15 * time.Minute

// UploadExpiry is how long an object may stay uploading: a worker's sweep
// then marks it failed with that reason. It is a day, well past the time
// an upload URL lasts.
const UploadExpiry = 24 * time.Hour

// ModelStats counts what a model holds.
type ModelStats struct {
	Triangles int `json:"triangles"`
	Vertices  int `json:"vertices"`
	Meshes    int `json:"meshes"`
	Materials int `json:"materials"`
	Textures  int `json:"textures"`
}

// Object is an uploaded 3D object of an account.
type Object struct {
	ID              string      `json:"objectId"`
	Account         string      `json:"account"`
	Name            string      `json:"name"`
	Description     string      `json:"description"`
	Comment         string      `json:"comment,omitempty"`
	Type            string      `json:"type"`
	Extension       string      `json:"extension"`
	FileSize        int64       `json:"fileSize,omitempty"`
	FileCount       int         `json:"fileCount,omitempty"`
	MailAfterUpload string      `json:"mailAfterUpload,omitempty"`
	Optimize        bool        `json:"optimize"`
	State           ObjectState `json:"state"`
	Error           string      `json:"error,omitempty"`
	Stats           *ModelStats `json:"stats,omitempty"`
	// LODs lists the levels of detail built, lod 0 (the source) first.
	LODs []LOD `json:"lods,omitempty"`
	// Uploaded is set once the source file is stored, so a one-time upload
	// URL cannot overwrite it.
	Uploaded bool `json:"uploaded"`
	// PreviewType is the media type of the object's preview image (the
	// preview of an image series, a sprite's thumbnail); empty when none.
	PreviewType string `json:"previewType,omitempty"`
	// Translations holds the name and description by locale (de_DE, fr);
	// Name and Description are the default language.
	Translations map[string]Translation `json:"translations,omitempty"`
	CreatedAt    time.Time              `json:"createdAt"`
	UpdatedAt    time.Time              `json:"updatedAt"`
}

// SourceKey is the blob key of the uploaded file once the upload is
// finished: the API copies it there from UploadKey, and only the API
// writes it.
func (o *Object) SourceKey() string { return "uploads/" + o.ID + "/source." + o.Extension }

// UploadKey is where the client's upload lands (the presigned or local
// upload URL writes here). It is never read after finish-upload, so a
// PUT to a still-valid presigned URL cannot change a processed object.
func (o *Object) UploadKey() string { return "incoming/" + o.ID + "/source." + o.Extension }

// PreviewKey is the blob key of the preview image.
func (o *Object) PreviewKey() string { return "objects/" + o.ID + "/preview" }

// Translation is an object's name and description in one language.
type Translation struct {
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
}

// CatalogEntry is one object of an account's custom furniture catalog:
// the object plus the shop data a configurator shows next to it.
type CatalogEntry struct {
	ObjectID string   `json:"objectId"`
	Category string   `json:"category,omitempty"`
	SKU      string   `json:"sku,omitempty"`
	Price    *float64 `json:"price,omitempty"`
	Currency string   `json:"currency,omitempty"`
}

// LOD is one level of detail of an object's model.
type LOD struct {
	Level     int     `json:"lod"`
	Triangles int     `json:"triangles"`
	Error     float64 `json:"error"`
}

// GLBKey is the blob key of a level of the GLB built from the upload;
// lod 0 is the canonical GLB of the source.
func (o *Object) GLBKey(lod int) string {
	if lod == 0 {
		return "objects/" + o.ID + "/model.glb"
	}
	return "objects/" + o.ID + "/lod" + strconv.Itoa(lod) + ".glb"
}

// ValidateText checks the name, description and comment of a new object.
func ValidateText(o *Object) error {
	switch {
	case o.Name == "":
		return Errorf(KindInvalid, "missing_name", "name is required")
	case len(o.Name) > 200:
		return Errorf(KindInvalid, "invalid_name", "name must be at most 200 characters")
	case len(o.Description) > 5000 || len(o.Comment) > 5000:
		return Errorf(KindInvalid, "invalid_description", "description and comment must be at most 5000 characters")
	}
	return nil
}

// VariantKey is the blob key of a variant of the object's model, by the
// variant's canonical key.
func (o *Object) VariantKey(key string) string {
	return "objects/" + o.ID + "/variants/" + key + ".glb"
}

// ValidateNewObject checks the fields of a prepare-upload request.
func ValidateNewObject(o *Object) error {
	if err := ValidateText(o); err != nil {
		return err
	}
	switch {
	case o.Type == "":
		return Errorf(KindInvalid, "missing_type", "type is required: one of %v", ObjectTypes)
	case !slices.Contains(ObjectTypes, o.Type):
		return Errorf(KindInvalid, "invalid_type", "type %q is not one of %v", o.Type, ObjectTypes)
	case o.Extension == "":
		return Errorf(KindInvalid, "missing_extension", "extension is required, for example glb")
	case !extPattern.MatchString(o.Extension):
		return Errorf(KindInvalid, "invalid_extension", "extension must be 1 to 10 letters or digits, without the dot")
	case o.FileSize < 0 || o.FileSize > MaxUploadBytes:
		return Errorf(KindInvalid, "invalid_file_size", "file_size must be a byte count from 0 to %d", int64(MaxUploadBytes))
	case o.FileCount < 0 || o.FileCount > MaxFileCount:
		return Errorf(KindInvalid, "invalid_file_count", "file_count must be from 1 to %d", MaxFileCount)
	}
	return nil
}

// Owner is the account the object belongs to.
func (x *Object) Owner() string { return x.Account }

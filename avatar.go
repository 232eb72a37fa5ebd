package kiln

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
)

// AvatarState is where an avatar's model is: building until its lod 0
// GLB is stored, then ready, or failed with the reason.
type AvatarState string

const (
	AvatarBuilding AvatarState = "building"
	AvatarReady    AvatarState = "ready"
	AvatarFailed   AvatarState = "failed"
)

// The reserved avatar ids of spec section 2: built-in avatars that exist
// without a POST /avatar and have no record.
const (
	AvatarDefaultMale   = "default-male"
	AvatarDefaultFemale = "default-female"
)

// BuiltInAvatar reports whether id is one of the reserved avatar ids.
func BuiltInAvatar(id string) bool { return id == AvatarDefaultMale || id == AvatarDefaultFemale }

// Avatar is a registered avatar of an account. Configuration is the
// resolved version "1" configuration (never `{}`: the project default is
// resolved when the avatar is registered), kept as JSON so that this
// package needs no knowledge of its fields. An Imported avatar was made
// by the leader and brought back with POST /avatar/import: its model is
// the stored file (AvatarImportKey) rather than the configuration's,
// which then only says its body type for clips and metadata.
type Avatar struct {
	ID            string          `json:"id"`
	Account       string          `json:"account"`
	Configuration json.RawMessage `json:"configuration"`
	Imported      bool            `json:"imported,omitempty"`
	State         AvatarState     `json:"state"`
	Error         string          `json:"error,omitempty"`
	CreatedAt     time.Time       `json:"createdAt"`
	UpdatedAt     time.Time       `json:"updatedAt"`
	// App and User are the creator app and its user that made the avatar
	// (empty for one registered with POST /avatar).
	App  string `json:"app,omitempty"`
	User string `json:"user,omitempty"`
	// Revision counts the edits of the configuration. Every file built
	// from the avatar is stored under its revision (AvatarFiles), so that
	// an edit never serves bytes of the configuration before it, and a job
	// of an older revision finds it is stale.
	Revision int `json:"revision,omitempty"`
}

// Owner is the account the avatar belongs to.
func (a *Avatar) Owner() string { return a.Account }

// AvatarFiles is the blob folder of an avatar's files at a revision:
// revision 0 keeps the folder avatars had before they could be edited.
func AvatarFiles(id string, rev int) string {
	if rev == 0 {
		return "avatars/" + id
	}
	return "avatars/" + id + "/r" + strconv.Itoa(rev)
}

// AvatarModelKey is the blob key of an avatar's generated model (lod 0,
// textures as generated, no animation); every variant starts from it.
func AvatarModelKey(id string, rev int) string { return AvatarFiles(id, rev) + "/model.glb" }

// AvatarImportKey is the blob key of an imported avatar's file as
// uploaded; its lod 0 model (AvatarModelKey) is built from it.
func AvatarImportKey(id string) string { return "avatars/" + id + "/import.glb" }

// AvatarVariantKey is the blob key of a variant of an avatar's model.
func AvatarVariantKey(id string, rev int, key string) string {
	return AvatarFiles(id, rev) + "/variants/" + avatarVariantGeneration + "-" + key + ".glb"
}

// avatarVariantGeneration names the avatar pipeline a cached variant was
// built by. The same parameters (the same Variant.Key) gave another file
// once the leader's scene tree came (meshes under Armature, one
// primitive per mesh), and a variant cached before it would be served
// with the old tree for ever; a new generation puts new variants beside
// the old ones, which are built again on their first download. Bump it
// whenever the pipeline changes what the same parameters give.
const avatarVariantGeneration = "tree2"

// AnimationsKey is the canonical part of a variant key for a set of
// animation clips: "anim-none" without clips, else a short hash of the
// sorted names, so that equal sets in any order share one variant and the
// key stays short whatever the list.
func AnimationsKey(names []string) string {
	return "anim-" + namesKey(names)
}

// namesKey stands for a set of names in a variant key: "none" for the
// empty set, else a short hash of the sorted names.
func namesKey(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	sum := sha256.Sum256([]byte(strings.Join(sorted, ",")))
	return hex.EncodeToString(sum[:6])
}

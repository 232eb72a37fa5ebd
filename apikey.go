package kiln

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"slices"
	"time"
)

// Scopes of the platform and avatar services (spec sections 4.2 and 5).
const (
	ScopeUserRead        = "user:read"
	ScopeProductWrite    = "product:write"
	ScopeProductRead     = "product:read"
	ScopeProductService  = "product:service"
	ScopeSpaceWrite      = "space:write"
	ScopeViewerRead      = "viewer:read"
	ScopeViewerWrite     = "viewer:write"
	ScopeViewerStatsRead = "viewer.stats:read"
	ScopeRenderingsRead  = "renderings:read"
	ScopeRenderingsWrite = "renderings:write"
	ScopeRenderingRead   = "rendering:read"
	ScopeAvatarWrite     = "avatar:write"
)

// AllScopes lists every scope a key can hold; the admin key holds them all.
var AllScopes = []string{
	ScopeUserRead, ScopeProductWrite, ScopeProductRead, ScopeProductService,
	ScopeSpaceWrite, ScopeViewerRead, ScopeViewerWrite, ScopeViewerStatsRead,
	ScopeRenderingsRead, ScopeRenderingsWrite, ScopeRenderingRead, ScopeAvatarWrite,
}

// Plan is an account's subscription; some endpoints need a Pro plan.
type Plan string

const (
	PlanFree       Plan = "free"
	PlanPremium    Plan = "premium"
	PlanEnterprise Plan = "enterprise"
)

// Valid reports whether p is a known plan.
func (p Plan) Valid() bool {
	return p == PlanFree || p == PlanPremium || p == PlanEnterprise
}

// APIKey is a credential of one account. The secret itself is never
// stored: only its hash, so a leaked database grants nothing.
type APIKey struct {
	ID        string    `json:"id"`
	Name      string    `json:"name,omitempty"`
	Account   string    `json:"account"`
	Scopes    []string  `json:"scopes"`
	Plan      Plan      `json:"plan"`
	CreatedAt time.Time `json:"createdAt"`
	Admin     bool      `json:"admin,omitempty"`
}

// HasScope reports whether the key grants scope.
func (k *APIKey) HasScope(scope string) bool {
	return k.Admin || slices.Contains(k.Scopes, scope)
}

// NewAPIKey makes a key for account with a fresh secret, which the caller
// shows once and stores only as HashSecret(secret).
func NewAPIKey(account, name string, scopes []string, plan Plan) (*APIKey, string, error) {
	k := &APIKey{
		ID:        NewID("key"),
		Name:      name,
		Account:   account,
		Scopes:    scopes,
		Plan:      plan,
		CreatedAt: time.Now().UTC().Truncate(time.Second),
	}
	if err := validateNewKey(k); err != nil {
		return nil, "", err
	}
	return k, NewSecret(), nil
}

func validateNewKey(k *APIKey) error {
	if err := CheckID("account", k.Account); err != nil {
		return err
	}
	if len(k.Name) > 200 {
		return Errorf(KindInvalid, "invalid_name", "name must be at most 200 characters")
	}
	if k.Plan == "" {
		k.Plan = PlanFree
	}
	if !k.Plan.Valid() {
		return Errorf(KindInvalid, "invalid_plan", "plan %q is not one of free, premium, enterprise", k.Plan)
	}
	if len(k.Scopes) == 0 {
		return Errorf(KindInvalid, "invalid_scopes", "scopes must list at least one of %v", AllScopes)
	}
	for _, s := range k.Scopes {
		if !slices.Contains(AllScopes, s) {
			return Errorf(KindInvalid, "invalid_scopes", "scope %q is unknown; known scopes: %v", s, AllScopes)
		}
	}
	return nil
}

// NewSecret returns a fresh API key secret: 256 random bits, so a plain
// hash is enough to store it (there is nothing to guess).
func NewSecret() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return "kiln_" + base64.RawURLEncoding.EncodeToString(b[:])
}

// HashSecret returns the stored form of a secret.
func HashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// IssuedKey is a new key with its secret, as shown once to whoever made it.
type IssuedKey struct {
	*APIKey
	Key string `json:"key"`
}

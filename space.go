package kiln

import (
	"strings"
	"time"
)

// Origins of a space template (spec section 2). Upload and ios-scan mark
// custom templates, the only ones an account may delete; system marks the
// built-in rooms every account can use.
const (
	OriginSystem = "system"
	OriginUpload = "upload"
	OriginScan   = "ios-scan"
)

// SystemAccount owns the built-in templates, so that an account check
// never confuses them with a customer's.
const SystemAccount = "system"

// Limits of space and viewer fields. The spec leaves them open.
const (
	MaxDisplayNameLen         = 200
	MaxTemplateDescriptionLen = 5000
)

// TemplateOrigin says where a template's room comes from: built in, or one
// of the account's objects (an uploaded model or an imported scan).
type TemplateOrigin struct {
	Source   string `json:"source"`
	ObjectID string `json:"objectId,omitempty"`
}

// SpaceTemplate is a room a space is built in.
type SpaceTemplate struct {
	ID          string         `json:"spaceTemplateId"`
	Account     string         `json:"account"`
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Origin      TemplateOrigin `json:"origin"`
	CreatedAt   time.Time      `json:"createdAt"`
}

// Custom reports whether the template is an account's own, which only
// then can be deleted (spec section 4.2).
func (t *SpaceTemplate) Custom() bool {
	return t.Origin.Source == OriginUpload || t.Origin.Source == OriginScan
}

// Space is an account's space: a room made from a template, shown by space
// viewers. While a space uses a template, the template cannot be deleted.
type Space struct {
	ID              string    `json:"spaceId"`
	Account         string    `json:"account"`
	Name            string    `json:"name"`
	SpaceTemplateID string    `json:"spaceTemplateId"`
	CreatedAt       time.Time `json:"createdAt"`
}

// systemEpoch is the creation time of the built-in templates: fixed, so
// that seeding them again at every start changes nothing.
var systemEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// SystemTemplates lists the built-in rooms seeded at start.
func SystemTemplates() []SpaceTemplate {
	t := func(id, name, desc string) SpaceTemplate {
		return SpaceTemplate{ID: id, Account: SystemAccount, Name: name, Description: desc,
			Origin: TemplateOrigin{Source: OriginSystem}, CreatedAt: systemEpoch}
	}
	return []SpaceTemplate{
		t("studio", "Studio", "A neutral photo studio with a seamless backdrop and soft lights."),
		t("loft", "Loft", "An open loft with brick walls, wooden floor and large windows."),
		t("gallery", "Gallery", "A white-walled gallery hall with spot lights, for showing products."),
	}
}

// checkDisplayName checks the required display name of a template, space or
// viewer.
func checkDisplayName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return Errorf(KindInvalid, "missing_name", "name is required")
	case len(name) > MaxDisplayNameLen:
		return Errorf(KindInvalid, "invalid_name", "name must be at most %d bytes", MaxDisplayNameLen)
	}
	return nil
}

// ValidateNewTemplate checks a custom template before it is stored.
func ValidateNewTemplate(t *SpaceTemplate) error {
	if err := checkDisplayName(t.Name); err != nil {
		return err
	}
	if len(t.Description) > MaxTemplateDescriptionLen {
		return Errorf(KindInvalid, "invalid_description", "description must be at most %d bytes", MaxTemplateDescriptionLen)
	}
	switch t.Origin.Source {
	case OriginUpload, OriginScan:
	case "":
		return Errorf(KindInvalid, "missing_origin", "origin.source is required: upload or ios-scan")
	case OriginSystem:
		return Errorf(KindInvalid, "invalid_origin", "origin.source system is reserved for built-in templates; use upload or ios-scan")
	default:
		return Errorf(KindInvalid, "invalid_origin", "origin.source %q is not upload or ios-scan", t.Origin.Source)
	}
	if t.Origin.ObjectID == "" {
		return Errorf(KindInvalid, "missing_object_id", "origin.objectId is required: the object holding the room model or scan")
	}
	return CheckID("origin.objectId", t.Origin.ObjectID)
}

// ValidateNewSpace checks a space before it is stored.
func ValidateNewSpace(s *Space) error {
	if err := checkDisplayName(s.Name); err != nil {
		return err
	}
	if s.SpaceTemplateID == "" {
		return Errorf(KindInvalid, "missing_space_template_id", "spaceTemplateId is required: a system template or one of the account's")
	}
	return CheckID("spaceTemplateId", s.SpaceTemplateID)
}

// Owner is the account the space belongs to.
func (x *Space) Owner() string { return x.Account }

package vrm

import (
	"cmp"
	"strings"

	"github.com/kilnhq/kiln"
)

// CC0 is the licence Kiln's avatars are under unless the operator sets
// another (KILN_VRM_LICENSE_URL): the generator's parts are Kiln's own or
// CC0 (MakeHuman's assets are CC0), so the avatars are free of rights.
const CC0 = "https://creativecommons.org/publicdomain/zero/1.0/"

// vrmLicense1 is the one licenseUrl VRM 1.0 accepts, the VRM Public
// License; a model's own licence is its otherLicenseUrl.
const vrmLicense1 = "https://vrm.dev/licenses/1.0/"

// isCC0 reports whether url is the CC0 deed (with or without its
// scheme's s or the final slash).
func isCC0(url string) bool {
	u := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(url, "https://"), "http://"), "/")
	return u == strings.TrimSuffix(strings.TrimPrefix(CC0, "https://"), "/")
}

// meta1 is VRMC_vrm.meta. Under CC0 every use is allowed, so the VRM
// permissions say so; under another licence they keep VRM's defaults
// (the narrowest) and the licence's URL says the rest.
func meta1(m kiln.VRMMeta) map[string]any {
	out := map[string]any{
		"name":            cmp.Or(m.Name, "Kiln avatar"),
		"version":         "1",
		"authors":         []string{cmp.Or(m.Author, "Kiln")},
		"licenseUrl":      vrmLicense1,
		"otherLicenseUrl": cmp.Or(m.LicenseURL, CC0),
	}
	if isCC0(cmp.Or(m.LicenseURL, CC0)) {
		out["avatarPermission"] = "everyone"
		out["allowExcessivelyViolentUsage"] = true
		out["allowExcessivelySexualUsage"] = true
		out["commercialUsage"] = "corporation"
		out["allowPoliticalOrReligiousUsage"] = true
		out["allowAntisocialOrHateUsage"] = true
		out["creditNotation"] = "unnecessary"
		out["allowRedistribution"] = true
		out["modification"] = "allowModificationRedistribution"
	}
	return out
}

// meta0 is VRM 0.x's meta; 0.x names CC0 among its licences.
func meta0(m kiln.VRMMeta) map[string]any {
	url := cmp.Or(m.LicenseURL, CC0)
	out := map[string]any{
		"title":   cmp.Or(m.Name, "Kiln avatar"),
		"version": "1",
		"author":  cmp.Or(m.Author, "Kiln"),
	}
	if isCC0(url) {
		out["allowedUserName"] = "Everyone"
		out["violentUssageName"] = "Allow"
		out["sexualUssageName"] = "Allow"
		out["commercialUssageName"] = "Allow"
		out["licenseName"] = "CC0"
	} else {
		out["allowedUserName"] = "OnlyAuthor"
		out["violentUssageName"] = "Disallow"
		out["sexualUssageName"] = "Disallow"
		out["commercialUssageName"] = "Disallow"
		out["licenseName"] = "Other"
	}
	out["otherLicenseUrl"] = url
	return out
}

package app

import (
	"net/http"
	"strings"
	"testing"
)

// TestAvatarHome opens the address kiln serve prints for the avatar
// service: a page, not a JSON 404, whose links lead somewhere real.
func TestAvatarHome(t *testing.T) {
	r := start(t)
	res := do(t, "GET", r.AvatarURL+"/", "", nil, nil)
	if res.Status != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /: %d %s", res.Status, res.Header.Get("Content-Type"))
	}
	for _, link := range []string{"/animations", "/avatar/schema.json", "/docs", "/openapi.json", "/preview/default-female.png", "/default-female.json", r.PlatformURL + "/"} {
		if !strings.Contains(string(res.Body), `href="`+link+`"`) {
			t.Errorf("the page has no link to %s", link)
			continue
		}
		url := link
		if strings.HasPrefix(link, "/") {
			url = r.AvatarURL + link
		}
		if got := do(t, "GET", url, "", nil, nil); got.Status != http.StatusOK {
			t.Errorf("link %s answers %d", link, got.Status)
		}
	}
	if !strings.Contains(string(res.Body), `href="/avatar"`) {
		t.Error("the page does not link to the creator")
	}
}

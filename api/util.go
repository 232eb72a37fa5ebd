package api

import (
	"net/http"
	"sort"
	"strings"
)

func joinSorted(s []string) string {
	sort.Strings(s)
	return strings.Join(s, ", ")
}

// baseURL is the scheme and host the client used, so that URLs in answers
// work behind a proxy that sets X-Forwarded-Proto and Host.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
		scheme = p
	}
	return scheme + "://" + r.Host
}

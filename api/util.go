package api

import (
	"net/netip"
	"net/url"
	"sort"
	"strings"

	"github.com/gin-gonic/gin"
)

func joinSorted(s []string) string {
	sort.Strings(s)
	return strings.Join(s, ", ")
}

// platformURL is the base of the URLs the platform answers: the
// configured public URL (KILN_PUBLIC_PLATFORM_URL, or the listener's own
// address), or the scheme and host a trusted proxy (KILN_TRUSTED_PROXIES)
// says the client used. A request's own Host and X-Forwarded-* headers are
// not believed otherwise: any client can set them, and an upload URL that
// names a host of the client's choosing sends the next client there.
func (s *Server) platformURL(c *gin.Context) string {
	if !s.trustedPeer(c) {
		return s.PublicPlatformURL
	}
	r := c.Request
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
		scheme = p
	}
	host := r.Host
	if h := r.Header.Get("X-Forwarded-Host"); h != "" {
		host = h
	}
	if u, err := url.Parse(scheme + "://" + host); err != nil || u.Host != host || u.Path != "" {
		return s.PublicPlatformURL
	}
	return scheme + "://" + host
}

// trustedPeer reports whether the request came straight from a trusted
// proxy.
func (s *Server) trustedPeer(c *gin.Context) bool {
	ip, err := netip.ParseAddr(c.RemoteIP())
	if err != nil {
		return false
	}
	ip = ip.Unmap()
	for _, p := range s.proxies {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// prefixes reads KILN_TRUSTED_PROXIES (IPs and CIDRs, checked by config).
func prefixes(list []string) []netip.Prefix {
	var out []netip.Prefix
	for _, v := range list {
		if p, err := netip.ParsePrefix(v); err == nil {
			out = append(out, p.Masked())
		} else if a, err := netip.ParseAddr(v); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
		}
	}
	return out
}

package api

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// corsMaxAge is how long a browser may reuse a preflight: two hours, the
// most Chromium honours (Firefox allows a day).
const corsMaxAge = 2 * 60 * 60

// Avatars and models are fetched from other origins by design (a game, a
// shop, a chat page embeds them), so both listeners speak CORS. These
// lists are what such pages need: the methods of the API, the headers a
// client sets (the key, conditional and range requests, its own request
// id), and the headers a script reads back (caching, sizes, file names,
// when to retry, the id that finds the log line).
var (
	corsMethods = "GET, HEAD, POST, PUT, PATCH, DELETE"
	corsHeaders = "Authorization, Content-Type, If-None-Match, If-Modified-Since, Range, X-Request-Id"
	corsExposed = "ETag, Content-Length, Content-Disposition, Content-Range, Accept-Ranges, Retry-After, X-Request-Id"
)

// corsPolicy answers which origins may read Kiln's answers.
type corsPolicy struct {
	any    bool            // "*" is listed: every origin, without credentials
	listed map[string]bool // exact origins, lower case: echoed, with credentials
}

func newCORSPolicy(origins []string) corsPolicy {
	p := corsPolicy{listed: map[string]bool{}}
	if len(origins) == 0 {
		p.any = true
	}
	for _, o := range origins {
		if o == "*" {
			p.any = true
			continue
		}
		p.listed[strings.ToLower(o)] = true
	}
	return p
}

// cors is the middleware of both listeners. A listed origin gets itself
// echoed with Access-Control-Allow-Credentials, so that fetch(…,
// {credentials: "include"}) works too; with "*" any other origin gets
// "*" and no credentials, which still lets a script send
// `Authorization: Bearer` (an allowed header, not a browser credential)
// but never lets a foreign page ride on cookies or HTTP authentication
// the browser keeps (the queue monitor's). A preflight answers 204 with
// the methods, headers and Max-Age, or 403 for an origin not allowed;
// other requests from such an origin are answered without CORS headers,
// so the browser keeps the answer from the page.
func (s *Server) cors() gin.HandlerFunc {
	p := newCORSPolicy(s.CORSOrigins)
	return func(c *gin.Context) {
		h := c.Writer.Header()
		if len(p.listed) > 0 {
			// The answer depends on Origin whenever some origins are echoed:
			// caches must keep one copy per origin.
			h.Add("Vary", "Origin")
		}
		origin := c.GetHeader("Origin")
		if origin == "" {
			return
		}
		preflight := c.Request.Method == http.MethodOptions && c.GetHeader("Access-Control-Request-Method") != ""
		switch {
		case p.listed[strings.ToLower(origin)]:
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Allow-Credentials", "true")
		case p.any:
			h.Set("Access-Control-Allow-Origin", "*")
		case preflight:
			fail(c, kiln.Errorf(kiln.KindForbidden, "origin_not_allowed", "origin %s may not call this service; KILN_CORS_ORIGINS lists the allowed ones", origin))
			return
		default:
			return
		}
		if !preflight {
			h.Set("Access-Control-Expose-Headers", corsExposed)
			return
		}
		h.Set("Access-Control-Allow-Methods", corsMethods)
		h.Set("Access-Control-Allow-Headers", corsHeaders)
		h.Set("Access-Control-Max-Age", strconv.Itoa(corsMaxAge))
		c.AbortWithStatus(http.StatusNoContent)
	}
}

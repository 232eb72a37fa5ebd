package api

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
)

// HEAD answers what GET would (status, Content-Type, Content-Length,
// ETag) without the body: curl -I, CDNs and download managers ask it
// before they fetch. Every GET that returns a file has it; http.ServeContent
// and serveBytes leave the body out by themselves, and serveBuilt never
// starts a job for one.

// platformFiles are the platform routes that return a file.
var platformFiles = map[string]bool{
	"/resources/objects/:objectId/model.glb":             true,
	"/resources/objects/:objectId/source":                true,
	"/resources/objects/:objectId/preview":               true,
	"/viewers/:viewerToken/renderings/:renderingId/file": true,
	"/renderings/custom-setups/:setupId/file":            true,
}

// getFile registers a route that returns a file for GET and HEAD.
func getFile(r gin.IRoutes, path string, handlers ...gin.HandlerFunc) {
	r.GET(path, handlers...)
	r.HEAD(path, handlers...)
}

// serveBytes answers b whole with its length, so that a HEAD, whose body
// net/http drops, still says how long the file is.
func serveBytes(c *gin.Context, contentType string, b []byte) {
	c.Header("Content-Length", strconv.Itoa(len(b)))
	c.Data(http.StatusOK, contentType, b)
}

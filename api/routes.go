package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// route is one row of the scope table of spec section 4.2.
type route struct {
	method, path, scope string
	handler             gin.HandlerFunc
}

// platformTable lists every platform endpoint of the spec with the scope
// it needs, and the endpoints Kiln adds beside them.
func (s *Server) platformTable() []route {
	return []route{
		{"GET", "/api-key-authorized", kiln.ScopeUserRead, s.apiKeyAuthorized},
		{"POST", "/resources/objects/prepare-upload", kiln.ScopeProductWrite, s.prepareUpload},
		{"POST", "/resources/objects/:objectId/finish-upload", kiln.ScopeProductWrite, s.finishUpload},
		{"POST", "/resources/objects/sprite", kiln.ScopeProductWrite, s.createSprite},
		{"GET", "/resources/objects/:objectId", kiln.ScopeProductRead, s.getObject},
		{"GET", "/resources/objects/:objectId/model.glb", kiln.ScopeProductRead, s.downloadGLB},
		// The uploaded file and the preview image, beyond the spec, with
		// model.glb's rules; translations feed the console details.
		{"GET", "/resources/objects/:objectId/source", kiln.ScopeProductRead, s.downloadSource},
		{"GET", "/resources/objects/:objectId/preview", kiln.ScopeProductRead, s.downloadPreview},
		{"PUT", "/resources/objects/:objectId/translations", kiln.ScopeProductWrite, s.putTranslations},
		{"POST", "/resources/objects/:objectId/like", KeyOnly, s.likeHandler(true)},
		{"DELETE", "/resources/objects/:objectId/like", KeyOnly, s.likeHandler(false)},
		{"GET", "/resources/furniture/custom-catalog", kiln.ScopeProductRead, s.getCatalog},
		// Setting the catalog up, beyond the spec.
		{"PUT", "/resources/furniture/custom-catalog", kiln.ScopeProductWrite, s.putCatalog},
		{"POST", "/resources/furniture/custom-catalog", kiln.ScopeProductWrite, s.addCatalogEntry},
		{"DELETE", "/resources/furniture/custom-catalog/:objectId", kiln.ScopeProductWrite, s.deleteCatalogEntry},
		{"GET", "/console/objects/:objectId/details", kiln.ScopeProductService, s.objectDetails},
		{"DELETE", "/resources/spaces/:spaceTemplateId", kiln.ScopeSpaceWrite, s.deleteTemplate},
		// Spaces and templates beyond the spec, so they can be made and
		// read over HTTP; space:write is the one space scope the spec has.
		{"GET", "/resources/spaces/templates", kiln.ScopeSpaceWrite, s.listTemplates},
		{"POST", "/resources/spaces/templates", kiln.ScopeSpaceWrite, s.createTemplate},
		{"GET", "/resources/spaces", kiln.ScopeSpaceWrite, s.listSpaces},
		{"POST", "/resources/spaces", kiln.ScopeSpaceWrite, s.createSpace},
		{"GET", "/resources/spaces/instances/:spaceId", kiln.ScopeSpaceWrite, s.getSpace},
		{"DELETE", "/resources/spaces/instances/:spaceId", kiln.ScopeSpaceWrite, s.deleteSpace},
		{"GET", "/viewers/public", Public, s.publicViewers},
		{"GET", "/viewers", kiln.ScopeViewerRead, s.listViewers},
		{"POST", "/viewers", kiln.ScopeViewerWrite, s.createViewer},
		{"GET", "/viewers/:viewerToken", kiln.ScopeViewerRead, s.getViewer},
		{"DELETE", "/viewers/:viewerToken", kiln.ScopeViewerWrite, s.deleteViewer},
		{"POST", "/viewers/:viewerToken/annotations", kiln.ScopeViewerWrite, s.addAnnotation},
		{"GET", "/viewers/:viewerToken/objects", kiln.ScopeViewerRead, s.listSpaceObjects},
		{"POST", "/viewers/:viewerToken/objects", kiln.ScopeViewerWrite, s.addSpaceObject},
		{"PATCH", "/viewers/:viewerToken/objects/:spaceObjectId", kiln.ScopeViewerWrite, s.moveSpaceObject},
		{"POST", "/viewers/:viewerToken/tracking-event", Public, s.trackEvent},
		{"GET", "/viewers/:viewerToken/analytics/views", kiln.ScopeViewerStatsRead, s.deprecatedViews},
		{"GET", "/viewers/:viewerToken/views", kiln.ScopeViewerStatsRead, s.views},
		{"GET", "/viewers/:viewerToken/visitor-tracking-summary", kiln.ScopeViewerStatsRead, s.visitorSummary},
		{"GET", "/viewers/:viewerToken/annotations", kiln.ScopeViewerRead, s.listAnnotations},
		{"DELETE", "/viewers/:viewerToken/objects", kiln.ScopeViewerWrite, s.resetSpaceObjects},
		{"POST", "/viewers/:viewerToken/renderings", kiln.ScopeRenderingsWrite, s.createRendering},
		{"GET", "/viewers/:viewerToken/renderings", kiln.ScopeRenderingsRead, s.listRenderings},
		{"GET", "/renderings/custom-setups", kiln.ScopeRenderingRead, s.listSetups},
		// Beyond the spec: a rendering's image, and uploading setups (the
		// spec has rendering:read only; renderings:write makes them).
		{"GET", "/viewers/:viewerToken/renderings/:renderingId/file", kiln.ScopeRenderingsRead, s.downloadRendering},
		{"POST", "/renderings/custom-setups", kiln.ScopeRenderingsWrite, s.uploadSetup},
		{"GET", "/renderings/custom-setups/:setupId/file", kiln.ScopeRenderingRead, s.downloadSetup},
		{"GET", "/magic/conversational-ai/:type", Public, s.chat},
	}
}

func (s *Server) platformRoutes(r *gin.Engine) {
	for _, rt := range s.platformTable() {
		r.Handle(rt.method, rt.path, s.require(rt.scope), rt.handler)
		if rt.method == http.MethodGet && platformFiles[rt.path] {
			r.Handle(http.MethodHead, rt.path, s.require(rt.scope), rt.handler)
		}
	}
	// The one-time upload URL of local-disk storage: its signature is the
	// credential, so a client can PUT without the API key.
	r.PUT("/uploads/:token", bodyDeadline(s.UploadTimeout), s.putUpload)

	admin := r.Group("/admin", s.requireAdmin)
	admin.POST("/api-keys", s.createKey)
	admin.GET("/api-keys", s.listKeys)
	admin.DELETE("/api-keys/:id", s.revokeKey)

	if s.Monitor != nil {
		r.GET("/monitoring", func(c *gin.Context) { c.Redirect(http.StatusMovedPermanently, "/monitoring/") })
		r.Any("/monitoring/*any", s.monitorAuth, gin.WrapH(s.Monitor))
	}
	s.pageRoutes(r)
}

package api

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/jobs"
)

// objectView is an object as a client sees it: the record plus the URLs
// of its files.
type objectView struct {
	*kiln.Object
	Files map[string]string `json:"files"`
	LODs  []lodView         `json:"lods,omitempty"`
	// Likes and LikedByMe are shown where they were read (GET of the
	// object), not in the answers of the upload flow.
	Likes     *int64 `json:"likes,omitempty"`
	LikedByMe *bool  `json:"likedByMe,omitempty"`
}

type lodView struct {
	kiln.LOD
	URL string `json:"url"`
}

func (s *Server) view(c *gin.Context, o *kiln.Object) objectView {
	files := map[string]string{}
	base := s.platformURL(c) + "/resources/objects/" + o.ID
	glb := base + "/model.glb"
	if o.State == kiln.StateReady && len(o.LODs) > 0 {
		files["glb"] = glb
	}
	if o.Uploaded {
		files["source"] = base + "/source"
	}
	if o.PreviewType != "" {
		files["preview"] = base + "/preview"
	}
	v := objectView{Object: o, Files: files}
	for _, l := range o.LODs {
		v.LODs = append(v.LODs, lodView{LOD: l, URL: glb + "?lod=" + strconv.Itoa(l.Level)})
	}
	return v
}

type uploadTarget struct {
	URL       string            `json:"url"`
	Method    string            `json:"method"`
	Headers   map[string]string `json:"headers"`
	ExpiresAt time.Time         `json:"expiresAt"`
}

// formInt reads an optional integer form field.
func formInt(c *gin.Context, field string) (int64, error) {
	v := strings.TrimSpace(c.PostForm(field))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, invalidf("invalid_"+field, "%s must be a whole number, got %q", field, v)
	}
	return n, nil
}

// formBool reads an optional boolean form field.
func formBool(c *gin.Context, field string, def bool) (bool, error) {
	v := strings.TrimSpace(c.PostForm(field))
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, invalidf("invalid_"+field, "%s must be true or false, got %q", field, v)
	}
	return b, nil
}

// parseForm reads a multipart (or urlencoded) form with a bounded body.
func parseForm(c *gin.Context) error {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, 32<<20)
	ct := c.ContentType()
	if ct != "multipart/form-data" && ct != "application/x-www-form-urlencoded" {
		return invalidf("invalid_content_type", "send the fields as multipart/form-data")
	}
	if err := c.Request.ParseMultipartForm(8 << 20); err != nil && err != http.ErrNotMultipart {
		if _, tooLarge := err.(*http.MaxBytesError); tooLarge {
			return err
		}
		return invalidf("invalid_form", "the form could not be read: %v", err)
	}
	return nil
}

func (s *Server) prepareUpload(c *gin.Context) {
	if err := parseForm(c); err != nil {
		fail(c, err)
		return
	}
	size, err := formInt(c, "file_size")
	if err != nil {
		fail(c, err)
		return
	}
	count, err := formInt(c, "file_count")
	if err != nil {
		fail(c, err)
		return
	}
	now := time.Now().UTC()
	o := &kiln.Object{
		ID:              kiln.NewID("obj"),
		Account:         callerKey(c).Account,
		Name:            strings.TrimSpace(c.PostForm("name")),
		Description:     c.PostForm("description"),
		Comment:         c.PostForm("comment"),
		Type:            c.PostForm("type"),
		Extension:       strings.ToLower(strings.TrimPrefix(strings.TrimSpace(c.PostForm("extension")), ".")),
		FileSize:        size,
		FileCount:       int(count),
		MailAfterUpload: strings.TrimSpace(c.PostForm("mail_after_upload")),
		Optimize:        true,
		State:           kiln.StateUploading,
		CreatedAt:       now,
		UpdatedAt:       now,
	}
	if err := kiln.ValidateNewObject(o); err != nil {
		fail(c, err)
		return
	}
	if err := checkMailAddress(o.MailAfterUpload); err != nil {
		fail(c, err)
		return
	}
	ctx := c.Request.Context()
	if n, err := s.Objects.PendingUploads(ctx, o.Account, now.Add(-s.UploadURLTTL)); err != nil {
		fail(c, err)
		return
	} else if n >= kiln.MaxPendingUploads {
		c.Header("Retry-After", "60")
		fail(c, kiln.Errorf(kiln.KindRateLimited, "too_many_pending_uploads",
			"the account has %d uploads prepared and not finished, the most it may have; finish them (finish-upload with success=false releases one), or wait: a prepared upload stops counting when its upload URL expires, %v after prepare-upload", n, s.UploadURLTTL))
		return
	}
	if err := s.storePreview(c, o); err != nil {
		fail(c, err)
		return
	}
	expires := now.Add(s.UploadURLTTL)
	target := uploadTarget{Method: http.MethodPut, Headers: map[string]string{}, ExpiresAt: expires.Truncate(time.Second)}
	url, presigned, err := s.Blobs.PresignPut(ctx, o.UploadKey(), o.FileSize, s.UploadURLTTL)
	if err != nil {
		fail(c, err)
		return
	}
	if presigned {
		target.URL = url
	} else {
		token, err := s.signUpload(c, o.ID, expires)
		if err != nil {
			fail(c, err)
			return
		}
		target.URL = s.platformURL(c) + "/uploads/" + token
	}
	if err := s.Objects.CreateObject(ctx, o); err != nil {
		fail(c, err)
		return
	}
	logger(c).Info("object prepared", "object_id", o.ID, "account", o.Account, "type", o.Type, "extension", o.Extension)
	c.JSON(http.StatusOK, []gin.H{{"objectId": o.ID, "upload": target, "object": s.view(c, o)}})
}

// signUpload makes the token of a local upload URL: object id, expiry and
// an HMAC over both with the deployment's upload secret.
func (s *Server) signUpload(c *gin.Context, id string, expires time.Time) (string, error) {
	secret, err := s.uploadSecret(c)
	if err != nil {
		return "", err
	}
	payload := id + "." + strconv.FormatInt(expires.Unix(), 10)
	return payload + "." + mac(secret, payload), nil
}

func (s *Server) uploadSecret(c *gin.Context) (string, error) {
	return s.Objects.UploadSecret(c.Request.Context(), kiln.NewSecret())
}

func mac(secret, payload string) string {
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// putUpload receives the file of a local upload URL and streams it into
// the blob store. The URL works once: after a complete upload it answers
// 409.
func (s *Server) putUpload(c *gin.Context) {
	ctx := c.Request.Context()
	badToken := kiln.Errorf(kiln.KindForbidden, "invalid_upload_url", "the upload URL is not valid; ask prepare-upload for a new one")
	parts := strings.Split(c.Param("token"), ".")
	if len(parts) != 3 || !kiln.ValidID(parts[0]) {
		fail(c, badToken)
		return
	}
	secret, err := s.uploadSecret(c)
	if err != nil {
		fail(c, err)
		return
	}
	if !hmac.Equal([]byte(parts[2]), []byte(mac(secret, parts[0]+"."+parts[1]))) {
		fail(c, badToken)
		return
	}
	exp, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || time.Now().Unix() > exp {
		fail(c, kiln.Errorf(kiln.KindForbidden, "upload_url_expired", "the upload URL has expired; ask prepare-upload for a new one"))
		return
	}
	id := parts[0]
	unlock, locked, err := s.Objects.Lock(ctx, "upload:"+id, time.Minute)
	if err != nil {
		fail(c, err)
		return
	}
	if !locked {
		fail(c, kiln.Errorf(kiln.KindConflict, "upload_in_progress", "another upload to this URL is in progress"))
		return
	}
	defer unlock()
	o, err := s.Objects.Object(ctx, id)
	if err != nil {
		fail(c, err)
		return
	}
	if o.Uploaded || o.State != kiln.StateUploading {
		fail(c, kiln.Errorf(kiln.KindConflict, "already_uploaded", "the file of object %s was already uploaded; upload URLs work once", id))
		return
	}
	limit := int64(kiln.MaxUploadBytes)
	if o.FileSize > 0 {
		limit = o.FileSize
	}
	if c.Request.ContentLength > limit {
		fail(c, kiln.Errorf(kiln.KindTooLarge, "file_too_large", "the file is %d bytes; this upload allows at most %d (file_size)", c.Request.ContentLength, limit))
		return
	}
	body := http.MaxBytesReader(c.Writer, c.Request.Body, limit)
	info, err := s.Blobs.Put(ctx, o.UploadKey(), body, c.Request.ContentLength, "application/octet-stream")
	if err != nil {
		fail(c, err)
		return
	}
	if _, err := s.Objects.UpdateObject(ctx, id, func(o *kiln.Object) error {
		o.Uploaded = true
		return nil
	}); err != nil {
		fail(c, err)
		return
	}
	logger(c).Info("upload stored", "object_id", id, "bytes", info.Size)
	c.Header("ETag", info.ETag)
	c.Status(http.StatusOK)
}

// ownObject loads the object of the path for the caller; another account's
// object answers 404 like a missing one, so ids cannot be probed.
func (s *Server) ownObject(c *gin.Context) (*kiln.Object, error) {
	id := c.Param("objectId")
	if err := kiln.CheckID("objectId", id); err != nil {
		return nil, err
	}
	o, err := s.Objects.Object(c.Request.Context(), id)
	return owned(c, o, err, kiln.Errorf(kiln.KindNotFound, "object_not_found", "no object with id %s", id))
}

func (s *Server) finishUpload(c *gin.Context) {
	o, err := s.ownObject(c)
	if err != nil {
		fail(c, err)
		return
	}
	if err := parseForm(c); err != nil {
		fail(c, err)
		return
	}
	success, err := formBool(c, "success", true)
	if err != nil {
		fail(c, err)
		return
	}
	optimize, err := formBool(c, "optimize", true)
	if err != nil {
		fail(c, err)
		return
	}
	if p := c.PostForm("params"); p != "" {
		var obj map[string]any
		if json.Unmarshal([]byte(p), &obj) != nil {
			fail(c, invalidf("invalid_params", "params must be a JSON object"))
			return
		}
	}
	message := c.PostForm("message")
	ctx := c.Request.Context()
	if o.State != kiln.StateUploading {
		// Finishing twice is harmless: answer the object as it is.
		c.JSON(http.StatusOK, []objectView{s.view(c, o)})
		return
	}
	if !success {
		o, err = s.Objects.UpdateObject(ctx, o.ID, func(o *kiln.Object) error {
			o.State = kiln.StateFailed
			o.Error = strings.TrimSpace("the client reported the upload as failed: " + message)
			return nil
		})
		if err != nil {
			fail(c, err)
			return
		}
		c.JSON(http.StatusOK, []objectView{s.view(c, o)})
		return
	}
	if err := s.takeUpload(ctx, o); err != nil {
		if kiln.KindOf(err) == kiln.KindTooLarge {
			// The object cannot be finished with this file: it ends failed,
			// and the finish call says why.
			_, _ = s.Objects.UpdateObject(ctx, o.ID, func(o *kiln.Object) error {
				o.State = kiln.StateFailed
				_, o.Error = kiln.CodeOf(err)
				return nil
			})
		}
		fail(c, err)
		return
	}
	o, err = s.Objects.UpdateObject(ctx, o.ID, func(o *kiln.Object) error {
		if o.State != kiln.StateUploading {
			return nil
		}
		o.Uploaded = true
		o.Optimize = optimize
		o.State = kiln.StateProcessing
		if message != "" {
			o.Comment = strings.TrimSpace(o.Comment + "\n" + message)
		}
		return nil
	})
	if err != nil {
		fail(c, err)
		return
	}
	if err := s.Jobs.Enqueue(ctx, jobs.For(o.Account, jobs.ObjectProcess{ObjectID: o.ID})); err != nil {
		// Put the object back so that finishing again can enqueue it.
		_, _ = s.Objects.UpdateObject(ctx, o.ID, func(o *kiln.Object) error {
			o.State = kiln.StateUploading
			return nil
		})
		failQueued(c, err)
		return
	}
	logger(c).Info("object processing enqueued", "object_id", o.ID)
	c.JSON(http.StatusOK, []objectView{s.view(c, o)})
}

// takeUpload checks the uploaded file against file_size and the upload
// cap, whatever the store (S3 does not enforce them on a presigned PUT
// without a declared length), and copies it to the object's source key,
// out of reach of the upload URL.
func (s *Server) takeUpload(ctx context.Context, o *kiln.Object) error {
	info, err := s.Blobs.Stat(ctx, o.UploadKey())
	if kiln.KindOf(err) == kiln.KindNotFound {
		return kiln.Errorf(kiln.KindConflict, "upload_missing", "no file was uploaded for object %s; PUT it to the upload URL first", o.ID)
	}
	if err != nil {
		return err
	}
	limit := int64(kiln.MaxUploadBytes)
	if o.FileSize > 0 {
		limit = o.FileSize
	}
	if info.Size > limit {
		_ = s.Blobs.Delete(ctx, o.UploadKey())
		return kiln.Errorf(kiln.KindTooLarge, "file_too_large", "the uploaded file is %d bytes; this upload allows at most %d (file_size, and %d for any upload)", info.Size, limit, int64(kiln.MaxUploadBytes))
	}
	if _, err := s.Blobs.Copy(ctx, o.UploadKey(), o.SourceKey()); err != nil {
		return err
	}
	// The copy is what counts; a leftover upload is only wasted space.
	_ = s.Blobs.Delete(ctx, o.UploadKey())
	return nil
}

func (s *Server) getObject(c *gin.Context) {
	o, err := s.ownObject(c)
	if err != nil {
		fail(c, err)
		return
	}
	v := s.view(c, o)
	if err := s.addLikes(c, &v); err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, []objectView{v})
}

// downloadGLB streams the object's GLB with ETag, conditional requests
// (304) and ranges (206), straight from the blob store.
func (s *Server) downloadGLB(c *gin.Context) {
	o, err := s.ownObject(c)
	if err != nil {
		fail(c, err)
		return
	}
	v, isVariant, err := kiln.ParseVariant(c.Request.URL.Query())
	if err != nil {
		fail(c, err)
		return
	}
	if o.State != kiln.StateReady {
		fail(c, kiln.Errorf(kiln.KindConflict, "object_not_ready", "object %s is %s; its GLB exists once it is ready", o.ID, o.State))
		return
	}
	if len(o.LODs) == 0 {
		fail(c, kiln.Errorf(kiln.KindNotFound, "no_glb", "object %s (type %s, .%s) is kept as uploaded and has no GLB; download it from files.source", o.ID, o.Type, o.Extension))
		return
	}
	if isVariant {
		s.serveVariant(c, o, v)
		return
	}
	if !slices.ContainsFunc(o.LODs, func(l kiln.LOD) bool { return l.Level == v.LOD }) {
		fail(c, kiln.Errorf(kiln.KindNotFound, "lod_not_built", "lod %d of object %s was not built (finish the upload with optimize=true)", v.LOD, o.ID))
		return
	}
	s.serveBlob(c, o.GLBKey(v.LOD), fmt.Sprintf("%s-lod%d.glb", o.ID, v.LOD), "model/gltf-binary")
}

package app

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
)

// TestHead asks HEAD (what curl -I sends) of every kind of file a GET
// returns: the same status, Content-Type, Content-Length and ETag, and no
// body. A HEAD of a variant not built yet is a 404 and builds nothing.
func TestHead(t *testing.T) {
	r := startPublic(t, nil)
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite, kiln.ScopeViewerWrite,
		kiln.ScopeRenderingRead, kiln.ScopeRenderingsWrite)
	o := uploadObject(t, r, key, map[string]string{"name": "Cube", "type": "mesh", "extension": "glb"}, nil, fixture.CubeGLB())
	if o.State != "ready" {
		t.Fatalf("object %s is %s", o.ObjectID, o.State)
	}
	res := call(t, r, "POST", "/viewers", key, map[string]any{"type": "product", "name": "Cube", "objectId": o.ObjectID})
	want(t, "create viewer", res, http.StatusCreated, "")
	var v struct {
		Token string `json:"viewerToken"`
	}
	res.json(t, &v)
	// An uploaded render setup: a file only its account downloads.
	res = uploadSetup(t, r, key, map[string]string{"name": "Room", "type": "product"}, append([]byte("BLENDER-v304"), make([]byte, 5000)...))
	want(t, "upload setup", res, http.StatusCreated, "")
	var setup struct {
		ID string `json:"id"`
	}
	res.json(t, &setup)

	objects := r.PlatformURL + "/resources/objects/" + o.ObjectID
	for _, u := range []struct{ url, key string }{
		{objects + "/model.glb", key},
		{objects + "/model.glb?lod=0", key},
		{objects + "/model.glb?textureFormat=png", key},
		{objects + "/source", key},
		{objects + "/preview", key},
		{r.PlatformURL + "/renderings/custom-setups/" + setup.ID + "/file", key},
		{r.PlatformURL + "/v/" + v.Token + "/model.glb", ""},
		{r.PlatformURL + "/openapi.json", ""},
		{r.AvatarURL + "/openapi.json", ""},
		{r.AvatarURL + "/model/default-male.glb", ""},
		{r.AvatarURL + "/model/default-male.glb?pose=T&quality=medium", ""},
		{r.AvatarURL + "/preview/default-male.png?size=32", ""},
		{r.AvatarURL + "/animations/feminine/locomotion_walk.glb", ""},
		{r.AvatarURL + "/avatar/schema.json", ""},
	} {
		get := do(t, "GET", u.url, u.key, nil, nil)
		head := do(t, "HEAD", u.url, u.key, nil, nil)
		if get.Status != http.StatusOK || head.Status != http.StatusOK || len(head.Body) != 0 {
			t.Errorf("%s: GET %d, HEAD %d with %d bytes of body", u.url, get.Status, head.Status, len(head.Body))
			continue
		}
		for _, h := range []string{"Content-Type", "Content-Length", "ETag"} {
			if head.Header.Get(h) != get.Header.Get(h) {
				t.Errorf("%s: HEAD %s %q, GET %q", u.url, h, head.Header.Get(h), get.Header.Get(h))
			}
		}
		if head.Header.Get("Content-Length") != strconv.Itoa(len(get.Body)) {
			t.Errorf("%s: HEAD Content-Length %q, the GET body has %d bytes", u.url, head.Header.Get("Content-Length"), len(get.Body))
		}
	}

	// Not built yet: 404 for as long as no GET asks for it, and no task
	// enqueued.
	before := tasksEver(t, r)
	for _, u := range []string{
		r.AvatarURL + "/model/default-female.glb?lod=2&textureFormat=png",
		r.AvatarURL + "/preview/default-female.png?size=64",
		objects + "/model.glb?lod=1&textureFormat=compat",
	} {
		if res := do(t, "HEAD", u, key, nil, nil); res.Status != http.StatusNotFound || len(res.Body) != 0 {
			t.Fatalf("HEAD %s before a GET: %d, want 404 without body", u, res.Status)
		}
	}
	if after := tasksEver(t, r); after != before {
		t.Fatalf("the HEADs enqueued %d tasks", after-before)
	}
	for _, u := range []string{
		r.AvatarURL + "/model/default-female.glb?lod=2&textureFormat=png",
		objects + "/model.glb?lod=1&textureFormat=compat",
	} {
		if res := do(t, "HEAD", u, key, nil, nil); res.Status != http.StatusNotFound {
			t.Fatalf("HEAD %s built the variant: %d", u, res.Status)
		}
		if res := do(t, "GET", u, key, nil, nil); res.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", u, res.Status, res.Body)
		}
		if res := do(t, "HEAD", u, key, nil, nil); res.Status != http.StatusOK {
			t.Fatalf("HEAD %s after the GET: %d", u, res.Status)
		}
	}
	// Errors are the GET's, without the body.
	for _, tc := range []struct {
		url    string
		status int
	}{
		{r.AvatarURL + "/model/av_nosuchavatar.glb", http.StatusNotFound},
		{r.AvatarURL + "/model/default-male.glb?pose=X", http.StatusBadRequest},
		{objects + "/model.glb", http.StatusUnauthorized},
	} {
		if res := do(t, "HEAD", tc.url, "", nil, nil); res.Status != tc.status || len(res.Body) != 0 {
			t.Errorf("HEAD %s: %d with %d bytes, want %d", tc.url, res.Status, len(res.Body), tc.status)
		}
	}
}

// tasksEver counts the tasks in every queue, whatever their state,
// completed ones included (they are retained), so that a job enqueued
// between two counts shows however fast it ran.
func tasksEver(t *testing.T, r *Running) int {
	t.Helper()
	insp := asynq.NewInspector(r.RedisOpt)
	queues, err := insp.Queues()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, q := range queues {
		info, err := insp.GetQueueInfo(q)
		if err != nil {
			t.Fatal(err)
		}
		n += info.Size + info.Completed
	}
	return n
}

package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/render"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/priority"
	"github.com/kilnhq/kiln/jobs"
)

// RenderConfig generates the avatar of a configuration and stores its
// picture (PNG, transparent) under the job's key: a catalogue thumbnail
// or a template's preview of the creator.
func (w *Worker) RenderConfig(ctx context.Context, t *asynq.Task) error {
	const op = "worker.RenderConfig"
	var p jobs.ConfigRender
	if err := jobs.Decode(t, &p); err != nil {
		return err
	}
	if !strings.HasPrefix(p.BlobKey, "creator/") || kiln.CheckBlobKey(p.BlobKey) != nil ||
		p.Size < 1 || p.Size > render.MaxSize || (p.Camera != "full" && p.Camera != "portrait") {
		return jobs.Permanent(fmt.Errorf("%s: invalid payload %+v", op, p))
	}
	if _, err := w.Blobs.Stat(ctx, p.BlobKey); err == nil {
		return nil
	}
	cfg, err := avatar.ParseConfig(p.Configuration)
	if err != nil {
		return jobs.Permanent(kiln.E(op, err))
	}
	// A picture is background work: in kiln serve it waits while the
	// creator builds what a person is waiting on (a part, the avatar on
	// screen), and runs beside other background work on half the cores;
	// but for 3 s at most, since it holds a worker slot meanwhile that an
	// avatar's download may be queued for (past it, it still waits for a
	// running part: priority.Gate.EnterWithin).
	leave, err := priority.Default.EnterWithin(ctx, priority.Background, pictureYield)
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	defer leave()
	s, err := pictureScene(cfg, p.Part)
	if err != nil {
		return jobs.Permanent(kiln.E(op, kiln.KindUnprocessable, err))
	}
	// A part picked while the scene was made goes first: the picture
	// draws after it (or after pictureYield), not beside it.
	if err := priority.Default.Yield(ctx, pictureYield); err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	m, err := render.Render(ctx, s, render.Options{Size: p.Size, Camera: p.Camera, Background: render.ForFormat("png", nil)})
	if err != nil {
		return kiln.E(op, err)
	}
	var buf bytes.Buffer
	if err := render.Encode(&buf, m, "png", 0); err != nil {
		return kiln.E(op, err)
	}
	if _, err := w.Blobs.Put(ctx, p.BlobKey, bytes.NewReader(buf.Bytes()), int64(buf.Len()), "image/png"); err != nil {
		return kiln.E(op, err)
	}
	return nil
}

// pictureYield bounds how long a picture waits for the creator's
// interactive work.
const pictureYield = 3 * time.Second

// composed says whether a style's thumbnail is drawn from its part:
// what is worn on the head, but for the hair styles whose look is mostly
// the scalp the whole build paints (bald, buzz: their pictures from a
// part differ from the whole build's by more than a third of what the
// style changes; TestPictureFromPart).
func composed(cat, style string) bool {
	switch cat {
	case "hair":
		return style != "bald" && style != "buzz"
	case "headwear", "glasses":
		return true
	}
	return false
}

// pictureScene is the scene a picture shows. A catalogue thumbnail shows
// one style on a default body: it is drawn as that body, generated once
// per process and kept, with the style's part (avatar.BuildPart) in place
// of the meshes the part replaces. A whole build of the avatar took 5.4 s
// at load 16 where the part took 0.4 s, and the picture, 256 pixels
// wide, shows no difference between the part's 256-pixel textures and
// the build's. Only what is worn on the head is drawn so: stubble is
// painted into the head's skin, which a part does not repaint, and a
// garment's part brings a body cut anew without the neck band of the
// whole build (a dark ring shows at the collar), so beards, garments and
// anything that is not one style changed on a default body are generated
// whole.
func pictureScene(cfg avatar.Config, part string) (*scene.Scene, error) {
	if !composed(part, cfg.Style(part)) {
		return avatar.Generate(cfg)
	}
	body := cfg.Body.Type
	if body == "" {
		body = avatar.Masculine
	}
	want, err1 := json.Marshal(avatar.Default(body).WithStyle(part, cfg.Style(part)))
	got, err2 := json.Marshal(cfg)
	if _, ok := avatar.PartMeshes[part]; !ok || err1 != nil || err2 != nil || !bytes.Equal(want, got) {
		return avatar.Generate(cfg)
	}
	base, err := defaultBody(body)
	if err != nil {
		return nil, err
	}
	ps, err := avatar.BuildPart(cfg, part, "")
	if err != nil {
		return nil, err
	}
	return withPart(base, ps), nil
}

// defaultBodies are the default avatars of each body type, generated at
// the first thumbnail that needs one; never modified.
var defaultBodies struct {
	sync.Mutex
	scenes map[string]*scene.Scene
}

func defaultBody(body string) (*scene.Scene, error) {
	defaultBodies.Lock()
	defer defaultBodies.Unlock()
	if s := defaultBodies.scenes[body]; s != nil {
		return s, nil
	}
	s, err := avatar.Generate(avatar.Default(body))
	if err != nil {
		return nil, err
	}
	if defaultBodies.scenes == nil {
		defaultBodies.scenes = map[string]*scene.Scene{}
	}
	defaultBodies.scenes[body] = s
	return s, nil
}

// withPart is base with part's meshes in place of those the part's scene
// names in extras.replaces: base's nodes of those meshes are left empty,
// and part's scene (its own copy of the skeleton, at the same joints) is
// added beside base's. A mesh named in extras.keepMaterial (the body a
// garment's part cuts anew) keeps base's material of that name, the
// painted skin. base is not modified.
func withPart(base, part *scene.Scene) *scene.Scene {
	var replaces, keep []string
	if ex, ok := part.Scenes[0].Extras.(map[string]any); ok {
		replaces, keep = strings_(ex["replaces"]), strings_(ex["keepMaterial"])
	}
	out := *base
	out.Meshes = slices.Clone(base.Meshes)
	out.Materials = slices.Clone(base.Materials)
	out.Textures = slices.Clone(base.Textures)
	out.Images = slices.Clone(base.Images)
	out.Samplers = slices.Clone(base.Samplers)
	out.Nodes = slices.Clone(base.Nodes)
	out.Skins = slices.Clone(base.Skins)
	sc := *base.Scenes[0]
	sc.Nodes = slices.Clone(sc.Nodes)
	out.Scenes = []*gltf.Scene{&sc}
	out.DefaultScene = nil
	out.Animations = nil
	baseMaterial := map[string]*int{}
	for i, n := range out.Nodes {
		if n == nil || n.Mesh == nil {
			continue
		}
		m := base.Meshes[*n.Mesh]
		if len(m.Primitives) > 0 && m.Primitives[0].Material != nil {
			baseMaterial[m.Name] = m.Primitives[0].Material
		}
		if slices.Contains(replaces, m.Name) {
			c := *n
			c.Mesh, c.Skin = nil, nil
			out.Nodes[i] = &c
		}
	}
	add := func(i, off int) *int { j := i + off; return &j }
	nImg, nSam, nTex, nMat := len(out.Images), len(out.Samplers), len(out.Textures), len(out.Materials)
	nMesh, nNode, nSkin := len(out.Meshes), len(out.Nodes), len(out.Skins)
	out.Images = append(out.Images, part.Images...)
	out.Samplers = append(out.Samplers, part.Samplers...)
	for _, t := range part.Textures {
		c := *t
		if c.Source != nil {
			c.Source = add(*c.Source, nImg)
		}
		if c.Sampler != nil {
			c.Sampler = add(*c.Sampler, nSam)
		}
		out.Textures = append(out.Textures, &c)
	}
	for _, m := range part.Materials {
		c := *m
		if pbr := c.PBRMetallicRoughness; pbr != nil {
			p := *pbr
			if p.BaseColorTexture != nil {
				t := *p.BaseColorTexture
				t.Index += nTex
				p.BaseColorTexture = &t
			}
			if p.MetallicRoughnessTexture != nil {
				t := *p.MetallicRoughnessTexture
				t.Index += nTex
				p.MetallicRoughnessTexture = &t
			}
			c.PBRMetallicRoughness = &p
		}
		if c.NormalTexture != nil && c.NormalTexture.Index != nil {
			t := *c.NormalTexture
			t.Index = add(*t.Index, nTex)
			c.NormalTexture = &t
		}
		if c.OcclusionTexture != nil && c.OcclusionTexture.Index != nil {
			t := *c.OcclusionTexture
			t.Index = add(*t.Index, nTex)
			c.OcclusionTexture = &t
		}
		if c.EmissiveTexture != nil {
			t := *c.EmissiveTexture
			t.Index += nTex
			c.EmissiveTexture = &t
		}
		out.Materials = append(out.Materials, &c)
	}
	for _, m := range part.Meshes {
		c := *m
		c.Primitives = make([]*scene.Primitive, len(m.Primitives))
		for i, p := range m.Primitives {
			q := *p
			if mat, ok := baseMaterial[m.Name]; ok && slices.Contains(keep, m.Name) {
				q.Material = mat
			} else if q.Material != nil {
				q.Material = add(*q.Material, nMat)
			}
			c.Primitives[i] = &q
		}
		out.Meshes = append(out.Meshes, &c)
	}
	for _, n := range part.Nodes {
		c := *n
		c.Children = make([]int, len(n.Children))
		for i, ch := range n.Children {
			c.Children[i] = ch + nNode
		}
		if c.Mesh != nil {
			c.Mesh = add(*c.Mesh, nMesh)
		}
		if c.Skin != nil {
			c.Skin = add(*c.Skin, nSkin)
		}
		out.Nodes = append(out.Nodes, &c)
	}
	for _, sk := range part.Skins {
		c := *sk
		c.Joints = make([]int, len(sk.Joints))
		for i, j := range sk.Joints {
			c.Joints[i] = j + nNode
		}
		if c.Skeleton != nil {
			c.Skeleton = add(*c.Skeleton, nNode)
		}
		out.Skins = append(out.Skins, &c)
	}
	for _, n := range part.Scenes[0].Nodes {
		sc.Nodes = append(sc.Nodes, n+nNode)
	}
	return &out
}

// strings_ reads a list of strings from a scene's extras (a []string as
// built, a []any as read).
func strings_(v any) []string {
	switch l := v.(type) {
	case []string:
		return l
	case []any:
		out := make([]string, 0, len(l))
		for _, x := range l {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

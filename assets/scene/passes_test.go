package scene

import (
	"slices"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

func mustRead(t testing.TB, glb []byte) *Scene {
	t.Helper()
	s, err := Read(glb, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustWriteValid(t *testing.T, s *Scene) []byte {
	t.Helper()
	out, err := Write(s)
	if err != nil {
		t.Fatal(err)
	}
	gltfcheck.RequireValid(t, out)
	return out
}

func TestCompactDropsUnreferencedVerticesFromEveryStream(t *testing.T) {
	s := mustRead(t, scenetest.Skinned())
	p := s.Meshes[0].Primitives[0]
	// Keep the upper quad only (vertices 2 to 5), as a simplifier would.
	p.Indices = []uint32{2, 3, 5, 2, 5, 4}
	if err := p.Compact(); err != nil {
		t.Fatal(err)
	}
	if p.VertexCount() != 4 || !slices.Equal(p.Indices, []uint32{0, 1, 3, 0, 3, 2}) {
		t.Fatalf("after Compact: %d vertices, indices %v", p.VertexCount(), p.Indices)
	}
	if p.Positions[0] != [3]float32{0, 1, 0} || p.Joints[0][0] != [4]uint16{0, 1, 0, 0} || p.Weights[0][0] != [4]float32{0.5, 0.5, 0, 0} ||
		p.TexCoords[0][3] != [2]float32{1, 0} || p.Normals[3] != [3]float32{0, 0, 1} {
		t.Errorf("streams not gathered alike: %v %v %v %v", p.Positions, p.Joints[0], p.Weights[0], p.TexCoords[0])
	}
	if p.Targets[0].Positions[2] != [3]float32{-0.2, 0.1, 0} || p.Targets[1].Positions[0] != [3]float32{0, -0.3, 0} || len(p.Targets[1].Positions) != 4 {
		t.Errorf("morph targets not gathered: %v %v", p.Targets[0].Positions, p.Targets[1].Positions)
	}
	mustWriteValid(t, s)

	p.Indices = []uint32{0, 1, 9}
	if err := p.Compact(); err == nil {
		t.Error("Compact accepted an index past the vertices")
	}
}

// A level of detail is made from a shallow copy of the primitive: the
// copy's Compact must leave the original whole.
func TestCompactOfACopyKeepsTheOriginal(t *testing.T) {
	s := mustRead(t, scenetest.Skinned())
	p := s.Meshes[0].Primitives[0]
	want := corners(p)
	lod := *p
	lod.Indices = p.Indices[6:]
	if err := lod.Compact(); err != nil {
		t.Fatal(err)
	}
	if err := p.check(); err != nil || !slices.Equal(corners(p), want) || len(p.TexCoords[0]) != 6 || len(p.Targets[0].Positions) != 6 {
		t.Errorf("the original changed: %v", err)
	}
	if lod.VertexCount() != 4 || len(lod.Joints[0]) != 4 || len(lod.Targets[1].Positions) != 4 {
		t.Errorf("the copy was not compacted")
	}
	w := *p
	if err := w.Weld(); err != nil {
		t.Fatal(err)
	}
	unweld(&w)
	if err := w.Weld(); err != nil || p.VertexCount() != 6 || !slices.Equal(corners(p), want) {
		t.Errorf("welding a copy changed the original: %v", err)
	}
}

// corners lists the position of every triangle corner.
func corners(p *Primitive) [][3]float32 {
	var out [][3]float32
	for _, i := range p.Indices {
		out = append(out, p.Positions[i])
	}
	return out
}

// unweld gives every corner of every triangle its own vertex.
func unweld(p *Primitive) {
	p.gather(p.Indices)
	p.Indices = nil
}

func TestWeld(t *testing.T) {
	s := mustRead(t, scenetest.Skinned())
	p := s.Meshes[0].Primitives[0]
	want := corners(p)
	unweld(p)
	if p.VertexCount() != 12 {
		t.Fatalf("unwelded: %d vertices", p.VertexCount())
	}
	if err := s.Weld(); err != nil {
		t.Fatal(err)
	}
	if p.VertexCount() != 6 || p.Triangles() != 4 || !slices.Equal(corners(p), want) {
		t.Errorf("welded: %d vertices, %d triangles, corners %v", p.VertexCount(), p.Triangles(), corners(p))
	}
	mustWriteValid(t, s)

	// Vertices that differ in one stream only (here a morph target delta)
	// stay apart.
	unweld(p)
	p.Targets[1].Positions[0][0] = 0.125
	if err := p.Weld(); err != nil {
		t.Fatal(err)
	}
	if p.VertexCount() != 7 {
		t.Errorf("weld merged vertices that differ in a morph target: %d vertices, want 7", p.VertexCount())
	}
}

func TestDedup(t *testing.T) {
	s := mustRead(t, scenetest.Skinned())
	// A second primitive with copies of the image, sampler, texture and
	// material, as merging two exports gives.
	s.Images = append(s.Images, &Image{MimeType: s.Images[0].MimeType, Data: slices.Clone(s.Images[0].Data)})
	s.Samplers = append(s.Samplers, &gltf.Sampler{MagFilter: gltf.MagNearest, MinFilter: gltf.MinNearest})
	s.Textures = append(s.Textures, &gltf.Texture{Sampler: gltf.Index(1), Source: gltf.Index(1)})
	s.Materials = append(s.Materials, &gltf.Material{
		Name:                 "Skin.001",
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorTexture: &gltf.TextureInfo{Index: 1}, MetallicFactor: gltf.Float(0)},
	})
	// A material that differs (double sided) must stay.
	s.Materials = append(s.Materials, &gltf.Material{
		Name:                 "Skin.002",
		DoubleSided:          true,
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorTexture: &gltf.TextureInfo{Index: 1}, MetallicFactor: gltf.Float(0)},
	})
	p := *s.Meshes[0].Primitives[0]
	p.Material = gltf.Index(1)
	q := p
	q.Material = gltf.Index(2)
	s.Meshes[0].Primitives = append(s.Meshes[0].Primitives, &p, &q)

	s.Dedup()
	if len(s.Images) != 1 || len(s.Samplers) != 1 || len(s.Textures) != 1 || len(s.Materials) != 2 {
		t.Fatalf("after Dedup: %d images, %d samplers, %d textures, %d materials; want 1, 1, 1, 2",
			len(s.Images), len(s.Samplers), len(s.Textures), len(s.Materials))
	}
	prims := s.Meshes[0].Primitives
	if *prims[1].Material != 0 || *prims[2].Material != 1 || s.Materials[0].Name != "Skin" || s.Materials[1].PBRMetallicRoughness.BaseColorTexture.Index != 0 {
		t.Errorf("references not rewritten: %d %d %q", *prims[1].Material, *prims[2].Material, s.Materials[0].Name)
	}
	out := mustWriteValid(t, s)
	// The three primitives share their vertex data: Write stores it once.
	back := mustRead(t, out)
	if back.Stats().Primitives != 3 {
		t.Errorf("primitives lost")
	}
	doc := new(gltf.Document)
	if err := jsonOf(out, doc); err != nil {
		t.Fatal(err)
	}
	// 8 for the primitive's streams and indices, 1 for the skin, 3 for
	// the animation (whose two samplers share their input).
	if len(doc.Accessors) != 12 {
		t.Errorf("%d accessors: identical data was not written once", len(doc.Accessors))
	}
}

func TestPrune(t *testing.T) {
	s := mustRead(t, scenetest.Skinned())
	want := s.Stats()
	s.Materials = append(s.Materials, &gltf.Material{Name: "Unused", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorTexture: &gltf.TextureInfo{Index: 1}}})
	s.Textures = append(s.Textures, &gltf.Texture{Sampler: gltf.Index(1), Source: gltf.Index(1)})
	s.Samplers = append(s.Samplers, &gltf.Sampler{WrapS: gltf.WrapClampToEdge})
	s.Images = append(s.Images, &Image{MimeType: "image/png", Data: scenetestPNG()})
	s.Meshes = append(s.Meshes, &Mesh{Name: "Orphan", Primitives: []*Primitive{{Positions: [][3]float32{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}}}})
	// Under the Armature: an empty unnamed node with an empty unnamed
	// child (both go), and a named empty node (an attachment point: stays).
	s.Nodes = append(s.Nodes, &gltf.Node{Children: []int{5}}, &gltf.Node{}, &gltf.Node{Name: "HandSocket"})
	s.Nodes[0].Children = append(s.Nodes[0].Children, 4, 6)

	s.Prune()
	if got := s.Stats(); got != want {
		t.Errorf("after Prune:\n got  %+v\n want %+v", got, want)
	}
	var names []string
	for _, n := range s.Nodes {
		names = append(names, n.Name)
	}
	if !slices.Equal(names, []string{"Armature", "Hips", "Spine", "Body", "HandSocket"}) {
		t.Errorf("nodes after Prune: %q", names)
	}
	if !slices.Equal(s.Nodes[0].Children, []int{1, 3, 4}) || len(s.Samplers) != 1 || len(s.Images) != 1 {
		t.Errorf("children %v, %d samplers, %d images", s.Nodes[0].Children, len(s.Samplers), len(s.Images))
	}
	mustWriteValid(t, s)
}

// TestPassesOnSharedModels runs every clean-up pass over the real models:
// the output must stay valid and draw the same things.
func TestPassesOnSharedModels(t *testing.T) {
	names := sharedModels()
	if len(names) == 0 {
		t.Skip("no shared test models")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			s := mustRead(t, sharedModel(t, name))
			before := s.Stats()
			if err := s.Weld(); err != nil {
				t.Fatal(err)
			}
			s.Dedup()
			s.Prune()
			after := s.Stats()
			if after.Vertices > before.Vertices {
				t.Errorf("weld added vertices: %d → %d", before.Vertices, after.Vertices)
			}
			before.Vertices, after.Vertices = 0, 0
			before.Images, after.Images = 0, 0
			before.Textures, after.Textures = 0, 0
			before.Materials, after.Materials = 0, 0
			if after != before {
				t.Errorf("passes changed what is drawn:\n before %+v\n after  %+v", before, after)
			}
			out := mustWriteValid(t, s)
			t.Logf("%s: %+v, %d bytes", name, s.Stats(), len(out))
		})
	}
}

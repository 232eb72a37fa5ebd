package quantize

import (
	"math"
	"strconv"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/ext/texturetransform"

	"github.com/kilnhq/kiln/assets/scene"
)

// Material extensions that hold no texture: a material with any other
// extension may sample a texture this pass cannot see, so its
// coordinates are left as they are.
var textureless = map[string]bool{
	"KHR_materials_emissive_strength": true,
	"KHR_materials_ior":               true,
	"KHR_materials_unlit":             true,
}

// slot is one texture reference of a material: its coordinate set and
// its extensions, where KHR_texture_transform lives.
type slot struct {
	texCoord *int
	ext      *gltf.Extensions
}

func slots(m *gltf.Material) ([]slot, bool) {
	for name := range m.Extensions {
		if !textureless[name] {
			return nil, false
		}
	}
	var out []slot
	if p := m.PBRMetallicRoughness; p != nil {
		if t := p.BaseColorTexture; t != nil {
			out = append(out, slot{&t.TexCoord, &t.Extensions})
		}
		if t := p.MetallicRoughnessTexture; t != nil {
			out = append(out, slot{&t.TexCoord, &t.Extensions})
		}
	}
	if t := m.NormalTexture; t != nil {
		out = append(out, slot{&t.TexCoord, &t.Extensions})
	}
	if t := m.OcclusionTexture; t != nil {
		out = append(out, slot{&t.TexCoord, &t.Extensions})
	}
	if t := m.EmissiveTexture; t != nil {
		out = append(out, slot{&t.TexCoord, &t.Extensions})
	}
	return out, true
}

func transformOf(s slot) *texturetransform.TextureTranform {
	t, _ := (*s.ext)[texturetransform.ExtensionName].(*texturetransform.TextureTranform)
	return t
}

// set is the coordinate set a slot samples: the transform's texCoord
// overrides the texture info's.
func (s slot) set() int {
	if t := transformOf(s); t != nil && t.TexCoord != nil {
		return *t.TexCoord
	}
	return *s.texCoord
}

// texcoordsByMaterial puts each coordinate set that a material's
// textures sample on an integer grid over the range the material's
// primitives use (12 bits over [0,1], a bit more per doubling of a wider
// range), as gltfpack does, and folds offset and step into the
// material's KHR_texture_transform. It returns the sets it quantized, per
// primitive; the others are left to the [0,1] path of primitive.
func texcoordsByMaterial(s *scene.Scene, bits int) map[*scene.Primitive]map[int]bool {
	done := map[*scene.Primitive]map[int]bool{}
	users := map[int][]*scene.Primitive{}
	for _, m := range s.Meshes {
		for _, p := range m.Primitives {
			if _, ok := p.Extensions["KHR_materials_variants"]; ok {
				// Another material may draw these coordinates: leave
				// every set alone rather than guess.
				return done
			}
			if p.Material != nil {
				users[*p.Material] = append(users[*p.Material], p)
			}
		}
	}
	for mi, prims := range users {
		if mi < 0 || mi >= len(s.Materials) || s.Materials[mi] == nil {
			continue
		}
		sl, ok := slots(s.Materials[mi])
		if !ok {
			continue
		}
		bySet := map[int][]slot{}
		for _, x := range sl {
			if t := transformOf(x); t != nil && t.Rotation != 0 {
				bySet = nil // composing with a rotation is not worth it
				break
			}
			bySet[x.set()] = append(bySet[x.set()], x)
		}
		for set, refs := range bySet {
			lo, hi, any := uvRange(prims, set)
			if !any {
				continue
			}
			b := bits + int(math.Ceil(math.Log2(math.Max(1, math.Max(hi[0]-lo[0], hi[1]-lo[1])))))
			steps := float64(int(1)<<min(b, 16) - 1)
			var step [2]float64
			for k := 0; k < 2; k++ {
				step[k] = (hi[k] - lo[k]) / steps
				if step[k] == 0 {
					step[k] = 1
				}
			}
			for _, p := range prims {
				if set >= len(p.TexCoords) || p.TexCoords[set] == nil {
					continue
				}
				q := make([][2]float32, len(p.TexCoords[set]))
				for i, uv := range p.TexCoords[set] {
					for k := 0; k < 2; k++ {
						q[i][k] = float32(math.Round((float64(uv[k]) - lo[k]) / step[k]))
					}
				}
				p.TexCoords = append([][][2]float32(nil), p.TexCoords...)
				p.TexCoords[set] = q
				if done[p] == nil {
					done[p] = map[int]bool{}
				}
				done[p][set] = true
			}
			for _, x := range refs {
				compose(x, lo, step)
			}
		}
	}
	return done
}

func uvRange(prims []*scene.Primitive, set int) (lo, hi [2]float64, any bool) {
	lo = [2]float64{math.Inf(1), math.Inf(1)}
	hi = [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, p := range prims {
		if set >= len(p.TexCoords) {
			continue
		}
		for _, uv := range p.TexCoords[set] {
			any = true
			for k := 0; k < 2; k++ {
				lo[k] = math.Min(lo[k], float64(uv[k]))
				hi[k] = math.Max(hi[k], float64(uv[k]))
			}
		}
	}
	return lo, hi, any
}

// compose makes a slot's transform T(o)·S(s)·T(lo)·S(step), the old one
// (without rotation) applied after the grid's.
func compose(x slot, lo, step [2]float64) {
	t := transformOf(x)
	if t == nil {
		t = &texturetransform.TextureTranform{Scale: [2]float64{1, 1}}
		if *x.ext == nil {
			*x.ext = gltf.Extensions{}
		}
		(*x.ext)[texturetransform.ExtensionName] = t
	}
	for k := 0; k < 2; k++ {
		t.Offset[k] = float32Short(t.Offset[k] + t.Scale[k]*lo[k])
		t.Scale[k] = float32Short(t.Scale[k] * step[k])
	}
}

// float32Short rounds x to the float32 a loader keeps of it, which JSON
// then spells in at most 9 digits instead of 17.
func float32Short(x float64) float64 {
	v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', -1, 32), 64)
	if err != nil {
		return x
	}
	return v
}

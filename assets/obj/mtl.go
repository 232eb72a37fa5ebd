package obj

import (
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/imagetype"
	"github.com/kilnhq/kiln/assets/scene"
)

// library holds the glTF materials made from the MTL files, and the
// textures and images they use, each image loaded once.
type library struct {
	materials []*gltf.Material
	byName    map[string]int
	textures  []*gltf.Texture
	images    []*scene.Image
	byFile    map[string]int // texture index of an image file
	// byData is the texture of bytes already loaded under another name
	// ("a.png", "./a.png", "C:\\maps\\a.png"): files hands the same
	// slice for one file, and each spelling would otherwise keep and
	// decode a copy.
	byData map[*byte]int
}

// index returns the material named name, creating a plain one for a name
// that no MTL defines (the OBJ still asks for distinct parts).
func (l *library) index(name string) int {
	if i, ok := l.byName[name]; ok {
		return i
	}
	l.materials = append(l.materials, newMaterial(name))
	l.byName[name] = len(l.materials) - 1
	return len(l.materials) - 1
}

// newMaterial is MTL's default: a non-metallic white. glTF's default
// metallic factor is 1, which would render every OBJ as metal.
func newMaterial(name string) *gltf.Material {
	return &gltf.Material{
		Name: name,
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
			BaseColorFactor: &[4]float64{1, 1, 1, 1},
			MetallicFactor:  gltf.Float(0),
			RoughnessFactor: gltf.Float(1),
		},
	}
}

func (p *parser) fetch(name, what string) ([]byte, error) {
	if p.files == nil {
		return nil, invalid("%s %q was not uploaded with the model", what, name)
	}
	clean := path.Clean(strings.ReplaceAll(name, "\\", "/"))
	// Exporters write absolute paths of the author's machine and folders
	// that uploads flatten: fall back to the file's base name.
	tries := []string{clean, path.Base(clean)}
	if path.IsAbs(clean) || strings.HasPrefix(clean, "../") || (len(clean) > 1 && clean[1] == ':') {
		tries = tries[1:]
	}
	var lastErr error
	for _, n := range tries {
		data, err := p.files(n)
		if err == nil {
			return data, nil
		}
		lastErr = err
	}
	return nil, invalid("%s %q was not uploaded with the model (%v)", what, name, lastErr)
}

func (p *parser) materials() (*library, error) {
	l := &library{byName: map[string]int{}, byFile: map[string]int{}, byData: map[*byte]int{}}
	// A library named again, under any spelling, is parsed once: an OBJ
	// of a million mtllib lines would otherwise parse it a million times.
	parsed := map[*byte]bool{}
	for _, lib := range p.libs {
		data, err := p.fetch(lib, "the material library")
		if err != nil {
			return nil, err
		}
		if len(data) == 0 || parsed[&data[0]] {
			continue
		}
		parsed[&data[0]] = true
		if err := p.parseMTL(l, lib, data); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// roughness approximates the GGX roughness of a Blinn-Phong exponent Ns:
// the exponent and Beckmann's alpha relate by alpha² = 2/(Ns+2), and
// glTF's alpha is roughness² (spec appendix B).
func roughness(ns float64) float64 {
	return math.Pow(2/(math.Max(ns, 0)+2), 0.25)
}

func (p *parser) parseMTL(l *library, lib string, data []byte) error {
	var m *gltf.Material
	hasPBR := false
	return lines(data, func(n int, line string) error {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			return nil
		}
		args := fields[1:]
		if fields[0] == "newmtl" {
			name := strings.Join(args, " ")
			m = newMaterial(name)
			hasPBR = false
			if i, ok := l.byName[name]; ok {
				l.materials[i] = m
			} else {
				l.materials = append(l.materials, m)
				l.byName[name] = len(l.materials) - 1
			}
			return nil
		}
		if m == nil {
			return nil
		}
		num := func(k int) ([]float64, error) {
			if len(args) < k {
				return nil, invalid("%s line %d: expected %d numbers, found %d", lib, n, k, len(args))
			}
			out := make([]float64, k)
			for i := range out {
				v, err := strconv.ParseFloat(args[i], 64)
				if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, invalid("%s line %d: %q is not a finite number", lib, n, args[i])
				}
				out[i] = v
			}
			return out, nil
		}
		pbr := m.PBRMetallicRoughness
		switch strings.ToLower(fields[0]) {
		case "kd":
			v, err := num(3)
			if err != nil {
				return err
			}
			pbr.BaseColorFactor[0], pbr.BaseColorFactor[1], pbr.BaseColorFactor[2] = clamp01(v[0]), clamp01(v[1]), clamp01(v[2])
		case "d", "tr":
			if len(args) > 0 && args[0] == "-halo" {
				args = args[1:]
			}
			v, err := num(1)
			if err != nil {
				return err
			}
			a := clamp01(v[0])
			if strings.EqualFold(fields[0], "tr") {
				a = 1 - a
			}
			pbr.BaseColorFactor[3] = a
			m.AlphaMode = gltf.AlphaOpaque
			if a < 1 {
				m.AlphaMode = gltf.AlphaBlend
			}
		case "ns":
			v, err := num(1)
			if err != nil {
				return err
			}
			if !hasPBR {
				pbr.RoughnessFactor = gltf.Float(roughness(v[0]))
			}
		case "pr":
			v, err := num(1)
			if err != nil {
				return err
			}
			hasPBR = true
			pbr.RoughnessFactor = gltf.Float(clamp01(v[0]))
		case "pm":
			v, err := num(1)
			if err != nil {
				return err
			}
			pbr.MetallicFactor = gltf.Float(clamp01(v[0]))
		case "ke":
			v, err := num(3)
			if err != nil {
				return err
			}
			m.EmissiveFactor = [3]float64{clamp01(v[0]), clamp01(v[1]), clamp01(v[2])}
		case "map_kd":
			t, _, err := p.texture(l, args)
			if err != nil {
				return err
			}
			pbr.BaseColorTexture = &gltf.TextureInfo{Index: t}
		case "map_ke":
			t, _, err := p.texture(l, args)
			if err != nil {
				return err
			}
			m.EmissiveTexture = &gltf.TextureInfo{Index: t}
			if m.EmissiveFactor == [3]float64{} {
				m.EmissiveFactor = [3]float64{1, 1, 1}
			}
		case "map_bump", "bump", "norm", "map_kn":
			t, scale, err := p.texture(l, args)
			if err != nil {
				return err
			}
			m.NormalTexture = &gltf.NormalTexture{Index: gltf.Index(t), Scale: gltf.Float(scale)}
		}
		// Ka, Ks, illum and the rest have no glTF counterpart.
		return nil
	})
}

func clamp01(v float64) float64 { return math.Min(math.Max(v, 0), 1) }

// textureOptions lists MTL texture options and their argument counts
// (-o, -s and -t take one to three numbers).
var textureOptions = map[string]int{
	"-blendu": 1, "-blendv": 1, "-boost": 1, "-mm": 2, "-o": 3, "-s": 3, "-t": 3,
	"-texres": 1, "-clamp": 1, "-bm": 1, "-imfchan": 1, "-type": 1, "-cc": 1,
}

// texture parses "map_Kd [options] file" and returns the texture for the
// file and the bump multiplier (-bm).
func (p *parser) texture(l *library, args []string) (int, float64, error) {
	scale := 1.0
	for len(args) > 1 {
		k, ok := textureOptions[strings.ToLower(args[0])]
		if !ok {
			break
		}
		opt := strings.ToLower(args[0])
		args = args[1:]
		for i := 0; i < k && len(args) > 1; i++ {
			v, err := strconv.ParseFloat(args[0], 64)
			if err != nil && i > 0 {
				break // -o, -s, -t with fewer than 3 numbers
			}
			if opt == "-bm" && err == nil {
				scale = v
			}
			args = args[1:]
		}
	}
	name := strings.Join(args, " ")
	if name == "" {
		return 0, 0, invalid("a texture statement in the material library names no file")
	}
	if t, ok := l.byFile[name]; ok {
		return t, scale, nil
	}
	data, err := p.fetch(name, "the texture")
	if err != nil {
		return 0, 0, err
	}
	if len(data) == 0 {
		return 0, 0, invalid("the texture %q is empty", name)
	}
	if t, ok := l.byData[&data[0]]; ok {
		l.byFile[name] = t
		return t, scale, nil
	}
	img := &scene.Image{Name: path.Base(strings.ReplaceAll(name, "\\", "/")), Data: data}
	tex := &gltf.Texture{}
	switch img.MimeType = imagetype.Sniff(data); img.MimeType {
	case imagetype.PNG, imagetype.JPEG, imagetype.WebP:
	default:
		return 0, 0, invalid("the texture %q is neither PNG, JPEG nor WebP, the formats glTF carries; convert it first", name)
	}
	l.images = append(l.images, img)
	if img.MimeType == "image/webp" {
		tex.Extensions = gltf.Extensions{"EXT_texture_webp": map[string]any{"source": len(l.images) - 1}}
	} else {
		tex.Source = gltf.Index(len(l.images) - 1)
	}
	l.textures = append(l.textures, tex)
	l.byFile[name] = len(l.textures) - 1
	l.byData[&data[0]] = len(l.textures) - 1
	return len(l.textures) - 1, scale, nil
}

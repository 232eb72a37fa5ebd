package vrm

import (
	"fmt"
	"strings"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
)

// Toon settings shared by both versions: a shade a third darker than
// the lit colour, a sharp terminator (toony 0.9, VRM's default), and a
// thin dark outline (3 mm in world units) on the body, clothes and head
// only: on the eyes, lashes, brows, teeth and cut-out hair it would draw
// black rims.
const (
	shadeScale   = 0.65
	toony        = 0.9
	shadeShift   = -0.05
	outlineWidth = 0.003
)

// outlined reports whether a material gets an outline.
func outlined(mat *gltf.Material) bool {
	if mat.AlphaMode != gltf.AlphaOpaque {
		return false
	}
	for _, w := range []string{"Eye", "Teeth", "Brow", "Lash", "Hair"} {
		if strings.Contains(mat.Name, w) {
			return false
		}
	}
	return true
}

// baseColor is the material's base colour factor.
func baseColor(mat *gltf.Material) [4]float64 {
	if mat.PBRMetallicRoughness == nil || mat.PBRMetallicRoughness.BaseColorFactor == nil {
		return [4]float64{1, 1, 1, 1}
	}
	return *mat.PBRMetallicRoughness.BaseColorFactor
}

// baseTexture is the material's base colour texture, or nil.
func baseTexture(mat *gltf.Material) *gltf.TextureInfo {
	if mat.PBRMetallicRoughness == nil {
		return nil
	}
	return mat.PBRMetallicRoughness.BaseColorTexture
}

// mtoon1 gives every material VRMC_materials_mtoon; the glTF material
// stays as it is, which is what apps without MToon draw.
func mtoon1(s *scene.Scene) {
	for _, mat := range s.Materials {
		c := baseColor(mat)
		ext := map[string]any{
			"specVersion":        "1.0",
			"shadeColorFactor":   []float64{round(c[0] * shadeScale), round(c[1] * shadeScale), round(c[2] * shadeScale)},
			"shadingShiftFactor": shadeShift,
			"shadingToonyFactor": toony,
		}
		if t := baseTexture(mat); t != nil {
			info := map[string]any{"index": t.Index}
			if t.TexCoord != 0 {
				info["texCoord"] = t.TexCoord
			}
			if len(t.Extensions) > 0 {
				info["extensions"] = t.Extensions
			}
			ext["shadeMultiplyTexture"] = info
		}
		if outlined(mat) {
			ext["outlineWidthMode"] = "worldCoordinates"
			ext["outlineWidthFactor"] = outlineWidth
			ext["outlineColorFactor"] = []float64{0.1, 0.08, 0.08}
			ext["outlineLightingMixFactor"] = 1.0
		}
		if mat.Extensions == nil {
			mat.Extensions = gltf.Extensions{}
		}
		mat.Extensions[extMToon] = ext
	}
}

// materialProperties0 are VRM 0.x's materialProperties, one per
// material: MToon's Unity properties when toon, else the marker that
// tells 0.x apps to draw the glTF material.
func materialProperties0(s *scene.Scene, toon bool) []any {
	out := []any{}
	for i, mat := range s.Materials {
		name := mat.Name
		if name == "" {
			name = fmt.Sprintf("material%d", i)
		}
		queue, blend, renderType := 2000, 0, "Opaque"
		switch mat.AlphaMode {
		case gltf.AlphaMask:
			queue, blend, renderType = 2450, 1, "TransparentCutout"
		case gltf.AlphaBlend:
			queue, blend, renderType = 3000, 2, "Transparent"
		}
		if !toon {
			out = append(out, map[string]any{
				"name": name, "shader": "VRM_USE_GLTFSHADER", "renderQueue": queue,
				"floatProperties": map[string]any{}, "vectorProperties": map[string]any{},
				"textureProperties": map[string]any{}, "keywordMap": map[string]any{}, "tagMap": map[string]any{},
			})
			continue
		}
		c := baseColor(mat)
		width, widthMode := 0.0, 0
		if outlined(mat) {
			width, widthMode = outlineWidth*100, 1 // 0.x's world width is in centimetres
		}
		srcBlend, dstBlend, zWrite := 1, 0, 1
		if blend == 2 {
			srcBlend, dstBlend, zWrite = 5, 10, 0
		}
		cull := 2
		if mat.DoubleSided {
			cull = 0
		}
		textures := map[string]any{}
		if t := baseTexture(mat); t != nil {
			textures["_MainTex"], textures["_ShadeTexture"] = t.Index, t.Index
		}
		if mat.NormalTexture != nil && mat.NormalTexture.Index != nil {
			textures["_BumpMap"] = *mat.NormalTexture.Index
		}
		keywords := map[string]any{}
		if blend == 1 {
			keywords["_ALPHATEST_ON"] = true
		}
		if blend == 2 {
			keywords["_ALPHABLEND_ON"] = true
		}
		if widthMode == 1 {
			keywords["MTOON_OUTLINE_WIDTH_WORLD"] = true
			keywords["MTOON_OUTLINE_COLOR_MIXED"] = true
		}
		out = append(out, map[string]any{
			"name": name, "shader": "VRM/MToon", "renderQueue": queue,
			"floatProperties": map[string]any{
				"_Cutoff": mat.AlphaCutoffOrDefault(), "_BumpScale": 1, "_ShadeShift": shadeShift, "_ShadeToony": toony,
				"_ReceiveShadowRate": 1, "_ShadingGradeRate": 1, "_LightColorAttenuation": 0, "_IndirectLightIntensity": 0.1,
				"_RimLightingMix": 0, "_RimFresnelPower": 1, "_RimLift": 0,
				"_OutlineWidth": width, "_OutlineScaledMaxDistance": 1, "_OutlineLightingMix": 1,
				"_DebugMode": 0, "_BlendMode": blend, "_OutlineWidthMode": widthMode, "_OutlineColorMode": 1,
				"_CullMode": cull, "_OutlineCullMode": 1, "_SrcBlend": srcBlend, "_DstBlend": dstBlend, "_ZWrite": zWrite,
			},
			"vectorProperties": map[string]any{
				"_Color":        []float64{c[0], c[1], c[2], c[3]},
				"_ShadeColor":   []float64{round(c[0] * shadeScale), round(c[1] * shadeScale), round(c[2] * shadeScale), 1},
				"_OutlineColor": []float64{0.1, 0.08, 0.08, 1},
				"_MainTex":      []float64{0, 0, 1, 1},
				"_ShadeTexture": []float64{0, 0, 1, 1},
			},
			"textureProperties": textures, "keywordMap": keywords, "tagMap": map[string]any{"RenderType": renderType},
		})
	}
	return out
}

// Package trim leaves out the parts of a model that a download asked to
// be without: texture channels (textureChannels) and separate hand
// meshes (useHands=0). Both only cut references; scene.Prune then drops
// the textures, images and meshes nothing uses any more.
package trim

import (
	"slices"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
)

// HandMeshes are the names of the hand meshes the market leader's
// half-body avatars carry apart from the body. Kiln's avatars, and the
// leader's full-body ones, have their hands in Wolf3D_Body, which no
// stage cuts apart.
var HandMeshes = []string{"Wolf3D_Hands"}

// Channels removes the named material textures (kiln.TextureChannels
// names) from every material and reports how many references went. An
// emissive texture takes its factor with it: without the texture the
// factor alone would light the whole surface. Without its
// metallic-roughness texture a material is a non-metal (metallic factor
// 0) of its roughness factor: the factor alone, 1 by default, would make
// skin and cloth chrome.
func Channels(s *scene.Scene, drop []string) int {
	n := 0
	cut := func(name string, present bool) bool {
		if present && slices.Contains(drop, name) {
			n++
			return true
		}
		return false
	}
	for _, m := range s.Materials {
		if pbr := m.PBRMetallicRoughness; pbr != nil {
			if cut("baseColor", pbr.BaseColorTexture != nil) {
				pbr.BaseColorTexture = nil
			}
			if cut("metallicRoughness", pbr.MetallicRoughnessTexture != nil) {
				pbr.MetallicRoughnessTexture = nil
				pbr.MetallicFactor = gltf.Float(0)
			}
		}
		if cut("normal", m.NormalTexture != nil) {
			m.NormalTexture = nil
		}
		if cut("occlusion", m.OcclusionTexture != nil) {
			m.OcclusionTexture = nil
		}
		if cut("emissive", m.EmissiveTexture != nil) {
			m.EmissiveTexture = nil
			m.EmissiveFactor = [3]float64{}
		}
	}
	return n
}

// Hands detaches the hand meshes (a node or mesh named as in HandMeshes)
// from their nodes and reports how many it detached. The nodes stay: a
// named node may be an attachment point.
func Hands(s *scene.Scene) int {
	n := 0
	for _, node := range s.Nodes {
		if node.Mesh == nil {
			continue
		}
		if slices.Contains(HandMeshes, node.Name) || slices.Contains(HandMeshes, s.Meshes[*node.Mesh].Name) {
			node.Mesh, node.Skin = nil, nil
			n++
		}
	}
	return n
}

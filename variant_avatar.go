package kiln

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/kilnhq/kiln/assets/avatar/face"
)

// ParseAvatarVariant reads an avatar download's query: ParseVariant's
// parameters, then the clips (animations, checked against clips, the
// library's names: assets/animation knows them, and this package cannot
// import it) and the morph targets (morphTargets and morphTargetsGroup,
// checked against assets/avatar/face).
func ParseAvatarVariant(q url.Values, clips []string) (Variant, error) {
	v, _, err := ParseVariant(q)
	if err != nil {
		return v, err
	}
	if v.Animations, err = parseAnimations(q.Get("animations"), clips); err != nil {
		return v, err
	}
	if v.MorphTargets, err = parseMorphTargets(q); err != nil {
		return v, err
	}
	return v, nil
}

// parseAnimations reads the animations parameter of spec 4.1: all, none,
// a group (locomotion, gesture, in singular or plural), or a
// comma-separated list of names and groups. It answers the sorted set of
// clip names; unknown names are a 400 naming each.
func parseAnimations(s string, clips []string) ([]string, error) {
	if s == "" || s == "none" {
		return nil, nil
	}
	var names, unknown []string
	for tok := range strings.SplitSeq(s, ",") {
		tok = strings.TrimSpace(tok)
		switch tok {
		case "":
		case "all":
			names = append(names, clips...)
		case "locomotion", "locomotions", "gesture", "gestures":
			prefix := strings.TrimSuffix(tok, "s") + "_"
			for _, n := range clips {
				if strings.HasPrefix(n, prefix) {
					names = append(names, n)
				}
			}
		default:
			if !slices.Contains(clips, tok) {
				unknown = append(unknown, strconv.Quote(tok))
				continue
			}
			names = append(names, tok)
		}
	}
	if len(unknown) > 0 {
		return nil, Errorf(KindInvalid, "invalid_animations", "animations: unknown %s; use all, none, locomotion, gesture or names from GET /animations", strings.Join(unknown, ", "))
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// parseMorphTargets reads morphTargets as the leader takes it (ARKit,
// Oculus Visemes, Eyes Extra, Default, none, or a comma-separated list of
// those and of shape names) together with the later dialect's
// morphTargetsGroup (group names; none adds nothing): the model keeps
// the union. With neither it is Default (mouthOpen, mouthSmile), as with
// the leader. It answers the sorted set of names; unknown names are a 400
// naming each.
func parseMorphTargets(q url.Values) ([]string, error) {
	if !q.Has("morphTargets") && !q.Has("morphTargetsGroup") {
		return DefaultMorphTargets(), nil
	}
	// Not nil: an empty set (none) keeps no target, where nil keeps all.
	names := []string{}
	for _, p := range []string{"morphTargets", "morphTargetsGroup"} {
		if !q.Has(p) {
			continue
		}
		add, err := face.Names(q.Get(p))
		if err != nil {
			return nil, Errorf(KindInvalid, "invalid_morph_targets", "%s: %v", p, err)
		}
		names = append(names, add...)
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// DefaultMorphTargets is the set an avatar download keeps when it names
// none, as a Variant holds it.
func DefaultMorphTargets() []string {
	return slices.Sorted(slices.Values(face.Default))
}

package avatar

import (
	"encoding/json"
	"slices"
	"sync"
)

// The creator's hair and headwear parts (BuildPart) both start from the
// hair fitted to the body, trimmed at the hairline and thickened
// (thickenHair): two thirds of a hat part's CPU for a bun or long hair.
// That hair depends on the standing body and the hair style alone, not on
// the hat, the hoodie or the colours, and the page asks for several parts
// on the same body at once (the Headwear tab's parts ahead, the pick's
// own): partHairs keeps the last few, so the second hat on a body presses
// a copy of the first's hair instead of thickening it again. The parts'
// bytes are the same either way: the copy is deep, and the steps after it
// (pressHair, liftHair, hairMesh) change only the copy.

// partHairCount is how many thickened hairs partHairs keeps (about a
// megabyte each).
const partHairCount = 8

// partHairs is the process's cache of thickened hair, by partHairKey,
// oldest first in order. A hair being made is in it too: a second part
// that asks for it waits for the first instead of making it again.
var partHairs = struct {
	sync.Mutex
	m     map[string]*partHair
	order []string
}{m: map[string]*partHair{}}

type partHair struct {
	done chan struct{}
	p    *part
	err  error
}

// partHairKey names the thickened hair of a style on the body that stand
// (the configuration with the footwear it stands on) shapes: shapeBody
// reads params alone, standingBody the footwear.
func partHairKey(stand Config, style string) (string, error) {
	p, err := json.Marshal(params(stand))
	if err != nil {
		return "", err
	}
	return string(p) + "\x00" + stand.Outfit.Footwear.Style + "\x00" + style, nil
}

// thickHair is a copy of the hair under key, made by build (which must
// read nothing but the body and the style the key names) when it is not
// kept.
func thickHair(key string, build func() (*part, error)) (*part, error) {
	c := &partHairs
	c.Lock()
	e, ok := c.m[key]
	if !ok {
		e = &partHair{done: make(chan struct{})}
		c.m[key] = e
		c.order = append(c.order, key)
		if len(c.order) > partHairCount {
			delete(c.m, c.order[0])
			c.order = c.order[1:]
		}
		c.Unlock()
		func() {
			defer close(e.done)
			e.p, e.err = build()
		}()
		if e.err != nil {
			c.Lock()
			if c.m[key] == e {
				delete(c.m, key)
				c.order = slices.DeleteFunc(c.order, func(k string) bool { return k == key })
			}
			c.Unlock()
		}
	} else {
		c.Unlock()
		<-e.done
	}
	if e.err != nil {
		return nil, e.err
	}
	if e.p == nil {
		// build panicked in another part's request.
		return build()
	}
	return e.p.clone(), nil
}

// clone is a deep copy of p's vertex and triangle data; the fitted
// asset it came from (fit) is shared, read only.
func (p *part) clone() *part {
	q := *p
	q.pos, q.nrm, q.uv, q.inf, q.tris = slices.Clone(p.pos), slices.Clone(p.nrm), slices.Clone(p.uv), slices.Clone(p.inf), slices.Clone(p.tris)
	q.base, q.src, q.mask, q.color, q.piece, q.floor, q.rimFrom = slices.Clone(p.base), slices.Clone(p.src), slices.Clone(p.mask), slices.Clone(p.color), slices.Clone(p.piece), slices.Clone(p.floor), slices.Clone(p.rimFrom)
	return &q
}

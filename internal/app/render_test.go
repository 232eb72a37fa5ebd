package app

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"net/http"
	"testing"
)

// TestRenderParams checks that every bad render parameter, on the
// leader's root URL and on /preview, is a 400 naming it, before anything
// renders.
func TestRenderParams(t *testing.T) {
	r := start(t)
	tests := []struct {
		path string
		code string
	}{
		{"/default-male.png?size=0", "invalid_size"},
		{"/default-male.png?size=1025", "invalid_size"},
		{"/default-male.png?size=big", "invalid_size"},
		{"/default-male.png?camera=full", "invalid_camera"},
		{"/default-male.png?camera=side", "invalid_camera"},
		{"/default-male.jpg?quality=0", "invalid_quality"},
		{"/default-male.jpg?quality=101", "invalid_quality"},
		{"/default-male.png?background=1,2", "invalid_background"},
		{"/default-male.png?background=0,0,256", "invalid_background"},
		{"/default-male.png?expression=angry", "invalid_expression"},
		{"/default-male.png?expression=", "invalid_expression"},
		{"/default-male.png?pose=A", "invalid_pose"},
		{"/default-male.png?pose=sitting", "invalid_pose"},
		{"/default-male.png?blendShapes[noSuchShape]=0.5", "invalid_blend_shapes"},
		{"/default-male.png?blendShapes[Wolf3D_Head][noSuchShape]=0.5", "invalid_blend_shapes"},
		{"/default-male.png?blendShapes[jawOpen]=2", "invalid_blend_shapes"},
		{"/default-male.png?blendShapes[jawOpen]=-0.1", "invalid_blend_shapes"},
		{"/default-male.png?blendShapes[jawOpen]=open", "invalid_blend_shapes"},
		{"/default-male.png?blendShapes[a][b][jawOpen]=1", "invalid_blend_shapes"},
		{"/default-male.png?blendShapes[]=1", "invalid_blend_shapes"},
		{"/av_nosuchavatar.png", "avatar_not_found"},
		{"/preview/default-male.png?size=800", "invalid_size"},
		{"/preview/default-male.png?camera=fullbody", "invalid_camera"},
		{"/preview/default-male.png?expression=angry", "invalid_expression"},
		{"/preview/default-male.png?pose=T", "invalid_pose"},
		{"/preview/default-male.png?blendShapes[jawOpen]=1.5", "invalid_blend_shapes"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res := do(t, "GET", r.AvatarURL+tt.path, "", nil, nil)
			want := http.StatusBadRequest
			if tt.code == "avatar_not_found" {
				want = http.StatusNotFound
			}
			if res.Status != want {
				t.Fatalf("%d %s, want %d", res.Status, res.Body, want)
			}
			if code := res.errorCode(t); code != tt.code {
				t.Fatalf("code %s, want %s", code, tt.code)
			}
		})
	}
	for _, path := range []string{"/default-male.gif", "/default-male"} {
		if res := do(t, "GET", r.AvatarURL+path, "", nil, nil); res.Status != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, res.Status)
		}
	}
}

// TestRenderPictures asks the leader's render API (GET /{id}.png|jpg)
// for pictures of a built-in avatar over HTTP and checks that each
// parameter changes the pixels it should and no others: the size the
// dimensions, the camera the framing, the background the corners, an
// expression or a face shape the face and not the shoulders, a pose the
// arms and not the feet, the thumbs-up the right arm and not the left,
// quality the JPEG's bytes. Every picture is cached: the second request
// gives the same bytes and ETag.
func TestRenderPictures(t *testing.T) {
	r := start(t)
	get := func(t *testing.T, path string) (image.Image, []byte) {
		t.Helper()
		res := do(t, "GET", r.AvatarURL+path, "", nil, nil)
		if res.Status != http.StatusOK || res.Header.Get("ETag") == "" {
			t.Fatalf("%s: %d %.300s", path, res.Status, res.Body)
		}
		again := do(t, "GET", r.AvatarURL+path, "", nil, nil)
		if again.Status != http.StatusOK || again.Header.Get("ETag") != res.Header.Get("ETag") || !bytes.Equal(again.Body, res.Body) {
			t.Fatalf("%s again: %d etag %q, want the cached picture", path, again.Status, again.Header.Get("ETag"))
		}
		var m image.Image
		var err error
		switch res.Header.Get("Content-Type") {
		case "image/png":
			m, err = png.Decode(bytes.NewReader(res.Body))
		case "image/jpeg":
			m, err = jpeg.Decode(bytes.NewReader(res.Body))
		default:
			t.Fatalf("%s: Content-Type %q", path, res.Header.Get("Content-Type"))
		}
		if err != nil {
			t.Fatal(err)
		}
		return m, res.Body
	}

	t.Run("size and default", func(t *testing.T) {
		m, _ := get(t, "/default-male.png?foo=1")
		if b := m.Bounds(); b.Dx() != 800 || b.Dy() != 800 {
			t.Errorf("no size: %v, want 800² (the leader's SDKs' size)", b)
		}
		m, _ = get(t, "/default-male.png?size=300")
		if b := m.Bounds(); b.Dx() != 300 || b.Dy() != 300 {
			t.Errorf("size=300: %v", b)
		}
		if c := rgbaAt(m, 0, 0); c.a != 0 {
			t.Errorf("a PNG without background: corner %+v, want transparent", c)
		}
	})

	t.Run("camera", func(t *testing.T) {
		portrait, _ := get(t, "/default-male.png?size=256&camera=portrait")
		full, _ := get(t, "/default-male.png?size=256&camera=fullbody")
		// A portrait cuts the body at the bottom edge; the whole body
		// stands clear of both edges, taller than it is wide.
		if n := opaqueInRow(portrait, 255); n < 50 {
			t.Errorf("portrait: %d opaque pixels on the bottom row, want the shoulders cut", n)
		}
		box := opaqueBox(full)
		if opaqueInRow(full, 0) != 0 || opaqueInRow(full, 255) != 0 || box.Dy() < 200 || box.Dx() >= box.Dy() {
			t.Errorf("fullbody: figure %v, want the whole standing body", box)
		}
	})

	t.Run("background", func(t *testing.T) {
		m, _ := get(t, "/default-male.png?size=128&background=10,200,30")
		j, _ := get(t, "/default-male.jpg?size=128")
		// The top corners: a portrait cuts the shoulders at the bottom.
		for _, x := range []int{0, 127} {
			if c := rgbaAt(m, x, 0); c != (rgba8{10, 200, 30, 255}) {
				t.Errorf("png corner (%d,0) %+v, want 10,200,30", x, c)
			}
			if c := rgbaAt(j, x, 0); c.r < 250 || c.g < 250 || c.b < 250 {
				t.Errorf("jpg corner (%d,0) %+v, want white", x, c)
			}
		}
	})

	t.Run("quality", func(t *testing.T) {
		_, low := get(t, "/default-male.jpg?size=256&quality=20")
		_, high := get(t, "/default-male.jpg?size=256&quality=95")
		if len(low)*2 > len(high) {
			t.Errorf("quality=20 %d bytes, quality=95 %d: want less than half", len(low), len(high))
		}
		// quality means nothing to a PNG: the same picture, from cache.
		a := do(t, "GET", r.AvatarURL+"/default-male.png?size=300&quality=20", "", nil, nil)
		b := do(t, "GET", r.AvatarURL+"/default-male.png?size=300", "", nil, nil)
		if a.Header.Get("ETag") != b.Header.Get("ETag") {
			t.Errorf("png quality=20: etag %q, want the plain picture's %q", a.Header.Get("ETag"), b.Header.Get("ETag"))
		}
	})

	t.Run("face", func(t *testing.T) {
		const q = "/default-male.png?size=256"
		rest, _ := get(t, q)
		jaw, _ := get(t, q+"&blendShapes[jawOpen]=1")
		mouth := changed(rest, jaw, rest.Bounds())
		shoulders := image.Rect(0, 192, 256, 256)
		if mouth.count < 100 || mouth.box.Max.Y > 192 {
			t.Fatalf("jawOpen=1: %d pixels changed in %v, want the mouth", mouth.count, mouth.box)
		}
		t.Logf("jawOpen changes %d pixels in %v", mouth.count, mouth.box)
		// The same shape on the head alone moves the lips and chin but
		// not the teeth; on a mesh without it, nothing.
		head, _ := get(t, q+"&blendShapes[Wolf3D_Head][jawOpen]=1")
		if d := changed(jaw, head, mouth.box); d.count == 0 {
			t.Errorf("jawOpen on Wolf3D_Head alone draws the same as on every mesh")
		}
		eye, _ := get(t, q+"&blendShapes[EyeLeft][jawOpen]=1")
		if d := changed(rest, eye, rest.Bounds()); d.count != 0 {
			t.Errorf("jawOpen on EyeLeft, which has no jaw: %d pixels changed", d.count)
		}
		for _, e := range []string{"happy", "lol", "sad", "scared", "rage"} {
			m, _ := get(t, q+"&expression="+e)
			all := changed(rest, m, rest.Bounds())
			inMouth := changed(rest, m, mouth.box)
			below := changed(rest, m, shoulders)
			t.Logf("%s: %d pixels changed in %v, %d of them around the mouth", e, all.count, all.box, inMouth.count)
			if inMouth.count < 30 || below.count != 0 {
				t.Errorf("expression=%s: %d pixels changed around the mouth %v, %d on the shoulders; want the mouth to move and the shoulders not", e, inMouth.count, mouth.box, below.count)
			}
		}
		// Happy reads as a smile: the lips part over the teeth, which
		// show as light pixels around the mouth, counted at 512² (the
		// same framing, the mouth's box twice as large). The first
		// recipe kept the lips shut and read as a pout: about as many as
		// the rest face (in a box of the lips alone 1, 0 at rest, 48 for
		// this one; in this box 9 at rest and 57 for this one). Once the
		// rest face closed its lips over the teeth, the recipe needed the
		// lips raised and lowered further (24 here, 0 at rest).
		big := image.Rect(2*mouth.box.Min.X, 2*mouth.box.Min.Y, 2*mouth.box.Max.X, 2*mouth.box.Max.Y)
		rest512, _ := get(t, "/default-male.png?size=512")
		happy512, _ := get(t, "/default-male.png?size=512&expression=happy")
		restTeeth, happyTeeth := teethShown(rest512, big), teethShown(happy512, big)
		t.Logf("happy: %d light pixels around the mouth, %d at rest", happyTeeth, restTeeth)
		if happyTeeth < 20 || happyTeeth < 4*(restTeeth+1) {
			t.Errorf("expression=happy: %d light pixels (teeth) around the mouth, %d at rest: want the lips parted over the teeth", happyTeeth, restTeeth)
		}
		// An explicit shape weighs over the expression's.
		happy, _ := get(t, q+"&expression=happy")
		open, _ := get(t, q+"&expression=happy&blendShapes[jawOpen]=1")
		if d := changed(happy, open, mouth.box); d.count < 50 {
			t.Errorf("happy with jawOpen=1: %d pixels changed around the mouth, want the mouth open", d.count)
		}
	})

	t.Run("pose", func(t *testing.T) {
		// A portrait is framed on the head's joints, which these poses
		// leave in place, so its pixels compare one for one: the arms
		// come down from the A pose to the sides of the picture's lower
		// half.
		const q = "/default-male.png?size=256"
		rest, _ := get(t, q)
		lower := image.Rect(0, 128, 256, 256)
		pics := map[string]image.Image{}
		for _, p := range []string{"standing", "relaxed", "power-stance", "thumbs-up"} {
			m, _ := get(t, q+"&pose="+p)
			pics[p] = m
			d := changed(rest, m, lower)
			t.Logf("%s: %d pixels changed in the lower half, in %v", p, d.count, d.box)
			if d.count < 500 {
				t.Errorf("pose=%s: %d pixels changed in the lower half, want the arms moved", p, d.count)
			}
		}
		// Thumbs-up raises the right hand (on the picture's left) and
		// keeps the left arm where standing has it.
		right := changed(pics["standing"], pics["thumbs-up"], image.Rect(0, 0, 128, 256))
		left := changed(pics["standing"], pics["thumbs-up"], image.Rect(128, 0, 256, 256))
		t.Logf("thumbs-up against standing: %d pixels changed on the right arm's side, %d on the left's", right.count, left.count)
		if right.count < 500 || left.count > right.count/20 {
			t.Errorf("thumbs-up against standing: %d pixels changed on the right arm's side, %d on the left's; want the right only", right.count, left.count)
		}
		// The whole body is framed on its posed box, so the feet are
		// compared by their spread: the power stance stands wide, the
		// others as the model does.
		const full = "/default-male.png?size=256&camera=fullbody"
		stance := feetWidth(get(t, full))
		for _, p := range []string{"standing", "relaxed", "power-stance", "thumbs-up"} {
			w := feetWidth(get(t, full+"&pose="+p))
			t.Logf("%s: feet %.2f of the height apart, %.2f at rest", p, w, stance)
			if wide := w > stance*1.15; wide != (p == "power-stance") {
				t.Errorf("pose=%s: feet %.2f of the height apart, %.2f at rest", p, w, stance)
			}
		}
	})

	t.Run("preview takes the face and the pose", func(t *testing.T) {
		rest, _ := get(t, "/preview/default-male.png?size=256")
		lol, _ := get(t, "/preview/default-male.png?size=256&expression=lol&pose=standing")
		if d := changed(rest, lol, image.Rect(0, 0, 256, 192)); d.count < 100 {
			t.Errorf("/preview with expression=lol: %d pixels changed", d.count)
		}
		// Equal pictures asked either way are one picture.
		a := do(t, "GET", r.AvatarURL+"/preview/default-male.png?size=256&camera=full&pose=relaxed", "", nil, nil)
		b := do(t, "GET", r.AvatarURL+"/default-male.png?size=256&camera=fullbody&pose=relaxed", "", nil, nil)
		if a.Status != http.StatusOK || a.Header.Get("ETag") != b.Header.Get("ETag") {
			t.Errorf("/preview and the root: %d etags %q and %q, want one picture", a.Status, a.Header.Get("ETag"), b.Header.Get("ETag"))
		}
	})
}

// diff is what changed between two pictures in a region: the pixels
// that differ by more than the renderer's noise, and their box.
type diff struct {
	count int
	box   image.Rectangle
}

// changed compares a and b inside area: a pixel counts when a channel
// (alpha included) moves by more than 24 of 255.
// teethShown counts the opaque pixels in area light in every channel
// (170 of 255 or more): on the lit face only the teeth are.
func teethShown(m image.Image, area image.Rectangle) int {
	n := 0
	area = area.Intersect(m.Bounds())
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for x := area.Min.X; x < area.Max.X; x++ {
			if c := rgbaAt(m, x, y); c.a == 255 && min(c.r, c.g, c.b) >= 170 {
				n++
			}
		}
	}
	return n
}

func changed(a, b image.Image, area image.Rectangle) diff {
	var d diff
	area = area.Intersect(a.Bounds())
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for x := area.Min.X; x < area.Max.X; x++ {
			p, q := rgbaAt(a, x, y), rgbaAt(b, x, y)
			if abs(p.r-q.r) > 24 || abs(p.g-q.g) > 24 || abs(p.b-q.b) > 24 || abs(p.a-q.a) > 24 {
				d.count++
				d.box = d.box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return d
}

// opaqueBox is the box of the pixels a figure covers.
func opaqueBox(m image.Image) image.Rectangle {
	var box image.Rectangle
	b := m.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if rgbaAt(m, x, y).a > 128 {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

// feetWidth is the width of the lowest twelfth of the figure (the feet)
// over its height.
func feetWidth(m image.Image, _ []byte) float64 {
	box := opaqueBox(m)
	feet := opaqueBox(cropped{m, image.Rect(box.Min.X, box.Max.Y-box.Dy()/12, box.Max.X, box.Max.Y)})
	return float64(feet.Dx()) / float64(box.Dy())
}

// cropped is m seen through r only.
type cropped struct {
	image.Image
	r image.Rectangle
}

func (c cropped) Bounds() image.Rectangle { return c.r }

// opaqueInRow counts the covered pixels of row y.
func opaqueInRow(m image.Image, y int) int {
	n := 0
	for x := m.Bounds().Min.X; x < m.Bounds().Max.X; x++ {
		if rgbaAt(m, x, y).a > 128 {
			n++
		}
	}
	return n
}

package avatar

import (
	"bytes"
	"sync"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// forgetPartHairs empties the thickened hair kept between parts.
func forgetPartHairs() {
	partHairs.Lock()
	defer partHairs.Unlock()
	partHairs.m, partHairs.order = map[string]*partHair{}, nil
}

// TestPartHairSameBytes: a hat part built from the thickened hair another
// part kept (partHairs), or while another part makes it, has the bytes of
// one that thickened its own; and pressing it under one hat leaves the
// kept hair as it was for the next.
func TestPartHairSameBytes(t *testing.T) {
	glb := func(hat string) []byte {
		t.Helper()
		s, err := BuildPart(partBenchConfig("short", hat), "headwear", "")
		if err != nil {
			t.Fatal(err)
		}
		b, err := scene.Write(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	forgetPartHairs()
	defer forgetPartHairs()
	capAlone := glb("cap")
	forgetPartHairs()
	beanieAlone := glb("beanie")

	forgetPartHairs()
	var wg sync.WaitGroup
	var capTogether, beanieTogether []byte
	wg.Go(func() { capTogether = glb("cap") })
	wg.Go(func() { beanieTogether = glb("beanie") })
	wg.Wait()
	beanieKept := glb("beanie")
	capKept := glb("cap")

	for _, c := range []struct {
		name      string
		got, want []byte
	}{
		{"cap built beside the beanie", capTogether, capAlone},
		{"beanie built beside the cap", beanieTogether, beanieAlone},
		{"beanie from kept hair", beanieKept, beanieAlone},
		{"cap from kept hair", capKept, capAlone},
	} {
		if !bytes.Equal(c.got, c.want) {
			t.Errorf("%s: %d bytes differ from the part that thickened its own hair (%d bytes)", c.name, len(c.got), len(c.want))
		}
	}
	if bytes.Equal(capAlone, beanieAlone) {
		t.Error("the cap's and the beanie's parts are the same bytes: the test compares nothing")
	}
}

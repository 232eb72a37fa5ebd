package hmdata

import (
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"reflect"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	in := &Data{
		Positions: []float32{0, 1, 2, 3, 4, 5},
		Body:      Mesh{Src: []int32{0, 1, 1}, UV: []float32{0, 0, 1, 0, 1, 1}, Tri: []int32{0, 1, 2}, Poly: []int32{0}},
		Targets: []Target{
			// Deltas that wrap int16 when differenced still come back.
			{Name: "a/b-incr", Index: []int32{3, 7, 40000}, D: []int16{32767, -32768, 5, -32768, 32767, -5, 0, 1, -1}},
			{Name: "empty"},
		},
		Joints:      []Joint{{Name: "Hips", Parts: [][]int32{{0, 1}, {1}}}},
		WeightJoint: []uint8{0, 0, 0, 0, 0, 0, 0, 0},
		WeightValue: []uint16{65535, 0, 0, 0, 65535, 0, 0, 0},
		Assets:      []Asset{{ID: "top/x", Ref: []int32{0, 1, 1}, W: []int32{65535, 0, 0}, Off: []int16{1, -2, 3}, Delete: []int32{1}}},
	}
	var buf bytes.Buffer
	if err := Write(&buf, in); err != nil {
		t.Fatal(err)
	}
	out, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want := *in
	want.Version = Version
	want.Targets[1] = Target{Name: "empty", Index: []int32{}, D: []int16{}}
	if len(out.Targets[1].Index) == 0 && len(out.Targets[1].D) == 0 {
		out.Targets[1] = want.Targets[1]
	}
	if !reflect.DeepEqual(out, &want) {
		t.Errorf("round trip changed the data:\n got %+v\nwant %+v", out, &want)
	}
	// The writer left its input as it was.
	if in.Targets[0].Index[2] != 40000 || in.Targets[0].D[1] != -32768 {
		t.Error("Write modified its input")
	}
}

func TestReadRejectsOtherVersions(t *testing.T) {
	if _, err := Read(bytes.NewReader([]byte("not gzip"))); err == nil {
		t.Error("garbage read without error")
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if err := gob.NewEncoder(zw).Encode(&Data{Version: Version + 1}); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	if _, err := Read(&buf); err == nil || !strings.Contains(err.Error(), "version") {
		t.Errorf("a file of another version: %v", err)
	}
}

// Command faceprops prints the lower face's proportions of avatar GLBs,
// Kiln's (go run ./cmd/kiln avatar) and the leader's
// (/work/shared/testdata), side by side, in eye-distances (see package
// assets/avatar/facemeasure for each measure). Issue 22: the judges read
// Kiln's faces as long and flat with a wide, thin mouth beside the
// leader's.
//
//	go run ./bench/avatar-look/faceprops A.glb B.glb ...
//
// Columns: nose (eyes to the nose's underside), lip (nose to the lips'
// parting), chin (parting to the chin's bottom), cheek (widest face
// under the eyes), temple (widest forehead 0.3 to 0.8 over the eyes), mouthLv (face width at the parting), jaw (face width
// 1.4 under the eyes), neck (its width 0.25 under the chin), mouth (painted lips' width), lipH (their height
// in the middle), lipH/mth, corner (the lips' corners behind their front),
// earOut (the ears out from the skull's side), earH (their height), cheekSt (the cheek in
// front of the eyes' fronts). A file that cannot be measured is reported
// and skipped.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kilnhq/kiln/assets/avatar/facemeasure"
	"github.com/kilnhq/kiln/assets/scene"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: faceprops A.glb B.glb ...")
		os.Exit(2)
	}
	fmt.Printf("%-22s %6s %6s %6s %6s %6s %7s %6s %6s %6s %6s %8s %6s %6s %6s %7s\n", "avatar", "nose", "lip", "chin", "cheek", "temple", "mouthLv", "jaw", "neck", "mouth", "lipH", "lipH/mth", "corner", "earOut", "earH", "cheekSt")
	failed := false
	for _, f := range os.Args[1:] {
		p, err := measureFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, f, err)
			failed = true
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".glb")
		fmt.Printf("%-22s %6.3f %6.3f %6.3f %6.3f %6.3f %7.3f %6.3f %6.3f %6.3f %6.3f %8.3f %6.3f %6.3f %6.3f %7.3f\n", name,
			p.Nose, p.Lip, p.Chin, p.Cheek, p.Temple, p.MouthLevel, p.Jaw, p.Neck, p.Mouth, p.LipHeight, p.LipHeight/p.Mouth, p.MouthCorner, p.EarOut, p.EarHeight, p.CheekStand)
	}
	if failed {
		os.Exit(1)
	}
}

func measureFile(name string) (facemeasure.Props, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return facemeasure.Props{}, err
	}
	s, err := scene.Read(data, scene.ReadOptions{})
	if err != nil {
		return facemeasure.Props{}, err
	}
	return facemeasure.Measure(s)
}

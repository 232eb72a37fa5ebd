package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kilnhq/kiln/assets/avatar/human/hmdata"
)

// localFolders are the folders of local targets Kiln keeps: the face
// features that make faces differ and the body's build by region.
var localFolders = []string{
	"head", "nose", "mouth", "eyes", "ears", "chin", "cheek", "forehead",
	"eyebrows", "neck", "torso", "armslegs",
}

// keepMacro says whether a macrodetails target is kept: adults only
// (MakeHuman's "young", 25 years, and "old", 90), so babies and children
// are dropped; of the height and proportions variants only those of
// average muscle and weight, which keeps the file a few MB (the height
// and proportion changes then do not depend on the build, a difference
// of a few millimetres).
func keepMacro(name string) bool {
	if !strings.Contains(name, "-young") && !strings.Contains(name, "-old") {
		return false
	}
	variant := strings.HasSuffix(name, "height.target") || strings.HasSuffix(name, "proportions.target")
	return !variant || strings.Contains(name, "-averagemuscle-averageweight-")
}

// readTargets reads the kept targets, named by their path under
// data/targets without the extension, in a stable order.
func readTargets(dir string) ([]hmdata.Target, error) {
	var names []string
	err := filepath.WalkDir(filepath.Join(dir, "macrodetails"), func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".target") {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if keepMacro(filepath.Base(rel)) {
			names = append(names, strings.TrimSuffix(filepath.ToSlash(rel), ".target"))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, f := range localFolders {
		files, err := filepath.Glob(filepath.Join(dir, f, "*.target"))
		if err != nil {
			return nil, err
		}
		for _, p := range files {
			names = append(names, f+"/"+strings.TrimSuffix(filepath.Base(p), ".target"))
		}
	}
	sort.Strings(names)
	var out []hmdata.Target
	for _, n := range names {
		t, err := readTarget(filepath.Join(dir, filepath.FromSlash(n)+".target"), n)
		if err != nil {
			return nil, err
		}
		if len(t.Index) > 0 {
			out = append(out, t)
		}
	}
	return out, nil
}

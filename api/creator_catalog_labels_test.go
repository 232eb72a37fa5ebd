package api

import (
	"testing"

	"github.com/kilnhq/kiln/assets/avatar"
)

// TestEveryStyleHasALabel: a style added to the generator without an
// English name would show an empty caption in the creator's catalogue.
func TestEveryStyleHasALabel(t *testing.T) {
	for _, cat := range avatar.StyleCategories {
		for _, id := range avatar.Styles(cat) {
			if styleLabels[id] == "" {
				t.Errorf("catalogue category %s: style %q has no label in styleLabels", cat, id)
			}
		}
	}
}

package creator

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// words reads one language's file.
func words(t *testing.T, lang string) map[string]string {
	t.Helper()
	b, err := fs.ReadFile(Static, "i18n/"+lang+".json")
	if err != nil {
		t.Fatalf("%s: %v", lang, err)
	}
	var w map[string]string
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatalf("%s.json: %v", lang, err)
	}
	return w
}

// Every language has a file with every key English has and no other,
// none of them empty; there is no file for a language the creator does
// not list.
func TestEveryLanguageHasEveryKey(t *testing.T) {
	en := words(t, "en")
	for _, lang := range Languages {
		w := words(t, lang)
		for k := range en {
			if strings.TrimSpace(w[k]) == "" {
				t.Errorf("%s.json lacks %q", lang, k)
			}
		}
		for k := range w {
			if _, ok := en[k]; !ok {
				t.Errorf("%s.json has %q, which en.json lacks", lang, k)
			}
		}
	}
	files, _ := fs.Glob(Static, "i18n/*.json")
	for _, f := range files {
		if lang := strings.TrimSuffix(strings.TrimPrefix(f, "i18n/"), ".json"); !slices.Contains(Languages, lang) {
			t.Errorf("%s is not one of Languages %v", f, Languages)
		}
	}
}

// The page picks among the languages Go lists, and every key it names
// literally (t('key') in the scripts, data-t and data-t-label in the
// page) is in English.
func TestPageKeysAreTranslated(t *testing.T) {
	js, err := fs.ReadFile(Static, "i18n.js")
	if err != nil {
		t.Fatal(err)
	}
	quoted := make([]string, len(Languages))
	for i, l := range Languages {
		quoted[i] = "'" + l + "'"
	}
	if want := "LANGUAGES = [" + strings.Join(quoted, ", ") + "]"; !strings.Contains(string(js), want) {
		t.Errorf("i18n.js does not say %s", want)
	}
	en := words(t, "en")
	src := string(Index)
	scripts, _ := fs.Glob(Static, "*.js")
	for _, f := range scripts {
		b, _ := fs.ReadFile(Static, f)
		src += string(b)
	}
	keys := regexp.MustCompile(`\bt\('([\w.]+)'\)|data-t(?:-label)?="([\w.]+)"`).FindAllStringSubmatch(src, -1)
	if len(keys) < 20 {
		t.Fatalf("found %d keys in the page; the pattern has gone stale", len(keys))
	}
	for _, m := range keys {
		k := m[1] + m[2]
		if _, ok := en[k]; !ok {
			t.Errorf("the page says %q, which en.json lacks", k)
		}
	}
}

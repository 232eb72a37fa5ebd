package kiln_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// readmeLink matches a Markdown inline link target: [text](target).
var readmeLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestReadmeLinks keeps the README usable from a fresh clone: every
// relative link names a file or folder of the repository and every
// #anchor names a heading of the file it points into, and no link leaves
// the repository for the project's shared notes, which a clone has not.
func TestReadmeLinks(t *testing.T) {
	targets, err := markdownLinks("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(targets) == 0 {
		t.Fatal("README.md has no links: the parser is broken")
	}
	anchors := map[string]map[string]bool{}
	for _, target := range targets {
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue // an absolute URL: not the clone's to resolve
		}
		path, anchor, _ := strings.Cut(target, "#")
		if path == "" {
			path = "README.md"
		}
		if strings.HasPrefix(filepath.Clean(path), "..") {
			t.Errorf("link %q leaves the repository", target)
			continue
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("link %q: %v", target, err)
			continue
		}
		if anchor == "" {
			continue
		}
		if anchors[path] == nil {
			if anchors[path], err = markdownAnchors(path); err != nil {
				t.Fatal(err)
			}
		}
		if !anchors[path][anchor] {
			t.Errorf("link %q: %s has no heading with that anchor", target, path)
		}
	}
}

// TestMarkdownAnchors pins the anchor rules GitHub applies, which the
// link test relies on.
func TestMarkdownAnchors(t *testing.T) {
	for _, tc := range []struct{ heading, want string }{
		{"Quickstart", "quickstart"},
		{"The leader's parameters", "the-leaders-parameters"},
		{"Hostile files, budgets and nothing stuck", "hostile-files-budgets-and-nothing-stuck"},
		{"Objects: sprites, likes, catalog, details, mail", "objects-sprites-likes-catalog-details-mail"},
		{"Moving from Ready Player Me", "moving-from-ready-player-me"},
		{"`kiln serve` and KILN_DATA_DIR", "kiln-serve-and-kiln_data_dir"},
	} {
		if got := anchorOf(tc.heading); got != tc.want {
			t.Errorf("anchorOf(%q) = %q, want %q", tc.heading, got, tc.want)
		}
	}
}

// markdownLinks returns the inline link targets of a Markdown file,
// outside fenced code blocks (where "](" is code, not a link).
func markdownLinks(path string) ([]string, error) {
	var targets []string
	err := eachProseLine(path, func(line string) {
		line = inlineCode.ReplaceAllString(line, "")
		for _, m := range readmeLink.FindAllStringSubmatch(line, -1) {
			targets = append(targets, m[1])
		}
	})
	return targets, err
}

var inlineCode = regexp.MustCompile("`[^`]*`")

// markdownAnchors returns the anchors of a Markdown file's headings as
// GitHub makes them: the second heading with the same text gets "-1".
func markdownAnchors(path string) (map[string]bool, error) {
	anchors := map[string]bool{}
	seen := map[string]int{}
	err := eachProseLine(path, func(line string) {
		level := len(line) - len(strings.TrimLeft(line, "#"))
		if level == 0 || level > 6 || !strings.HasPrefix(line[level:], " ") {
			return
		}
		a := anchorOf(strings.TrimSpace(line[level:]))
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	})
	return anchors, err
}

// anchorOf lowercases a heading, drops what is neither a letter, a digit,
// a space, a hyphen nor an underscore, and turns spaces into hyphens.
func anchorOf(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// eachProseLine calls fn with every line of a Markdown file that is not
// inside a fenced code block.
func eachProseLine(path string, fn func(string)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	inFence := false
	for s.Scan() {
		line := s.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if !inFence {
			fn(line)
		}
	}
	return s.Err()
}

var kilnVar = regexp.MustCompile(`KILN_[A-Z0-9_]*[A-Z0-9]`)

// TestReadmeConfiguration keeps the Configuration table and the program
// in step: every variable internal/config reads has a row, every row is
// read, and every KILN_ variable the README names anywhere is either
// read by the program or substituted by docker-compose.yml.
func TestReadmeConfiguration(t *testing.T) {
	read := map[string]bool{}
	sources, err := filepath.Glob("internal/config/*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range sources {
		if strings.HasSuffix(src, "_test.go") {
			continue
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`"(KILN_[A-Z0-9_]+)"`).FindAllStringSubmatch(string(b), -1) {
			read[m[1]] = true
		}
	}
	if len(read) < 10 {
		t.Fatalf("found %d variables in internal/config: the parser is broken", len(read))
	}
	compose, err := os.ReadFile("docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	composed := map[string]bool{}
	for _, m := range regexp.MustCompile(`\$\{(KILN_[A-Z0-9_]+)`).FindAllStringSubmatch(string(compose), -1) {
		composed[m[1]] = true
	}

	rows := map[string]bool{}
	named := map[string]bool{}
	section := ""
	err = eachProseLine("README.md", func(line string) {
		if strings.HasPrefix(line, "## ") {
			section = line
		}
		for _, v := range kilnVar.FindAllString(line, -1) {
			named[v] = true
		}
		if section != "## Configuration" || !strings.HasPrefix(line, "| `KILN_") {
			return
		}
		first, _, _ := strings.Cut(line[1:], "|")
		for _, v := range kilnVar.FindAllString(first, -1) {
			rows[v] = true
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for v := range read {
		if !rows[v] {
			t.Errorf("%s is read by internal/config but has no row in the README's Configuration table", v)
		}
	}
	for v := range rows {
		if !read[v] {
			t.Errorf("%s has a row in the README's Configuration table but internal/config does not read it", v)
		}
	}
	for v := range named {
		if !read[v] && !composed[v] {
			t.Errorf("the README names %s, which neither internal/config nor docker-compose.yml reads", v)
		}
	}
}

package assistant

import (
	_ "embed"
	"math"
	"strings"
	"unicode"
)

// help is Kiln's own documentation for users, one "## " section a
// document: a curated digest of the README, short enough to quote.
//
//go:embed help.md
var help string

var helpDocs = parseHelp(help)

func parseHelp(s string) []Doc {
	var docs []Doc
	for _, sec := range strings.Split(s, "## ")[1:] {
		title, text, _ := strings.Cut(sec, "\n")
		docs = append(docs, Doc{Kind: KindHelp, Title: strings.TrimSpace(title), Text: strings.TrimSpace(text)})
	}
	return docs
}

var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by can do does for from has have how i in is it its
		me my of on or so that the this to was what when where which who why will with you your
		kiln please tell about there their them they we our us than then there these those`) {
		stopwords[w] = true
	}
}

// tokens splits text into lower-case words without stop words, folding a
// plural "s" so that "viewers" finds "viewer".
func tokens(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(w) < 2 || stopwords[w] {
			continue
		}
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-1]
		}
		out = append(out, w)
	}
	return out
}

type scored struct {
	doc   Doc
	score float64
}

// bm25 scores each document against the weighted query terms with Okapi
// BM25 (k1 1.2, b 0.75), the title counting twice; documents that share
// no term with the query are left out.
func bm25(docs []Doc, query map[string]float64) []scored {
	const k1, b = 1.2, 0.75
	if len(docs) == 0 || len(query) == 0 {
		return nil
	}
	tf := make([]map[string]int, len(docs))
	lens := make([]float64, len(docs))
	df := map[string]int{}
	var total float64
	for i, d := range docs {
		tf[i] = map[string]int{}
		words := append(tokens(d.Title), tokens(d.Title)...)
		words = append(words, tokens(d.Text)...)
		for _, w := range words {
			if tf[i][w] == 0 {
				df[w]++
			}
			tf[i][w]++
		}
		lens[i] = float64(len(words))
		total += lens[i]
	}
	avg := total / float64(len(docs))
	n := float64(len(docs))
	var out []scored
	for i, d := range docs {
		var s float64
		for term, weight := range query {
			f := float64(tf[i][term])
			if f == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[term])+0.5)/(float64(df[term])+0.5))
			s += weight * idf * f * (k1 + 1) / (f + k1*(1-b+b*lens[i]/avg))
		}
		if s > 0 {
			out = append(out, scored{d, s})
		}
	}
	return out
}

// Package creator is the avatar creator's web app: the page a person uses
// to make an avatar and that apps embed in an iframe, as they embedded the
// leader's. Its files are embedded so a fresh clone serves a working
// creator without npm; the api package serves them (the page under
// /avatar, the rest under /creator/static/).
package creator

import (
	"embed"
	"io/fs"
)

//go:embed index.html
var index []byte

//go:embed static
var static embed.FS

// Index is the page. It holds exactly one
// `<script id="kiln-boot" type="application/json">{}</script>`, whose `{}`
// the handler replaces with the app, language and base URL, so the page
// needs no request before it can start.
var Index = index

// Static is served under /creator/static/: the page's modules, styles,
// translations and the vendored three.js.
var Static fs.FS = mustSub(static, "static")

// Languages are the UI's languages, in the tags /{lang}/avatar uses.
// Aliases (en-IE, es-MX, pt...) are resolved by the handler.
var Languages = []string{"en", "de", "fr", "es", "pt-BR", "ja"}

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic("creator: " + err.Error())
	}
	return sub
}

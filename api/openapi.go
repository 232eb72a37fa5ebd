package api

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"sort"
	"strings"

	"github.com/gin-gonic/gin"
)

// The OpenAPI documents are JSON so that serving them needs no YAML
// parser; CI lints them with Redocly (tools/openapi-lint).
//
//go:embed openapi/platform.json openapi/avatar.json
var openapiFiles embed.FS

// apiReference is one listener's document and its reference page, both
// made once when the engine is built.
type apiReference struct {
	doc  []byte
	page []byte
}

// newAPIReference loads the document of a listener ("platform" or
// "avatar") and renders its page.
func newAPIReference(listener string) (*apiReference, error) {
	doc, err := openapiFiles.ReadFile("openapi/" + listener + ".json")
	if err != nil {
		return nil, err
	}
	page, err := renderReference(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi/%s.json: %w", listener, err)
	}
	return &apiReference{doc: doc, page: page}, nil
}

func (a *apiReference) routes(r *gin.Engine) {
	getFile(r, "/openapi.json", func(c *gin.Context) { serveBytes(c, "application/json", a.doc) })
	r.GET("/docs", func(c *gin.Context) { c.Data(http.StatusOK, "text/html; charset=utf-8", a.page) })
}

type refOperation struct {
	Method, Path, Summary, Description, Security string
	Deprecated                                   bool
	Params                                       []refParam
	Bodies                                       []refBody
	Responses                                    []refResponse
}

type refParam struct {
	Name, In, Schema, Description string
	Required                      bool
}

type refBody struct {
	MediaType, Schema string
}

type refResponse struct {
	Status, Description, MediaTypes string
}

var methodOrder = []string{"get", "put", "post", "patch", "delete", "head", "options", "trace"}

// renderReference makes the reference page from the document on the
// server, so the page needs neither a script nor a CDN.
func renderReference(raw []byte) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	info, _ := doc["info"].(map[string]any)
	paths, _ := doc["paths"].(map[string]any)
	names := make([]string, 0, len(paths))
	for p := range paths {
		names = append(names, p)
	}
	sort.Strings(names)
	var ops []refOperation
	for _, p := range names {
		item, _ := paths[p].(map[string]any)
		shared, _ := item["parameters"].([]any)
		for _, m := range methodOrder {
			op, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			params, _ := op["parameters"].([]any)
			ops = append(ops, refOperation{
				Method:      strings.ToUpper(m),
				Path:        p,
				Summary:     str(op["summary"]),
				Description: str(op["description"]),
				Security:    security(doc, op),
				Deprecated:  op["deprecated"] == true,
				Params:      refParams(doc, append(append([]any{}, shared...), params...)),
				Bodies:      refBodies(doc, op),
				Responses:   refResponses(doc, op),
			})
		}
	}
	var b bytes.Buffer
	err := referencePage.Execute(&b, map[string]any{
		"Title": str(info["title"]), "Version": str(info["version"]),
		"Description": str(info["description"]), "Ops": ops,
	})
	return b.Bytes(), err
}

// resolve follows a local $ref ("#/components/…") to what it names.
func resolve(doc map[string]any, v any) map[string]any {
	m, _ := v.(map[string]any)
	for range 8 {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		var cur any = doc
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			next, _ := cur.(map[string]any)
			cur = next[strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")]
		}
		m, _ = cur.(map[string]any)
	}
	return m
}

func security(doc map[string]any, op map[string]any) string {
	reqs, set := op["security"].([]any)
	if !set {
		reqs, _ = doc["security"].([]any)
	}
	var alts []string
	for _, r := range reqs {
		req, _ := r.(map[string]any)
		if len(req) == 0 {
			alts = append(alts, "none")
			continue
		}
		for name := range req {
			alts = append(alts, name)
		}
	}
	if len(alts) == 0 {
		return "none"
	}
	return strings.Join(alts, " or ")
}

func refParams(doc map[string]any, raw []any) []refParam {
	var out []refParam
	for _, r := range raw {
		p := resolve(doc, r)
		out = append(out, refParam{
			Name: str(p["name"]), In: str(p["in"]), Required: p["required"] == true,
			Schema: compact(resolve(doc, p["schema"])), Description: str(p["description"]),
		})
	}
	return out
}

func refBodies(doc map[string]any, op map[string]any) []refBody {
	body := resolve(doc, op["requestBody"])
	content, _ := body["content"].(map[string]any)
	var out []refBody
	for _, mt := range sortedKeys(content) {
		media, _ := content[mt].(map[string]any)
		out = append(out, refBody{MediaType: mt, Schema: expand(doc, media["schema"], 0)})
	}
	return out
}

func refResponses(doc map[string]any, op map[string]any) []refResponse {
	responses, _ := op["responses"].(map[string]any)
	var out []refResponse
	for _, status := range sortedKeys(responses) {
		r := resolve(doc, responses[status])
		content, _ := r["content"].(map[string]any)
		out = append(out, refResponse{
			Status: status, Description: str(r["description"]),
			MediaTypes: strings.Join(sortedKeys(content), ", "),
		})
	}
	return out
}

// expand writes a schema as indented JSON with its references replaced,
// a few levels deep, so a request body reads whole on the page.
func expand(doc map[string]any, schema any, depth int) string {
	b, _ := json.MarshalIndent(inline(doc, schema, depth), "", "  ")
	return string(b)
}

func inline(doc map[string]any, v any, depth int) any {
	switch v := v.(type) {
	case map[string]any:
		if ref, ok := v["$ref"].(string); ok {
			if depth > 4 {
				return map[string]any{"$ref": ref}
			}
			return inline(doc, resolve(doc, v), depth+1)
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = inline(doc, e, depth)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = inline(doc, e, depth)
		}
		return out
	}
	return v
}

func compact(schema map[string]any) string {
	if schema == nil {
		return ""
	}
	b, _ := json.Marshal(schema)
	return string(b)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// inlineCode escapes text and shows its `backquoted` parts as code, the
// one markup the documents' descriptions use.
func inlineCode(s string) template.HTML {
	parts := strings.Split(template.HTMLEscapeString(s), "`")
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<code>" + p + "</code>")
			continue
		}
		if i%2 == 1 {
			b.WriteString("`")
		}
		b.WriteString(p)
	}
	return template.HTML(b.String())
}

var referencePage = template.Must(template.New("docs").Funcs(template.FuncMap{"code": inlineCode}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} — API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{font:13px ui-monospace,monospace}pre{background:#f5f5f5;padding:.5rem;overflow:auto;max-height:24rem}
section{border-top:1px solid #ddd;padding:.5rem 0}h2{font-size:1.05rem;margin:.3rem 0}
.m{display:inline-block;min-width:4.5rem;font-weight:700}.dep{text-decoration:line-through}
table{border-collapse:collapse;width:100%;margin:.3rem 0}td,th{border:1px solid #ddd;padding:.2rem .4rem;text-align:left;vertical-align:top}
nav a{display:block;font-size:13px}
</style></head><body>
<h1>{{.Title}} <small>{{.Version}}</small></h1>
<p>{{code .Description}}</p>
<p>The machine-readable document: <a href="openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
<nav>{{range $i, $o := .Ops}}<a href="#op{{$i}}"><code>{{$o.Method}} {{$o.Path}}</code> {{$o.Summary}}</a>{{end}}</nav>
{{range $i, $o := .Ops}}<section id="op{{$i}}">
<h2><span class="m">{{$o.Method}}</span><code{{if $o.Deprecated}} class="dep"{{end}}>{{$o.Path}}</code> — {{$o.Summary}}</h2>
<p>Auth: {{$o.Security}}</p>
{{if $o.Description}}<p>{{code $o.Description}}</p>{{end}}
{{if $o.Params}}<table><tr><th>parameter</th><th>in</th><th>schema</th><th>description</th></tr>
{{range $o.Params}}<tr><td><code>{{.Name}}</code>{{if .Required}} *{{end}}</td><td>{{.In}}</td><td><code>{{.Schema}}</code></td><td>{{code .Description}}</td></tr>
{{end}}</table>{{end}}
{{range $o.Bodies}}<p>Body <code>{{.MediaType}}</code>:</p><pre>{{.Schema}}</pre>{{end}}
<table><tr><th>status</th><th>answer</th><th>content</th></tr>
{{range $o.Responses}}<tr><td>{{.Status}}</td><td>{{code .Description}}</td><td>{{.MediaTypes}}</td></tr>
{{end}}</table>
</section>
{{end}}</body></html>
`))

package api

import (
	"context"
	"encoding/json"
	"time"

	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/internal/priority"
	"github.com/kilnhq/kiln/jobs"
)

// The warm-up of a serving process. A fresh process pays, at its first
// creator build, for decoding the MakeHuman data and for every style's
// first fitting and painting: the first avatar of a fresh kiln serve
// took 5.25 s to answer where a warm one takes under a second, and a
// never-built hair or hat 1.6 s where a warm part takes 0.15 to 0.3 s.
// WarmCreator pays for them before anyone asks, as background work
// (priority.Background): it yields to every request, and a request for
// something it is building joins that build (slotCache) instead of
// waiting for the whole warm-up or building it a second time.

// startSliders are the sliders of the page's first build: the body's and
// the first face feature's dials (BODY and slidersFor(FIRST_FEATURE) in
// creator/static/start.js). The start avatars are built with them so the
// page's first request finds its build made.
var startSliders = []string{"body.height", "body.build", "body.age", "body.muscle", "body.weight", "body.proportions", "face.nose.*"}

// creatorStarts are the configurations the page asks first for the
// default app (startConfiguration in creator/static/start.js): none, and
// the feminine body of ?gender=female.
var creatorStarts = []string{`{}`, `{"body":{"type":"feminine"}}`}

// creatorConfig reads a configuration as the creator's builds and parts
// take it: empty or {} is the masculine default.
func creatorConfig(raw []byte) (avatar.Config, error) {
	if emptyObject(raw) {
		return avatar.Default(avatar.Masculine), nil
	}
	return avatar.ParseConfig(raw)
}

// stylePath is where a category's style sits in a configuration.
func stylePath(cat string) []string {
	switch cat {
	case "top", "bottom", "footwear":
		return []string{"outfit", cat, "style"}
	}
	return []string{cat, "style"}
}

// withStyle is the configuration JSON start with cat's style set, as the
// page sends it once a style is picked (it sets the one field).
func withStyle(start, cat, style string) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal([]byte(start), &doc); err != nil {
		return nil, err
	}
	path := stylePath(cat)
	m := doc
	for _, k := range path[:len(path)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[path[len(path)-1]] = style
	return json.Marshal(doc)
}

// WarmStats is what a warm-up did.
type WarmStats struct {
	Builds, Parts, Thumbnails int
	Took                      time.Duration
}

// WarmCreator warms the creator in the background order of what a
// person meets: the start avatars (which also loads the MakeHuman data),
// the default bodies' catalogue thumbnails (queued as low-priority
// jobs, rendered unless storage has them from an earlier run), and the
// part of every style on the start avatars (a person's first pick, and
// each style's first fitting and textures). It returns when done or when
// ctx ends; a failure of one piece is logged and the rest goes on.
func (s *Server) WarmCreator(ctx context.Context) WarmStats {
	t0 := time.Now()
	var st WarmStats
	sliders, err := avatar.SliderSet(startSliders)
	if err != nil {
		s.log.Error("creator warm-up", "err", err)
		return st
	}
	for _, start := range creatorStarts {
		if ctx.Err() != nil {
			return st
		}
		if err := s.warmBuild(ctx, []byte(start), sliders); err != nil {
			s.log.Warn("creator warm-up: start avatar", "configuration", start, "err", err)
			continue
		}
		st.Builds++
	}
	st.Thumbnails = s.warmThumbnails(ctx)
	for _, start := range creatorStarts {
		cfg, err := creatorConfig([]byte(start))
		if err != nil {
			continue
		}
		for _, cat := range avatar.StyleCategories {
			for _, style := range avatar.Styles(cat) {
				if ctx.Err() != nil {
					return st
				}
				if style == cfg.Style(cat) {
					continue // the start avatar wears it: no part is asked
				}
				if err := s.warmPart(ctx, start, cat, style, cfg.Outfit.Footwear.Style); err != nil {
					s.log.Warn("creator warm-up: part", "configuration", start, "part", cat, "style", style, "err", err)
					continue
				}
				st.Parts++
			}
		}
	}
	st.Took = time.Since(t0)
	s.log.Info("creator warmed", "builds", st.Builds, "parts", st.Parts, "thumbnails_queued", st.Thumbnails, "took", st.Took.Round(time.Millisecond))
	return st
}

// warmBuild builds a start avatar into the builds' cache, under the key
// POST /creator/builds finds it by.
func (s *Server) warmBuild(ctx context.Context, start []byte, sliders []string) error {
	cfg, err := creatorConfig(start)
	if err != nil {
		return err
	}
	key, err := buildKey(cfg, sliders)
	if err != nil {
		return err
	}
	_, err = s.creatorBuilds.build(ctx, key, priority.Background, cfg, sliders)
	return err
}

// warmPart builds a style's part on a start avatar into the parts'
// cache, under the key POST /creator/parts finds it by.
func (s *Server) warmPart(ctx context.Context, start, cat, style, standOn string) error {
	raw, err := withStyle(start, cat, style)
	if err != nil {
		return err
	}
	cfg, err := creatorConfig(raw)
	if err != nil {
		return err
	}
	key, err := partKey(cfg, cat, standOn)
	if err != nil {
		return err
	}
	_, err = s.creatorBuilds.buildPart(ctx, key, priority.Background, cfg, cat, standOn)
	return err
}

// warmThumbnails queues the render of every catalogue thumbnail on the
// default bodies and of the quick-start templates that storage does not
// have, on the low queue; it returns how many it queued.
func (s *Server) warmThumbnails(ctx context.Context) int {
	if s.Jobs == nil || s.Blobs == nil {
		return 0
	}
	var pics []jobs.ConfigRender
	for _, body := range []string{avatar.Masculine, avatar.Feminine} {
		for _, cat := range avatar.StyleCategories {
			for _, style := range avatar.Styles(cat) {
				if job, err := thumbnailJob(body, cat, style); err == nil {
					pics = append(pics, job)
				}
			}
		}
	}
	for _, t := range templates {
		if job, err := configPicture("templates/"+t.ID, t.Config, "full"); err == nil {
			pics = append(pics, job)
		}
	}
	n := 0
	for _, job := range pics {
		if ctx.Err() != nil {
			break
		}
		if _, err := s.Blobs.Stat(ctx, job.BlobKey); err == nil {
			continue
		}
		job.Background = true
		if err := s.Jobs.Enqueue(ctx, job); err != nil {
			s.log.Warn("creator warm-up: thumbnail", "key", job.BlobKey, "err", err)
			continue
		}
		n++
	}
	return n
}

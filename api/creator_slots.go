package api

import (
	"context"
	"sync"

	"github.com/kilnhq/kiln"
)

// slotCache runs the creator's work two at a time (two builds use every
// core between them) and keeps the latest answers within a byte budget,
// oldest out first: a person going back and forth between styles gets
// them again at once. The whole builds and the parts each have their
// own, so a part never waits behind the builds it is there to get ahead
// of.
type slotCache struct {
	once  sync.Once
	slots chan struct{}
	mu    sync.Mutex
	cache map[string][]byte
	order []string
	size  int
}

// do answers key's bytes from the cache, or makes them in a free slot and
// keeps them within budget bytes. Waiting for a slot ends with ctx.
func (c *slotCache) do(ctx context.Context, key string, budget int, produce func() ([]byte, error)) ([]byte, error) {
	c.once.Do(func() {
		c.slots = make(chan struct{}, 2)
		c.cache = map[string][]byte{}
	})
	if b, ok := c.get(key); ok {
		return b, nil
	}
	select {
	case c.slots <- struct{}{}:
		defer func() { <-c.slots }()
	case <-ctx.Done():
		return nil, kiln.Errorf(kiln.KindUnavailable, "creator_busy", "the creator's builds are busy; try again")
	}
	// Another request may have made it while this one waited.
	if b, ok := c.get(key); ok {
		return b, nil
	}
	b, err := produce()
	if err != nil {
		return nil, err
	}
	c.put(key, b, budget)
	return b, nil
}

func (c *slotCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.cache[key]
	return b, ok
}

func (c *slotCache) put(key string, b []byte, budget int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.cache[key]; ok {
		return
	}
	c.cache[key], c.size = b, c.size+len(b)
	c.order = append(c.order, key)
	for c.size > budget && len(c.order) > 1 {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= len(c.cache[old])
		delete(c.cache, old)
	}
}

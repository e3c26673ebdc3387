// Package pool holds the room a check takes whole for a flood (a call of
// a thousand issues, or of a thousand top-level members) and hands back
// once its caller is done, so that such a call costs no allocation past
// the first, whatever comes between two of them.
package pool

import (
	"sync"
	"sync/atomic"
)

// A Pool hands out values of type *T, reusing those put back. The one put
// back last is held apart from a sync.Pool: it is reused whatever
// processor the next Get runs on (a sync.Pool's fast path is per
// processor), a garbage collection does not drop it, and neither does the
// race detector, which drops a sync.Pool's items at random (tests count
// allocations). The zero Pool is ready to use.
type Pool[T any] struct {
	last atomic.Pointer[T]
	more sync.Pool
}

// Get returns a value put back, or a new one.
func (p *Pool[T]) Get() *T {
	if t := p.last.Swap(nil); t != nil {
		return t
	}
	if t, ok := p.more.Get().(*T); ok {
		return t
	}
	return new(T)
}

// Put puts t back: the caller holds no part of it after.
func (p *Pool[T]) Put(t *T) {
	if !p.last.CompareAndSwap(nil, t) {
		p.more.Put(t)
	}
}

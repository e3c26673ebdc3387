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
	held [1]atomic.Pointer[T]
	more sync.Pool
}

// Get returns a value put back, or a new one.
func (p *Pool[T]) Get() *T { return get(p.held[:], &p.more) }

// Put puts t back: the caller holds no part of it after.
func (p *Pool[T]) Put(t *T) { put(p.held[:], &p.more, t) }

// A Pair is a Pool that holds the two put back last apart, for room a
// call may take twice at once and hand back both (a refused call's
// members, and those kept to check the rest: see refuse's decide): the
// second would go through the sync.Pool, and miss where the next Get runs
// on another processor. Its values are small enough to hold two of for
// good.
type Pair[T any] struct {
	held [2]atomic.Pointer[T]
	more sync.Pool
}

// Get returns a value put back, or a new one.
func (p *Pair[T]) Get() *T { return get(p.held[:], &p.more) }

// Put puts t back: the caller holds no part of it after.
func (p *Pair[T]) Put(t *T) { put(p.held[:], &p.more, t) }

func get[T any](held []atomic.Pointer[T], more *sync.Pool) *T {
	for i := range held {
		if t := held[i].Swap(nil); t != nil {
			return t
		}
	}
	if t, ok := more.Get().(*T); ok {
		return t
	}
	return new(T)
}

func put[T any](held []atomic.Pointer[T], more *sync.Pool, t *T) {
	for i := range held {
		if held[i].CompareAndSwap(nil, t) {
			return
		}
	}
	more.Put(t)
}

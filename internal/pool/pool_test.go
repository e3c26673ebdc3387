package pool

import (
	"runtime"
	"sync"
	"testing"
)

// TestPool_ReusesWhatIsPutBack: a value put back is the next one got, with
// no allocation, under the race detector too (which drops a sync.Pool's
// items at random); with two out at once, both come back.
func TestPool_ReusesWhatIsPutBack(t *testing.T) {
	var p Pool[[64]int]
	a := p.Get()
	a[0] = 1
	p.Put(a)
	if b := p.Get(); b != a {
		t.Fatalf("got %p after putting back %p", b, a)
	}
	p.Put(a)
	if n := testing.AllocsPerRun(100, func() { p.Put(p.Get()) }); n != 0 {
		t.Errorf("get and put back: %v allocations, want 0", n)
	}
	x, y := p.Get(), p.Get()
	if x == y {
		t.Fatalf("two values out at once are one: %p", x)
	}
	p.Put(x)
	p.Put(y)
	if got := p.Get(); got != x {
		t.Errorf("got %p, want the one held apart, %p", got, x)
	}
}

// TestPool_ConcurrentUse: values got at once are distinct, whatever the
// goroutines; the race detector checks the rest.
func TestPool_ConcurrentUse(t *testing.T) {
	var p Pool[[8]int]
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				v := p.Get()
				v[0], v[1] = g, i
				if v[0] != g || v[1] != i {
					t.Errorf("goroutine %d: a value got is written by another", g)
				}
				p.Put(v)
			}
		}()
	}
	wg.Wait()
}

// TestPair_HoldsTwoApart: two values out at once and put back are both
// reused, whatever happens to a sync.Pool in between (a garbage
// collection; the race detector's random drops), as a call that holds two
// (a refused call's members and those kept) needs.
func TestPair_HoldsTwoApart(t *testing.T) {
	var p Pair[[64]int]
	a, b := p.Get(), p.Get()
	p.Put(a)
	p.Put(b)
	runtime.GC()
	runtime.GC() // a sync.Pool's items are gone after two
	x, y := p.Get(), p.Get()
	if !(x == a && y == b || x == b && y == a) {
		t.Fatalf("got %p and %p after putting back %p and %p", x, y, a, b)
	}
	p.Put(x)
	p.Put(y)
	if n := testing.AllocsPerRun(100, func() {
		u, v := p.Get(), p.Get()
		p.Put(u)
		p.Put(v)
	}); n != 0 {
		t.Errorf("two got and put back: %v allocations, want 0", n)
	}
}

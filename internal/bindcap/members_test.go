package bindcap

import (
	"testing"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// TestMembers_AllocateBoundedly: however many members are added, a
// Members holds the first MaxMembers, in order, says it was cut, and
// allocates at most once (none for the first fixedMembers, none once
// Release hands the room back); Find
// finds each member by any offset in its key or value, and none between.
func TestMembers_AllocateBoundedly(t *testing.T) {
	for _, n := range []int{0, 1, fixedMembers, fixedMembers + 1, 1000, MaxMembers, MaxMembers + 1, 100000} {
		fill := func() *Members {
			ms := new(Members)
			for i := range n {
				at := 10 * i
				ms.Add(Member{Key: jsonlex.Span{Start: at, End: at + 3}, Value: jsonlex.Span{Start: at + 4, End: at + 9}, Param: int32(i)})
			}
			return ms
		}
		ms := fill()
		if ms.Len() != min(n, MaxMembers) || ms.Cut != (n > MaxMembers) {
			t.Fatalf("%d added: %d held, cut %v", n, ms.Len(), ms.Cut)
		}
		for i := range ms.Len() {
			if m := ms.At(i); m.Param != int32(i) || ms.Find(m.Key.Start) != i || ms.Find(m.Value.End-1) != i || ms.Find(m.Value.End) != -1 {
				t.Fatalf("%d added: member %d is %+v, found at %d", n, i, *m, ms.Find(m.Key.Start))
			}
		}
		// Past fixedMembers the room for the rest comes whole from a
		// pool: one allocation where nobody hands it back, none where
		// Release does.
		want := 0.0
		if n > fixedMembers {
			want = 1
		}
		var local Members
		if a := testing.AllocsPerRun(10, func() {
			local = Members{}
			for i := range n {
				local.Add(Member{Param: int32(i)})
			}
		}); a > want {
			t.Errorf("%d added: %v allocations, want at most %v", n, a, want)
		}
		if a := testing.AllocsPerRun(10, func() {
			local = Members{}
			for i := range n {
				local.Add(Member{Param: int32(i)})
			}
			local.Release()
		}); a != 0 {
			t.Errorf("%d added and released: %v allocations, want 0", n, a)
		}
	}
}

// TestMembers_ReleasedRoomIsReused: members added after a Release of
// another list hold what was added, not what the room held before.
func TestMembers_ReleasedRoomIsReused(t *testing.T) {
	for round := range 3 {
		var ms Members
		for i := range MaxMembers {
			ms.Add(Member{Param: int32(round*MaxMembers + i)})
		}
		for i := range ms.Len() {
			if p := ms.At(i).Param; p != int32(round*MaxMembers+i) {
				t.Fatalf("round %d: member %d holds %d", round, i, p)
			}
		}
		ms.Release()
	}
}

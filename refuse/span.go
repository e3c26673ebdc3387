package refuse

import (
	"iter"
	"sync/atomic"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// The verdict's members: Check hands back, with the issues, the members of
// the top-level object it read (each key and value, the parameter the key
// binds and how), and everything here that needs a member reads them,
// never the arguments again.

// checkMembers is the plan's Check with the members it read (see
// bindcap.CheckMembers).
var checkMembers = bindcap.CheckMembers.(func(*bind.Plan, []byte, []bind.Issue) ([]bind.Issue, bindcap.Members))

// membersRead counts, in the package's tests only (nil otherwise), the
// members read again with the lexer (eachMember past a cut list,
// lexMembers): the deterministic measure of what refuse reads of a call
// beyond the pass.
var membersRead *atomic.Int64

func memberRead() {
	if membersRead != nil {
		membersRead.Add(1)
	}
}

// eachMember yields the members of the top-level object args in order,
// each with its index: those Check recorded in ms, or, when ms was cut
// (past bindcap.MaxMembers: a call with issues), every member read again
// with the lexer, to any depth, each bound by plan's Match (nil: none).
func eachMember(args []byte, ms *bindcap.Members, plan *bind.Plan) iter.Seq2[int, bindcap.Member] {
	return func(yield func(int, bindcap.Member) bool) {
		if !ms.Cut {
			for i := range ms.Len() {
				if !yield(i, *ms.At(i)) {
					return
				}
			}
			return
		}
		i := 0
		for m := range jsonlex.MembersTo(args, jsonlex.Space(args, 0), len(args)+1) {
			memberRead()
			param := -1
			if plan != nil {
				param = plan.Match(args[m.Key.Start:m.Key.End])
			}
			if !yield(i, bindcap.Member{Key: m.Key, Value: m.Value, Param: int32(param)}) {
				return
			}
			i++
		}
	}
}

// deepMembers reads the members of args, which the binder refuses for
// nesting past its limit (so Check stopped there), with the lexer, to any
// depth (its stack a bit a level), each bound by plan's Match (nil: none,
// for spans alone): the arguments it reads are held to their constraints
// all the same. Object says the text is an object to its end.
func deepMembers(args []byte, plan *bind.Plan) bindcap.Members {
	var ms bindcap.Members
	end := -1 // where the last member read ends
	for m := range jsonlex.MembersTo(args, jsonlex.Space(args, 0), len(args)+1) {
		param := -1
		if plan != nil {
			param = plan.Match(args[m.Key.Start:m.Key.End])
		}
		ms.Add(bindcap.Member{Key: m.Key, Value: m.Value, Param: int32(param)})
		end = m.Value.End
	}
	if end >= 0 {
		// Read to the end when the object closes after the last member.
		at, more, ok := jsonlex.Next(args, end, jsonlex.KindObject)
		ms.Object = ok && !more && jsonlex.Space(args, at) == len(args)
	}
	return ms
}

// lexMembers reads the members of the top-level object args with the
// lexer, for arguments no plan read (a tool recorded from its schema).
func lexMembers(args []byte) *bindcap.Members {
	ms := new(bindcap.Members)
	for m := range jsonlex.Members(args, jsonlex.Space(args, 0)) {
		memberRead()
		ms.Add(bindcap.Member{Key: m.Key, Value: m.Value, Param: -1})
	}
	return ms
}

// memberValue returns the value of the member of ms (the top-level object
// args) that holds offset at, or nil.
func memberValue(args []byte, ms *bindcap.Members, at int) []byte {
	var m bindcap.Member
	if i := ms.Find(at); i >= 0 {
		m = *ms.At(i)
	} else if !ms.Cut {
		return nil
	} else {
		// Past the members recorded: read with the lexer, as far as it.
		found := false
		for _, lm := range eachMember(args, ms, nil) {
			if lm.Key.Start > at {
				break
			}
			if at < lm.Value.End {
				m, found = lm, true
				break
			}
		}
		if !found {
			return nil
		}
	}
	if at < m.Value.Start {
		return nil // in the key
	}
	return args[m.Value.Start:m.Value.End]
}

// memberValue is memberValue for the builder's arguments, with the
// members the plan read, or else (a schema's check) read once.
func (b *problems) memberValue(at int) []byte {
	if b.ms == nil {
		b.ms = lexMembers(b.args)
	}
	return memberValue(b.args, b.ms, at)
}

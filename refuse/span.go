package refuse

import (
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

// lexMembers reads the members of the top-level object args with the
// lexer, for arguments no plan read (a tool recorded from its schema).
func lexMembers(args []byte) *bindcap.Members {
	ms := new(bindcap.Members)
	for m := range jsonlex.Members(args, jsonlex.Space(args, 0)) {
		ms.Add(bindcap.Member{Key: m.Key, Value: m.Value, Param: -1}, len(args))
	}
	return ms
}

// memberValue returns the value of the member of ms (the top-level object
// args) that holds offset at, or nil.
func memberValue(args []byte, ms *bindcap.Members, at int) []byte {
	i := ms.Find(at)
	if i < 0 {
		return nil
	}
	m := ms.At(i)
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

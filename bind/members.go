package bind

import (
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// The members of the verdict: Check can hand back the top-level members
// it read (key, value, the parameter each binds and how), so that refuse
// reads the one pass and never the arguments again. The path is
// unexported, reached through internal/bindcap: it is refuse's, not the
// API's.

func init() {
	bindcap.CheckMembers = checkMembers
}

// checkMembers is p.Check(args, issues), with the members of the
// top-level object it read (the first bindcap.MaxMembers). For Std it
// allocates nothing more than Check for the first 16 members; past them,
// and past 64 issues, the members and the issues take room whole from a
// pool, which a caller hands back (bindcap.ReleaseIssues,
// bindcap.Members.Release), whatever the call's size.
func checkMembers(p *Plan, args []byte, issues []Issue) ([]Issue, bindcap.Members) {
	ms := bindcap.GetMembers() // on the heap anyway: the walk's pointers leak
	issues = checkConstrained(p, args, issues, nil, bindcap.TopKeys{}, ms)
	out := *ms // with the room it took, which the caller hands back
	*ms = bindcap.Members{}
	bindcap.PutMembers(ms)
	return issues, out
}

// member records the top-level member the checker has just read: its key
// at data[ks:ke], its value from vs to c.pos, bound to c.param.
func (c *checker) member(ks, ke, vs int, folded bool) {
	judged := bindcap.NotJudged
	if c.cons.root {
		judged = c.consJudged()
	} else if c.members.Len() >= bindcap.MaxMembers {
		c.members.Cut = true // what Add does past them, without building the member
		return
	}
	how := bindcap.Unbound
	switch {
	case c.param < 0:
	case c.top.alias: // bindAlias's, for this member
		how = bindcap.Alias
	case folded:
		how = bindcap.Folded
	default:
		how = bindcap.Exact
	}
	if m := c.members.Next(); m != nil { // in place: see Members.Next
		m.Key.Start, m.Key.End = ks, ke
		m.Value.Start, m.Value.End = vs, c.pos
		m.Param, m.How, m.Judged = int32(c.param), how, judged
	}
}

// addMembers records the members ms of the object args, each read by a
// scan and matched to its param (a trial plan's, a reader's), in out;
// folded reports a key bound only by folding its case.
func addMembers(out *bindcap.Members, args []byte, ms []member, folded func(raw []byte) bool) {
	if out == nil {
		return
	}
	for _, m := range ms {
		how := bindcap.Unbound
		switch {
		case m.param < 0:
		case folded != nil && folded(args[m.ks:m.ke]):
			how = bindcap.Folded
		default:
			how = bindcap.Exact
		}
		out.Add(bindcap.Member{
			Key: jsonlex.Span{Start: m.ks, End: m.ke}, Value: jsonlex.Span{Start: m.vs, End: m.ve},
			Param: int32(m.param), How: how,
		})
	}
	out.Object = true
}

// readerFolded reports whether encoding/json binds the key raw to a
// field of fs only by folding its case.
func readerFolded(fs *fieldSet, raw []byte) bool {
	_, f, _ := jsonlex.String(raw, 0)
	_, folded := fs.lookup(raw, f&jsonlex.Escaped != 0)
	return folded
}

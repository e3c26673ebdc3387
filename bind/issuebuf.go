package bind

import (
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/pool"
)

// Issue buffers: a check that lists many issues (a flood of unknown keys
// lists MaxIssues of them, 120 KB; a flood of every class four times
// that) would grow its list by doubling, ten allocations and twice the
// list's size in bytes, each call, for a refusal that quotes a hundred of
// them. In refuse's check
// (checkConstrained, whose caller hands the list back), past issueBufMin
// issues the checker moves its list to a buffer of issueBufCap from a
// pool instead (admit, before the issue it admits is appended), and
// refuse hands the buffer back once its decision is made
// (bindcap.ReleaseIssues). A list that outgrows the buffer grows by
// append as before, and so does every list of Plan.Check's, whose caller
// keeps it.
//
// The first issues of such a check go to a small pooled buffer of
// issueSmallCap the same way, so that a call refused for a problem or a
// few lists them without an allocation.
const (
	issueBufMin   = 64
	issueBufCap   = numClasses*MaxIssues + 64 // a flood of every class, its counts and every argument's first issue
	issueSmallCap = 8
)

var (
	issueBufs   pool.Pool[[issueBufCap]Issue]
	issueSmalls pool.Pair[[issueSmallCap]Issue] // a refused call may hold two lists at once (the call as sent and renamed)
)

func init() {
	bindcap.ReleaseIssues = releaseIssues
}

// roomForIssue makes room in c.issues for the one issue admit admits:
// where the list is full at issueBufMin issues or more, but short of
// issueBufCap, it moves to a pooled buffer.
func (c *checker) roomForIssue() {
	n := len(c.issues)
	if n != cap(c.issues) || !c.poolIssues {
		return
	}
	switch {
	case n == 0:
		c.issues = issueSmalls.Get()[:0]
	case n >= issueBufMin && n < issueBufCap:
		buf := issueBufs.Get()
		c.issues = append(buf[:0], c.issues...)
	}
}

// releaseIssues hands back the buffer issues is a slice of, if it is one
// of roomForIssue's: the caller holds no part of it after. What the
// buffer holds is cleared first (the errors and types in it would be held
// otherwise): issues, and the issues written past its length, which a
// check that cuts its list (text that is not JSON past its issues) leaves
// there, and a caller may append. Every issue written has a Kind, and a
// buffer is clear past what was written, so those end at the first issue
// of no Kind: the clearing costs what the check wrote.
func releaseIssues(issues []Issue) {
	switch cap(issues) {
	case issueBufCap:
		buf := (*[issueBufCap]Issue)(issues[:issueBufCap])
		clearWritten(buf[:], len(issues))
		issueBufs.Put(buf)
	case issueSmallCap:
		buf := (*[issueSmallCap]Issue)(issues[:issueSmallCap])
		clearWritten(buf[:], len(issues))
		issueSmalls.Put(buf)
	}
}

// clearWritten clears what buf holds: its first n issues and those written
// past them, up to the first of no Kind.
func clearWritten(buf []Issue, n int) {
	for n < len(buf) && buf[n].Kind != "" {
		n++
	}
	clear(buf[:n])
}

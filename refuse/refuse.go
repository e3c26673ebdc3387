package refuse

import (
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/internal/jsonpath"
	"github.com/bindguard/bindguard/internal/toolrec"
	"github.com/bindguard/bindguard/typereg"
)

func unknownTool(reg *typereg.Registry, tool string) *Refusal {
	var names []string
	for _, t := range reg.Tools() {
		names = append(names, t.Name())
	}
	name := quoteKey([]byte(strconv.Quote(tool)))
	return &Refusal{
		Tool:     name,
		Problems: []Problem{{Code: UnknownTool, Argument: "", Sent: name, DidYouMean: closest(tool, names)}},
	}
}

// maxSuggestions bounds the unknown keys a refusal looks for a close
// parameter name for: the text names only the first few.
const maxSuggestions = 10

// A problems builder words a call's issues as problems, one per argument
// (the first issue found in it), then one per unknown key, bounded by
// MaxProblems and by the length of the text they make (maxProblemText)
// and of their JSON (maxProblemJSON):
// what does not fit is counted in more.
type problems struct {
	t    *typereg.Tool
	args []byte
	w    words
	list []Problem
	room *refusalRoom // where list starts, and the refusal that holds it
	text int          // the length of the sentences of list
	size int          // the length of list in JSON
	// firstUnmeasured: text and size leave out the first problem, not
	// measured yet (see fits).
	firstUnmeasured bool
	held            room
	more            int
	claimed         paramSet           // the arguments with a problem (claim)
	keys            keySet             // the unknown keys met, listed or counted
	accepted        []string           // t.Accepted(), once read
	near            []toolrec.NearName // the accepted names as closestKey reads them, once read
	countFrom       int                // where the unknown keys Check only counted start; -1: none
	counted         bool               // the unknown keys from some offset on are counted (countPast)
	outside         bool               // a key met is a failure in no argument (refusedOutside), not an unknown key of the pass
	// unknownHint bounds the unknown keys of the call: those Check
	// listed and those it counted.
	unknownHint int
	seenDup     map[string]bool  // repeated keys outside every argument (DuplicateName)
	seenWhole   bool             // the arguments refused as a whole (bind.Reader)
	rekeys      []rekey          // per parameter, where its pointers lead in the call (see rekey)
	sent        []byte           // the call's own text, where b.args renames it, until rekeys are found
	own         []byte           // the call's own text, where b.args renames it
	ms          *bindcap.Members // the members of args, as the plan read them; nil: read when needed
	// reads is, per parameter, the value of the member the binder reads
	// alone of those sent for it (see readOf), and rules how its type
	// reads a repeat; nil until asked.
	reads [][]byte
	rules *paramRules
}

// readOf returns the value the binder reads for parameter i, sent under
// more than one member, where that is one member's value (see lastWins):
// the last member, or the last that is not null where null leaves the
// value before it. It is nil where values merge (a struct, a map, a list,
// a type's own decoder). The members are read once, for every parameter.
func (b *problems) readOf(i int) []byte {
	if b.reads == nil {
		if b.ms == nil {
			b.ms = lexMembers(b.args)
		}
		b.rules = rulesOf(b.t)
		last, nonNull := readMembers(b.t, b.args, b.ms, b.rules)
		read := make([]int, len(last)) // per parameter, the member read alone, or -1
		for j := range last {
			read[j] = b.rules.readAlone(j, last[j], nonNull[j])
		}
		b.reads = make([][]byte, len(last))
		for k, m := range eachMember(b.args, b.ms, b.t.Plan()) {
			if j := m.Binds(); j >= 0 && j < len(read) && read[j] == k {
				b.reads[j] = b.args[m.Value.Start:m.Value.End]
			}
		}
	}
	if i < 0 || i >= len(b.reads) {
		return nil
	}
	return b.reads[i]
}

// quoteSentOr is quoteSent of v, or "" for nil.
func quoteSentOr(v []byte) string {
	if v == nil {
		return ""
	}
	return quoteSent(v)
}

func newProblems(t *typereg.Tool, args []byte) problems {
	var b problems
	b.init(t, args)
	return b
}

// init makes b, new, a builder for tool t's call args: newProblems in
// place, for a builder on its caller's stack.
func (b *problems) init(t *typereg.Tool, args []byte) {
	b.t, b.args, b.w = t, args, wordsFor(t)
	b.claimed.n, b.countFrom = len(recParams(t)), -1
}

func (b *problems) add(ps ...Problem) {
	for _, p := range ps {
		p = b.rekeyed(p)
		if n, js, ok := b.fits(p); ok {
			b.put(p, n, js)
		} else {
			b.more++
		}
	}
}

// full reports whether the refusal lists as many problems as it holds.
func (b *problems) full() bool { return len(b.list) >= MaxProblems-b.held.n }

// fits reports whether problem p fits in the refusal, with what it adds to
// its text and its JSON. The first problem always fits, and is measured
// only when a second comes (see measured): a refusal of one problem never
// sizes it.
func (b *problems) fits(p Problem) (n, js int, ok bool) {
	if b.full() {
		return 0, 0, false
	}
	if len(b.list) == 0 {
		return unmeasured, unmeasured, true
	}
	b.measured()
	n, js = cost(p, b.t.Name()), jsonSize(p)
	if b.text+n > maxProblemText-b.held.text || b.size+js > maxProblemJSON-b.held.size {
		return n, js, false
	}
	return n, js, true
}

// unmeasured is fits's size of a problem not measured yet.
const unmeasured = -1

// measured adds to the refusal's text and JSON the size of its first
// problem where fits listed it unmeasured.
func (b *problems) measured() {
	if b.firstUnmeasured {
		b.firstUnmeasured = false
		b.text += cost(b.list[0], b.t.Name())
		b.size += jsonSize(b.list[0])
	}
}

func (b *problems) put(p Problem, n, js int) {
	if b.list == nil {
		b.list = b.roomFor().first[:0:1]
	}
	b.list = append(b.list, p)
	if n == unmeasured {
		b.firstUnmeasured = true
		return
	}
	b.text += n
	b.size += js
}

// unknownKey lists the unknown key args[start:end] (a JSON string token,
// as sent), or counts it in more when the refusal has no room for it; a
// key met before is neither. Only a key listed allocates: one string, its
// problem's text, whose fields are cut from it.
func (b *problems) unknownKey(start, end int) {
	if !b.keys.add(b.args, start, end) {
		return
	}
	if b.full() {
		b.more++
		return
	}
	raw := b.args[start:end]
	var scratch keyScratch
	buf, arg, sent := keyWords(scratch[:0], raw)
	var didYouMean string
	if b.keys.n <= maxSuggestions {
		didYouMean = closestKey(raw, b.nearNames())
	}
	listed := func(text string) Problem {
		return Problem{Code: UnknownArgument, Argument: text[arg[0]:arg[1]], Sent: text[:sent], Pointer: text[sent:], DidYouMean: didYouMean}
	}
	if (b.sent != nil || len(b.rekeys) > 0) && sent < len(buf) && paramIndex(b.t, view(buf[arg[0]:arg[1]])) >= 0 {
		b.add(listed(string(buf))) // a key named as a parameter: add rekeys its pointer
		return
	}
	// Measured on the scratch's text, which stays on the stack; copied
	// only when listed.
	n, js, ok := b.fits(listed(view(buf)))
	if !ok {
		b.more++
		return
	}
	b.put(listed(b.keep(buf)), n, js)
}

// keyScratch holds an unknown key's problem before it is listed: its
// quote (at most maxSent characters, each escaped in at most 10 bytes, and
// the count) and its pointer (the key's first jsonpath.MaxKey characters,
// each byte at most escaped in two). On the stack of the one listing it.
type keyScratch [10*maxSent + 32 + 2*jsonpath.MaxKey*utf8.UTFMax + 8]byte

// keyWords appends to dst (a keyScratch's room) what names the top-level
// key raw in a problem: buf[:sent] is the key as sent, quoted (Sent),
// buf[sent:] its JSON Pointer, and buf[arg[0]:arg[1]] the key's text
// without its quotes where it is not cut, else the quoted text (Argument).
func keyWords(dst, raw []byte) (buf []byte, arg [2]int, sent int) {
	buf, whole := appendSentWhole(dst, raw)
	sent = len(buf)
	arg = [2]int{0, sent} // quoteKey's text: the key's text, not cut, without its quotes
	if whole {
		arg = [2]int{1, sent - 1}
	}
	buf, _ = jsonpath.ArgPath(raw).AppendPointer(buf)
	return buf, arg, sent
}

// ambiguousKey words a top-level key the binder matches, ignoring case,
// to two or more parameters and fails on (AmbiguousArgument), named as an
// unknown key is. It is no unknown key: the keys met (b.keys) are those,
// which countPast counts from.
func (b *problems) ambiguousKey(start, end int) {
	var scratch keyScratch
	buf, arg, sent := keyWords(scratch[:0], b.args[start:end])
	text := string(buf)
	b.add(Problem{Code: AmbiguousArgument, Argument: text[arg[0]:arg[1]], Sent: text[:sent], Pointer: text[sent:]})
}

// view is the text of b, read before b changes (to measure a problem not
// yet listed), never kept.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// A room is what some problems take of a refusal: how many, their text,
// their JSON.
type room struct{ n, text, size int }

// hold keeps room for the problems the issues make, which are added after
// others that must not push them out; release gives it back. The issues
// must be in arguments no other issue is in (the parameters left out).
func (b *problems) hold(issues []bind.Issue) {
	if len(issues) == 0 {
		return
	}
	c := newProblems(b.t, b.args)
	c.ms = b.ms
	c.rekeys, c.sent = b.rekeys, b.sent
	c.issues(issues)
	c.measured()
	b.held = room{len(c.list), c.text, c.size}
	if b.held.n >= MaxProblems || b.held.text >= maxProblemText || b.held.size >= maxProblemJSON {
		b.held = room{} // more than a refusal holds: first come, as ever
	}
}

func (b *problems) release() { b.held = room{} }

// cost is what problem p adds to a refusal's text: its sentence; for an
// unknown key, which the text names among others, its key.
func cost(p Problem, tool string) int {
	if p.Code == UnknownArgument {
		return len(p.Argument) + len(p.Sent) + len(p.DidYouMean) + 16
	}
	return p.sentenceLen(toolText(tool)) + 1
}

// jsonSize is the length of problem p in JSON, as encoding/json writes
// it, and a comma.
func jsonSize(p Problem) int {
	n := len(`{"code":}`) + jsonlex.QuotedLen(string(p.Code)) + 1
	for _, f := range [...]struct {
		name, value string
	}{{"argument", p.Argument}, {"path", p.Path}, {"pointer", p.Pointer}, {"takes", p.Takes}, {"sent", p.Sent}, {"element", p.Element}, {"did_you_mean", p.DidYouMean}, {"becomes", p.Becomes}} {
		if f.value != "" {
			n += len(`,"":`) + len(f.name) + jsonlex.QuotedLen(f.value)
		}
	}
	return n
}

// countUnknown counts the unknown keys Check only counted (from
// b.countFrom on), unless countPast counted them already.
func (b *problems) countUnknown() {
	if !b.counted && b.countFrom >= 0 {
		b.countPast(b.countFrom)
	}
}

func (b *problems) refusal() *Refusal {
	var r *Refusal
	var names []string // where the refusal's list of names goes
	if room := b.room; room != nil {
		r, names, b.room = &room.refusal, room.accepted[:0], nil
	} else {
		r = new(Refusal) // no problem listed: all counted
	}
	*r = Refusal{Tool: b.t.Name(), Accepted: b.acceptedIn(names), Problems: b.list, More: b.more}
	return r
}

// A refusalRoom is a refusal, its first problem, the tool's names and
// the text of its first problems, allocated together when the first
// problem is worded: a call of a tool of up to roomNames parameters
// refused for one problem takes one allocation for the four.
type refusalRoom struct {
	refusal  Refusal
	first    [1]Problem
	accepted [roomNames]string
	text     [roomText]byte // the strings keep holds, text[:textN]
	textN    int
}

// roomNames is how many parameters' names a refusalRoom holds: most tools
// take no more.
const roomNames = 8

// roomText is how many bytes of its problems' text a refusalRoom holds:
// a quoted value of maxSent characters, or an unknown key's quote and
// pointer, written plain.
const roomText = 128

// roomFor returns the refusal's room, allocated on first use.
func (b *problems) roomFor() *refusalRoom {
	if b.room == nil {
		b.room = new(refusalRoom)
	}
	return b.room
}

// keep returns text as a string: held in the refusal's room where the
// room has space for it, else a copy of its own. The room's text is
// written once per string and never again, so a string held there never
// changes.
func (b *problems) keep(text []byte) string {
	if len(text) == 0 {
		return ""
	}
	r := b.roomFor()
	n := r.textN
	if len(text) > len(r.text)-n {
		return string(text)
	}
	r.textN += copy(r.text[n:], text)
	return unsafe.String(&r.text[n], len(text))
}

// quote is quoteSent of raw, its text kept in the refusal's room where it
// fits (see keep).
func (b *problems) quote(raw []byte) string {
	var buf [4*maxSent + 32]byte // the quote of most values
	return b.keep(appendSent(buf[:0], raw))
}

// nearNames returns the tool's parameters' names as closestKey compares
// an unknown key to them: a struct tool's normalized once, in its record
// (derivedOf); a schema tool's, whose refusals are not on its calls' path
// (its checks allocate), for each refusal.
func (b *problems) nearNames() []toolrec.NearName {
	if b.near == nil {
		if b.t.Plan() == nil {
			b.near = nearNames(b.acceptedNames())
		} else {
			b.near = derivedOf(b.t).Near
		}
	}
	return b.near
}

// acceptedNames returns the tool's parameters' names, read once.
func (b *problems) acceptedNames() []string {
	if b.accepted == nil {
		b.accepted = b.t.Accepted()
	}
	return b.accepted
}

// acceptedIn returns the tool's parameters' names for a refusal, a list of
// its own: read before (acceptedNames), or written in room where they fit
// (a slice of no length of a room's names), or else read.
func (b *problems) acceptedIn(room []string) []string {
	ps := recParams(b.t)
	if b.accepted != nil || room == nil || len(ps) > cap(room) {
		return b.acceptedNames() // (a list, empty for no parameter: "accepted":[])
	}
	room = room[:len(ps):len(ps)] // the caller's append leaves the room
	if b.t.Plan() != nil {
		copy(room, derivedOf(b.t).Names) // a struct tool's, read once
		return room
	}
	for i, p := range ps {
		room[i] = p.Name
	}
	return room
}

// claim reports whether argument i has no problem yet, and gives it one.
func (b *problems) claim(i int) bool {
	return b.claimed.add(i)
}

// A paramSet is a set of a tool's n parameters, by index: a word for the
// first 64, with no allocation, and a slice past them.
type paramSet struct {
	n    int
	low  uint64
	high []bool // parameters 64 and on, made when one is added
}

// add adds parameter i, and reports whether it is one of the tool's that
// was not in the set.
func (s *paramSet) add(i int) bool {
	switch {
	case i < 0 || i >= s.n:
		return false
	case i < 64:
		if s.low&(1<<i) != 0 {
			return false
		}
		s.low |= 1 << i
		return true
	}
	if s.high == nil {
		s.high = make([]bool, s.n-64)
	}
	if s.high[i-64] {
		return false
	}
	s.high[i-64] = true
	return true
}

func (b *problems) issues(issues []bind.Issue) {
	t, args, w := b.t, b.args, b.w
	for _, is := range issues {
		switch c := b.problemCode(is); c {
		case DuplicateName:
			b.duplicate(is)
		case InvalidJSON:
			text, at := args, is.Start
			if b.own != nil {
				text, at = b.own, b.ownAt(at) // the byte as the call sent it
			}
			b.add(Problem{Code: InvalidJSON, Takes: "a JSON object", Sent: syntaxSent(text, at)})
		case TooDeep:
			p := Problem{Code: TooDeep}
			if is.Param >= 0 {
				tp := recParams(t)[is.Param]
				p.Argument, p.Takes, p.Pointer = tp.Name, w.param(is.Param), is.Path.Pointer()
				head := args[is.Start:min(len(args), is.Start+4*maxSent)]
				cut, _ := jsonlex.CutWritten(head, maxSent)
				p.Sent = escapeText(head[:cut]) + "…"
			}
			b.add(p)
		case NotAnObject:
			b.add(Problem{Code: NotAnObject, Takes: "a JSON object", Sent: quoteSent(args[is.Start:is.End])})
		case AmbiguousArgument:
			b.ambiguousKey(is.Start, is.End)
		case UnknownArgument:
			switch {
			case b.counted: // counted by countPast
			case b.full() && b.ms != nil:
				// No more room: this key and every unknown key after it
				// are counted, once each, from the members.
				b.countPast(is.Start)
			default:
				b.unknownKey(is.Start, is.End)
			}
		case MissingField:
			if b.claim(is.Param) {
				b.add(b.missingField(is))
			}
		case MissingArgument:
			if !b.claim(is.Param) {
				continue
			}
			p := recParams(t)[is.Param]
			pr := Problem{Code: MissingArgument, Argument: p.Name, Takes: w.param(is.Param)}
			if is.End > is.Start { // sent as null, which does not count
				pr.Sent = quoteSent(args[is.Start:is.End])
				pr.Pointer = is.Path.Pointer()
			}
			b.add(pr)
		default:
			if is.Param < 0 && c.Class() == bind.BinderFailure {
				b.refusedOutside(is)
				continue
			}
			if !b.claim(is.Param) {
				continue
			}
			b.add(b.valueProblem(is, c))
		}
	}
}

// refusedOutside words a failure of a bind.Reader binder in no argument:
// a key the record does not know, which the server's own reader refuses,
// as an unknown argument; or the arguments as a whole, which the reader
// refuses though it reads each argument alone (Start == End).
func (b *problems) refusedOutside(is bind.Issue) {
	if is.End > is.Start {
		b.outside = true // a key the pass did not count (see countPast)
		b.unknownKey(is.Start, is.End)
		return
	}
	if b.seenWhole {
		return
	}
	b.seenWhole = true
	b.add(Problem{Code: InvalidValue, Takes: "a JSON object", Sent: quoteSent(b.args)})
}

// missingField words a required field an object inside the argument
// leaves out: the issue spans the object, and its path ends at the field.
func (b *problems) missingField(is bind.Issue) Problem {
	p := recParams(b.t)[is.Param]
	path := bindcap.Path(is.Path)
	var name string
	if last, ok := path.Last(); ok && last.IsKey {
		name = jsonpath.QuoteKey(last.Key, last.Cut)
	}
	return Problem{
		Argument: p.Name,
		Path:     path.String(),
		Pointer:  path.Pointer(),
		Code:     MissingField,
		Takes:    b.w.param(is.Param),
		Sent:     quoteSent(b.memberValue(is.Start)),
		Element:  name,
	}
}

// valueProblem words an issue with one value (or key) inside an argument,
// as a problem of code c.
func (b *problems) valueProblem(is bind.Issue, c Code) Problem {
	p := recParams(b.t)[is.Param]
	path := is.Path.String() // bind's own, unboxed: bindcap.Path's any costs an allocation
	pr := Problem{
		Argument: p.Name,
		Path:     path,
		Pointer:  b.pointerOf(is, path),
		Code:     c,
		Takes:    b.w.param(is.Param),
		Sent:     b.quote(b.args[is.Start:is.End]),
	}
	switch is.Kind {
	case bind.FoldedKey, bind.DuplicateKey:
		// The offending text is a key: Sent quotes it, as for an unknown
		// argument.
		switch {
		case is.Kind == bind.FoldedKey:
			pr.Becomes = foldedTo(b.t, is)
		case pr.Path == "":
			pr.Becomes = quoteSentOr(b.readOf(is.Param))
		}
		return pr
	case bind.UnknownField, bind.AmbiguousField:
		pr.Element, pr.Sent = pr.Sent, b.quote(b.memberValue(is.Start))
		return pr
	}
	if is.Kind.Class() == bind.SilentLoss {
		pr.Becomes = becomes(b.args[is.Start:is.End], is)
		if is.Kind == bind.NullForValue && pr.Path == "" {
			// A null after a value the binder keeps: it reads that value.
			if v := b.readOf(is.Param); v != nil && !b.rules.null(is.Param, v) {
				pr.Becomes = quoteSent(v)
			}
		}
	}
	if pr.Path == "" {
		return pr // the offending value is the argument's whole value
	}
	if whole := b.memberValue(is.Start); whole != nil && len(whole) != is.End-is.Start {
		pr.Element, pr.Sent = pr.Sent, b.quote(whole)
	}
	return pr
}

// pointerOf returns the JSON Pointer of issue is's path (path, its
// readable form): where the path leads to the value of an argument sent
// under its parameter's name as it is, the tool's own (derivedOf), with
// nothing to build or allocate.
func (b *problems) pointerOf(is bind.Issue, path string) string {
	if b.ms != nil && is.Param >= 0 && is.Path != (bind.Path{}) && path == "" {
		if i := b.ms.Find(is.Start); i >= 0 {
			if m := b.ms.At(i); m.Value.Start == is.Start && m.Key.End-m.Key.Start >= 2 && m.Key.End <= len(b.args) {
				ps := recParams(b.t)
				if raw := b.args[m.Key.Start+1 : m.Key.End-1]; is.Param < len(ps) && string(raw) == ps[is.Param].Name {
					if d := derivedOf(b.t); is.Param < len(d.Pointers) {
						return d.Pointers[is.Param]
					}
				}
			}
		}
	}
	return is.Path.Pointer()
}

// problemCode is the code of the problem issue is worded as. It is the
// issue's own (bind reports the codes refuse publishes), but for the two
// that bind cannot tell, and this is the one place refuse chooses them:
//   - DuplicateName: the binder refusing a key sent more than once in one
//     object (V2's jsontext.ErrDuplicateName, in Err, as the binder's
//     capabilities tell: bindcap.DuplicateName),
//     whatever failure bind reports it as;
//   - NotOneOf: a value its type's decoder refuses (InvalidValue) where
//     the published schema at the value lists the values it takes.
func (b *problems) problemCode(is bind.Issue) Code {
	if _, _, ok := bindcap.DuplicateName(b.w.binder, is.Err); ok {
		return DuplicateName
	}
	if is.Kind == bind.InvalidValue && is.Param >= 0 && is.Param < len(recParams(b.t)) {
		if s := b.w.resolve(b.w.at(paramSchema(&recParams(b.t)[is.Param]), bindcap.Path(is.Path))); s != nil && len(s.Enum) > 0 {
			return NotOneOf
		}
	}
	return is.Kind
}

func syntaxSent(args []byte, at int) string {
	if at >= len(args) {
		return "the text ends before the JSON value does"
	}
	// The one character there (one byte of an escape, ASCII, or of
	// invalid UTF-8), read without counting the rest of the call: a call
	// can hold a thousand such places.
	_, size := utf8.DecodeRune(args[at:])
	return "byte " + strconv.Itoa(at) + " (" + quoteChar(args[at:at+size]) + ") cannot stand there"
}

// unquoteKey returns the text of the JSON string raw (quotes included), as
// encoding/json reads it: escapes undone, invalid UTF-8 and lone surrogates
// replaced with U+FFFD. Text that is not a JSON string comes back as it is.
func unquoteKey(raw []byte) string {
	return string(appendKeyText(nil, raw))
}

// appendKeyText appends to dst the text of the key raw, as unquoteKey
// returns it.
func appendKeyText(dst, raw []byte) []byte {
	if end, f, ok := jsonlex.String(raw, 0); ok && end == len(raw) && f&jsonlex.Escaped == 0 && (f&jsonlex.NonASCII == 0 || utf8.Valid(raw)) {
		return append(dst, raw[1:len(raw)-1]...) // its text is its bytes
	}
	if text, ok := jsonlex.Unquote(dst, raw); ok {
		return text
	}
	return append(dst, raw...)
}

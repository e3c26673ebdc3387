package bind

// Empty interfaces of a name of their own (type NA interface{}), in the
// proving pass of V2 and SegmentIO: each binder reads one as it reads any.
// V2 (makeInterfaceArshaler) puts a bool, string, float64, map[string]any
// or []any in it as unmarshalValueAny does for any, by those types' own
// arshalers, with the same verdicts (its failures, repeated names and
// invalid text at the same places); segmentio (decodeMaybeEmptyInterface)
// parses the value into an any. The loss walk types the losses
// of what one holds as any's (lossAnyFloat, lossAnyString in lossoracle_test.go): so does the
// pass (lossAt). But segmentio decodes a key repeated into the value the
// key before left, and fails on a named one holding a value but a
// pointer (an UnmarshalTypeError, where any's value is replaced): the pass
// declines a call that repeats a struct's field that may hold one (see
// segFresh, fieldAgain; a map's values it decodes into fresh ones).

// lossAt is the position a proving pass reports issue kind of a value read
// into n at: any's for a loss in an empty interface's own value, named or
// not (see above), n otherwise.
func (c *checker) lossAt(n *node, kind Code) *node {
	if c.prove && n != nil && n.kind == kAny && kind.Class() != BinderFailure {
		return anyNode
	}
	return n
}

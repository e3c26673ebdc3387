package bench

// Rival names: the sub-benchmark names under each payload's benchmark.
const (
	RivalBind         = "bind"                // encoding/json into the struct: the 1.00x
	RivalSegmentio    = "segmentio"           // segmentio/encoding/json into the struct
	RivalValid        = "valid"               // json.Valid on the arguments
	RivalNaive        = "naive"               // the naive guard
	RivalRefuse       = "refuse"              // refuse.Refuse with bind.Std
	RivalSanthosh     = "santhosh"            // santhosh-tekuri/jsonschema: decode + validate
	RivalMCPGo        = "mcpgo"               // mcp-go server, WithInputSchemaValidation, HandleMessage
	RivalMCPGoPlain   = "mcpgo-plain"         // the same server without validation
	RivalGoSDK        = "gosdk"               // go-sdk's pre-handler path, reproduced
	RivalGoSDKSession = "gosdk-session"       // go-sdk mcp.AddTool, through a real session
	RivalGoSDKPlain   = "gosdk-session-plain" // go-sdk Server.AddTool + bind, same session route
)

// Rivals lists the rivals in the order the benchmarks run them.
var Rivals = []string{
	RivalBind, RivalSegmentio, RivalValid, RivalNaive, RivalRefuse, RivalSanthosh,
	RivalMCPGo, RivalMCPGoPlain, RivalGoSDK, RivalGoSDKSession, RivalGoSDKPlain,
}

// A Verdict is what a rival is expected to do with a payload.
type Verdict int

const (
	// Accepts: the rival lets the call through (the handler runs, for the
	// server routes).
	Accepts Verdict = iota
	// Refuses: the rival stops the call.
	Refuses
	// Cannot: the route cannot carry the payload at all, so it is not
	// measured (the reason is in Unmeasured).
	Cannot
)

func (v Verdict) String() string {
	switch v {
	case Accepts:
		return "accepts"
	case Refuses:
		return "refuses"
	}
	return "not measured"
}

// deviations are the verdicts that differ from the binder's. Every one is a
// property of the rival, checked by the tests, not a failure of the
// benchmark.
var deviations = map[[2]string]Verdict{
	// json.Valid only checks syntax.
	{"Number100kDigits", RivalValid}: Accepts,
	{"Number1MDigits", RivalValid}:   Accepts,
	// The schema says "type": "integer" with no bound: any whole number
	// passes, however large.
	{"Number100kDigits", RivalSanthosh}: Accepts,
	{"Number1MDigits", RivalSanthosh}:   Accepts,
	// encoding/json's 10,000-level cap counts the JSON-RPC envelope: the
	// frame is refused as unparsable before any tool code runs.
	{"Nest9999", RivalMCPGo}:      Refuses,
	{"Nest9999", RivalMCPGoPlain}: Refuses,
	// go-sdk caps nesting at 1,000 levels.
	{"Nest9999", RivalGoSDK}: Refuses,
}

// checksKeys are the rivals that refuse a key no parameter takes, which
// the binder ignores: Refuse (by its unknown-keys policy, with every
// binder), the naive guard, and the schema validators (typereg's schema
// and the one go-sdk infers both say additionalProperties: false). On a
// Policy payload they refuse; the others read it as the binder does.
var checksKeys = map[string]bool{
	RivalNaive: true, RivalRefuse: true, RivalSanthosh: true,
	RivalMCPGo: true, RivalGoSDK: true, RivalGoSDKSession: true,
}

// Unmeasured says, per payload and rival, why a route cannot carry the
// payload.
var Unmeasured = map[[2]string]string{
	{"Nest999", RivalGoSDKSession}:        "go-sdk's 1,000-level cap counts the JSON-RPC envelope: the server drops the connection (the client sees EOF)",
	{"Nest999", RivalGoSDKPlain}:          "go-sdk's 1,000-level cap counts the JSON-RPC envelope: the server drops the connection (the client sees EOF)",
	{"NestObjects999", RivalGoSDKSession}: "go-sdk's 1,000-level cap counts the JSON-RPC envelope: the server drops the connection (the client sees EOF)",
	{"NestObjects999", RivalGoSDKPlain}:   "go-sdk's 1,000-level cap counts the JSON-RPC envelope: the server drops the connection (the client sees EOF)",
	{"Nest9999", RivalGoSDKSession}:       "the client cannot send it: encoding/json's 10,000-level cap, counting the envelope, fails the marshal of the request",
	{"Nest9999", RivalGoSDKPlain}:         "the client cannot send it: encoding/json's 10,000-level cap, counting the envelope, fails the marshal of the request",
}

// Expected returns what rival is expected to do with payload p: what the
// binder does, unless the rival is known to differ.
func Expected(p *Payload, rival string) Verdict {
	rival = base(rival)
	if _, ok := Unmeasured[[2]string{p.Name, rival}]; ok {
		return Cannot
	}
	if v, ok := deviations[[2]string{p.Name, rival}]; ok {
		return v
	}
	if rival == RivalValid {
		return Accepts
	}
	if p.Policy && checksKeys[rival] {
		return Refuses
	}
	if p.BindOK {
		return Accepts
	}
	return Refuses
}
